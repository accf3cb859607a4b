"""Two wordings of one provision side by side, word by word, as law.go.kr's 신구조문대비표 shows them: the old
column marks what went (<del>), the new column what came (<ins>), the rest reads the same in both.

Words are the runs between spaces (a Korean 어절, an English word with its punctuation), the spaces kept as
their own tokens so each column reads back exactly as its wording. The parts are text; the templates and the
chat's element mark them, escaped.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

_TOKENS = re.compile(r"\s+|\S+")
SAME, DELETED, INSERTED = "same", "del", "ins"


class DiffPart(BaseModel):
    text: str
    change: str = Field(default=SAME, description="same, del (only in the older wording) or ins (only in the newer)")


class Comparison(BaseModel):
    unit_id: str
    old_from: str = Field(description="the date in force of the older wording")
    new_from: str = Field(description="the date in force of the newer wording")
    old_heading: str = ""
    new_heading: str = ""
    old: list[DiffPart] = Field(default_factory=list, description="the older wording, its removed words marked")
    new: list[DiffPart] = Field(default_factory=list, description="the newer wording, its added words marked")
    changed: bool = False


def word_diff(old: str, new: str) -> tuple[list[DiffPart], list[DiffPart]]:
    """(old column, new column): each the whole wording, split into unchanged and deleted/inserted runs."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    left: list[DiffPart] = []
    right: list[DiffPart] = []
    # autojunk off: in a long article the commonest words (조, 및, the) are what aligns the rest.
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            _add(left, "".join(a[i1:i2]), SAME)
            _add(right, "".join(b[j1:j2]), SAME)
            continue
        _add(left, "".join(a[i1:i2]), DELETED)
        _add(right, "".join(b[j1:j2]), INSERTED)
    return left, right


def _add(parts: list[DiffPart], text: str, change: str) -> None:
    """Appends, joining a run to the one before it when both are the same kind (a space between two changed
    words belongs to the change, so one <del> spans the phrase)."""
    if not text:
        return
    if change != SAME and not text.strip():
        change = SAME
    if parts and (parts[-1].change == change or (not text.strip() and parts[-1].change != SAME)):
        parts[-1] = DiffPart(text=parts[-1].text + text, change=parts[-1].change)
        return
    parts.append(DiffPart(text=text, change=change))


def compare(unit_id: str, old_from: str, old_text: str, new_from: str, new_text: str,
            old_heading: str = "", new_heading: str = "") -> Comparison:
    left, right = word_diff(old_text, new_text)
    return Comparison(unit_id=unit_id, old_from=old_from, new_from=new_from, old_heading=old_heading,
                      new_heading=new_heading, old=left, new=right,
                      changed=any(p.change != SAME for p in (*left, *right)))
