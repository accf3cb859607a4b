"""Type a citation edge from the words around it (deterministic, no LLM)."""
from __future__ import annotations

import re

from core.domain import EdgeType

# Cues are looked for in a short window before the citation (and, for passive forms, just after it):
# the verb that governs a citation sits next to it in regulatory drafting.
_BEFORE = 90
_AFTER = 40

_CUES: tuple[tuple[EdgeType, re.Pattern[str], re.Pattern[str] | None], ...] = (
    (
        EdgeType.REPLACES,
        re.compile(r"\b(?:replac(?:es|ing|ed)|supersed(?:es|ing)|in (?:place|lieu) of|substitut(?:es|ing))\b|thay thế|대체", re.I),
        re.compile(r"^\W{0,3}(?:is|are|shall be|was|were)\s+(?:hereby\s+)?(?:replaced|superseded|repealed and replaced)\b|^[^.。]{0,30}대체", re.I),
    ),
    (
        EdgeType.AMENDS,
        re.compile(r"\b(?:amend(?:s|ing|ment to|ments to)|is amended|modif(?:ies|ying)|revis(?:es|ing))\b|sửa đổi|bổ sung|개정", re.I),
        re.compile(r"^\W{0,3}(?:is|are|shall be|was|were)\s+(?:hereby\s+)?amended\b|^[^.。]{0,30}개정", re.I),
    ),
    (
        EdgeType.DELEGATES_TO,
        re.compile(
            r"\b(?:as (?:prescribed|specified|provided|set out|determined) (?:by|in) (?:rules|regulations|the regulator|an? (?:order|notice|decree))"
            r"|as (?:may be )?(?:prescribed|specified) (?:in|by) rules made"
            r"|rules made (?:by|under)|prescribed by (?:presidential )?decree)\b|quy định chi tiết|대통령령으로 정하는",
            re.I,
        ),
        None,
    ),
    (
        EdgeType.SPECIFIES,
        re.compile(r"\b(?:(?:rules|regulations) made under|in (?:the )?exercise of (?:the |its )?powers? (?:conferred )?(?:by|under)|issued under)\b|hướng dẫn thi hành", re.I),
        None,
    ),
    (
        EdgeType.DEFINES,
        re.compile(
            r"\b(?:as defined (?:in|at|by|under)|has the (?:same )?meaning (?:given|assigned|set out|ascribed)(?: to it)? (?:in|at|by|under)"
            r"|have the (?:same )?meanings? (?:given|assigned|set out|ascribed)(?: to them)? (?:in|at|by|under)|within the meaning of|defined (?:in|at|under))\b",
            re.I,
        ),
        None,
    ),
)


def classify_citation(text: str, start: int, end: int) -> EdgeType:
    """The edge type for the citation at text[start:end]; REFERENCES when no cue applies."""
    before = text[max(0, start - _BEFORE) : start]
    after = text[end : end + _AFTER]
    # Only the clause the citation sits in: cut the window at the last sentence/clause break.
    before = re.split(r"[.;:]\s", before)[-1]
    for edge_type, cue_before, cue_after in _CUES:
        if cue_before.search(before) or (cue_after is not None and cue_after.search(after)):
            return edge_type
    return EdgeType.REFERENCES
