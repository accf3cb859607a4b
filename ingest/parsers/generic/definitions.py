"""Definitions drafted as "‘term’ means …": each such clause or point is a definition unit of its term.

    (1) ‘personal data’ means any information …          → term "personal data"
    (11) ‘consent’ of the data subject means …            → term "consent"
    (b) "financial entity" shall mean …                   → term "financial entity"

Such terms are used in lower case throughout the act ("the controller", "processing"), unlike a
capitalised defined term, so the unit says that its term matches in any case (term_case=any).
"""
from __future__ import annotations

import re

from core.domain import LegalUnit, UnitType

_LABEL = r"(?:\(\w{1,4}\)|\d{1,3}[.)])?"
QUOTED_DEFINITION = re.compile(
    rf"{_LABEL}\s{{0,3}}[‘“\"'](?P<term>[^’”\"'\n]{{1,80}})[’”\"']"
    r"(?:\s(?:of|in\srelation\sto|for)\s[\w\s\-]{1,40}?)?"
    r"(?:\s\([^)\n]{1,60}\))?,?\s(?:means|shall\smean|refers\sto|is\sdefined\sas)\b"
)
_DEFINABLE = (UnitType.CLAUSE, UnitType.POINT, UnitType.PARAGRAPH)


def mark_definitions(units: list[LegalUnit]) -> int:
    """Retype every clause or point that opens with a quoted-term definition; returns how many."""
    count = 0
    for unit in units:
        if unit.type not in _DEFINABLE:
            continue
        match = QUOTED_DEFINITION.match(unit.text)
        if match is None:
            continue
        unit.type = UnitType.DEFINITION
        unit.metadata.update({"term": " ".join(match["term"].split()), "term_case": "any"})
        count += 1
    return count
