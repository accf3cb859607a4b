"""UK-style textual amendment notes → amendment history on the unit that carries the note's marker.

    1. [F47 ‘competent authority’ means the FCA.]
    Textual Amendments
    F47 Words in Art. 4(1) substituted (31.12.2020) by S.I. 2019/419, regs. 1(1), 3(2)

The note lines leave the text (they describe it, they are not law); the unit whose words carry
"F47" gets {marker, action, date, by, note} in metadata["amendment_history"] (JSON list), and a
unit whose every word was omitted or repealed gets status repealed.
"""
from __future__ import annotations

import json
import re

from core.domain import LegalUnit

NOTE = re.compile(
    r"(?P<marker>F\d{1,4})\s{0,3}(?P<note>[^\n]{0,400}?\b(?P<action>substituted|inserted|omitted|repealed|revoked|added|deleted)\b[^\n]{0,600})"
)
_NOTES_HEADER = re.compile(r"Textual\sAmendments", re.I)
_DATE = re.compile(r"\((?P<date>\d{1,2}\.\d{1,2}\.\d{4})\)")
_BY = re.compile(
    r"\bby\s(?:virtue\sof\s)?(?:the\s)?(?P<by>[^\n]{0,200}?(?:S\.I\.\s\d{4}/\d{1,5}|\d{4}\sc\.\s\d{1,4}|\(EU\)\s\d{4}/\d{1,5}|Act\s\d{4}))"
)
_REMOVED = ("omitted", "repealed", "revoked", "deleted")
_LEFTOVER = re.compile(r"[\W\d_]|F\d{1,4}|\b(?:Art(?:icle)?|Sch|reg)\b", re.I)


def split_notes(texts: list[str]) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The text without its amendment-note lines, and each note by its marker."""
    kept: list[str] = []
    notes: dict[str, dict[str, str]] = {}
    for text in texts:
        stripped = text.strip()
        match = NOTE.fullmatch(stripped)
        if match:
            note = {"marker": match["marker"], "action": match["action"], "note": stripped}
            date, by = _DATE.search(match["note"]), _BY.search(match["note"])
            if date:
                note["date"] = date["date"]
            if by:
                note["by"] = by["by"].strip()
            notes[match["marker"]] = note
            continue
        if notes and _NOTES_HEADER.fullmatch(stripped):
            continue
        kept.append(text)
    if notes:
        # A header line just before the first note was kept before the note was seen: drop it.
        kept = [t for t in kept if not _NOTES_HEADER.fullmatch(t.strip())]
    return kept, notes


def attach_notes(units: list[LegalUnit], notes: dict[str, dict[str, str]]) -> None:
    if not notes:
        return
    for unit in units:
        found = [notes[m] for m in dict.fromkeys(re.findall(r"(?<![A-Za-z0-9])(F\d{1,4})(?!\d)", unit.text)) if m in notes]
        if not found:
            continue
        unit.metadata["amendment_history"] = json.dumps(found, ensure_ascii=False)
        body = unit.text.split("\n", 1)[-1] if unit.type.value in ("article", "section", "rule") else unit.text
        if all(n["action"] in _REMOVED for n in found) and len(_LEFTOVER.sub("", body)) <= 3:
            unit.metadata["status"] = "repealed"
