"""Which lines describe the rules instead of being them: source and history notes, notes boxes,
amendment markers, page dates. They leave the text and are kept as metadata on a unit.

    [Reg. F, 57 FR 60106, Dec. 18, 1992, as amended at 68 FR 53283, Sept. 10, 2003]   (US source note)
    Authority: 12 U.S.C. 371b-2  /  Source: … / Editorial Note: …                   (notes boxes)
    ▼M2  ►M1 … ◄                                                                       (EU consolidation markers)
    Ngày có hiệu lực: 30/12/2025 / Effective date: 1 January 2025                      (a page's date fields)
"""
from __future__ import annotations

import re
from enum import StrEnum

# A whole bracketed paragraph that cites a gazette ("57 FR 60106") or says it was amended.
_SOURCE_NOTE = re.compile(r"\[[^\[\]]{0,4000}(?:\b\d{1,3}\s(?:FR|Fed\.\sReg\.)\s\d{1,6}|\bamended\b|\bredesignated\b)[^\[\]]{0,4000}\]\.?")
# A notes box opens with its own heading ("Authority:", "Editorial Note:", "Effective Date Note:").
NOTE_HEADING = re.compile(
    r"(?P<kind>Authority|Source|Editorial\sNotes?|Effective\sDate\sNotes?|Notes?|Statutory\sAuthority)\s?:?\s?(?P<rest>.{0,4000})",
    re.I,
)
_MARKER = r"[▼►]\s?[A-Z]{1,2}\d{0,3}"
MARKER_LINE = re.compile(rf"(?:{_MARKER}|◄)(?:\s{{0,3}}(?:{_MARKER}|◄)){{0,8}}")
INLINE_MARKER = re.compile(rf"\s?{_MARKER}\s?|\s?◄")
MARKER_NAME = re.compile(r"[▼►]\s?(?P<name>[A-Z]{1,2}\d{0,3})")
_DATE = r"\d{1,2}[/.\-]\d{1,2}[/.\-]\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s[A-Z][a-z]{2,8}\s\d{4}|[A-Z][a-z]{2,8}\s\d{1,2},\s\d{4}"
DATE_FIELD = re.compile(rf"(?P<label>[^:|]{{2,40}}?)\s?:\s?(?P<date>{_DATE})")


class LineKind(StrEnum):
    TEXT = "text"
    SOURCE_NOTE = "source_note"  # describes the unit above it
    NOTE_HEADING = "note_heading"  # opens a notes box: it and its body describe the unit above
    MARKER = "marker"  # names the act that amended the unit below it
    DATE_FIELD = "date_field"  # a page's own date field


def classify(text: str, heading: int | None) -> LineKind:
    stripped = text.strip()
    if _SOURCE_NOTE.fullmatch(stripped):
        return LineKind.SOURCE_NOTE
    if MARKER_LINE.fullmatch(stripped):
        return LineKind.MARKER
    note = NOTE_HEADING.fullmatch(stripped)
    if note and heading is not None and len(note["rest"]) < 3:
        return LineKind.NOTE_HEADING
    if note and note["kind"].lower().startswith(("authority", "source", "editorial", "effective", "statutory")) and ":" in stripped[:30]:
        return LineKind.NOTE_HEADING
    if DATE_FIELD.fullmatch(stripped):
        return LineKind.DATE_FIELD
    return LineKind.TEXT


def strip_inline_markers(text: str) -> tuple[str, list[str]]:
    """'►M1 text ◄' → ('text', ['M1'])."""
    names = [m["name"] for m in MARKER_NAME.finditer(text)]
    if not names and "◄" not in text:
        return text, []
    return " ".join(INLINE_MARKER.sub(" ", text).split()), names
