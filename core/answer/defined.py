"""The definitions a question asks for, by the terms it writes.

"Are we a controller or a processor?" is answered by the definition of each term the question writes, when the
evidence holds it: word overlap and meaning rank the duties that repeat those words above the one-line definition.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from core.domain import UnitType
from core.stores.queries import UnitRecord

# At most this many terms a question asks about at once ("a controller or a processor").
MAX_TERMS = 2
# The term a definition unit defines when it has no title: quoted at its start, after a point mark ("(8) ‘processor’
# means …", "‘consent’ of the data subject means …").
_QUOTED_TERM = re.compile(r"^\s*(?:\(?\w{1,4}[.)]\s*)?[‘'\"“]([^’'\"”]{2,80})[’'\"”]")
# A quote the question opens and closes ("count as a 'personal data breach'?"), not the apostrophe of "We're".
_QUOTES = re.compile(r"(?<!\w)[‘'\"“]([^’'\"”]{2,80})[’'\"”](?!\w)")


# A Korean definitions item: "6. "채혈금지대상자"란 … 말한다." (numbered, the term quoted, then 란 / 이란): a form
# only a definition takes. (A Vietnamese one, "6. Lưu trú là việc …", reads like any sentence whose subject is
# followed by "là"; only its article's heading tells it apart, and "… là gì?" asks about far more than terms.)
DEFINITION_ITEM = re.compile(r"^\s*\d+(?:의\d+)?\.\s*[\"“'‘]([^\"”'’]{1,40})[\"”'’]\s*(?:이)?란")


def defined_term(unit: UnitRecord) -> tuple[str, bool] | None:
    """The term a definition unit defines, and whether its definition quotes it (a quoted term is meant in any
    case: "‘controller’"; a term only in a title, "Act", is meant when written capitalised, as the defined-term
    finder of the ingest reads it). A Korean definition is an item of its act's definitions article, typed as an
    item: its own words say what it defines (DEFINITION_ITEM)."""
    if unit.type != UnitType.DEFINITION:
        item = DEFINITION_ITEM.match(unit.text)
        return (item.group(1).strip(), True) if item else None
    quoted = _QUOTED_TERM.match(unit.text)
    if quoted:
        return quoted.group(1).strip(), True
    return (unit.title.strip(), False) if unit.title.strip() else None


def _spans(question: str, term: str, any_case: bool) -> list[tuple[int, int]]:
    words = [re.escape(w) for w in term.split()]
    if not words:
        return []
    pattern = r"\b" + r"\s+".join(words) + r"(?:s|es)?\b"
    flags = re.I if any_case or len(words) > 1 else 0
    return [m.span() for m in re.finditer(pattern, question, flags)]


def quoted_definitions(question: str, units: Iterable[UnitRecord]) -> list[UnitRecord]:
    """The definitions whose term the question quotes, the quote being the term alone ("Are fingerprints
    'biometric data', and …?"; not a heading quoted whole that contains one): a user who quotes a defined term
    asks whether something is that, whatever else the question asks."""
    quoted = {m.group(1).strip().casefold() for m in _QUOTES.finditer(question)}
    return [u for u in asked_definitions(question, units)
            if (term := defined_term(u)) is not None and term[0].casefold() in quoted]


def asked_definitions(question: str, units: Iterable[UnitRecord]) -> list[UnitRecord]:
    """The definition units among `units` whose term the question writes, in the order the question writes them;
    a term written only inside a longer defined term ("personal data" of "personal data breach") is not asked
    about; when the question quotes some of them, only those. At most MAX_TERMS, or none when it writes more (it
    names a topic through its terms, not the terms it asks about)."""
    found: list[tuple[tuple[int, int], UnitRecord]] = []
    for unit in units:
        term = defined_term(unit)
        if term is not None:
            found += [(span, unit) for span in _spans(question, *term)]
    inside = {i for i, (a, _) in enumerate(found) for b, _ in found
              if b != a and b[0] <= a[0] and a[1] <= b[1]}
    kept = [(span, unit) for i, (span, unit) in enumerate(found) if i not in inside]
    quoted = [(a, b) for m in _QUOTES.finditer(question) for a, b in [m.span(1)]]
    in_quotes = [(span, unit) for span, unit in kept if any(a <= span[0] and span[1] <= b for a, b in quoted)]
    chosen = sorted(in_quotes or kept, key=lambda su: su[0])
    out = list({u.id: u for _, u in chosen}.values())
    return out if len(out) <= MAX_TERMS else []
