"""Sibling articles the question tells apart by their headings.

Articles whose headings differ in one slot ("Duties of the controller" / "… of the processor") read alike. When
the question writes one sibling's heading whole and not another's distinguishing words, a unit under the other
heading is not cited, unless a written citation joins it to a unit under the named heading.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.answer.deps import AnswerDeps
from core.answer.selection import candidate_units
from core.answer.terms import terms_of
from core.domain import StoreError
from core.stores.queries import UnitRecord

# Words the two headings share, at their start and end together, for them to be siblings of one frame ("Trách
# nhiệm của Bộ" is four Vietnamese syllables; "duti controller" against "duti processor" shares one, too few to
# tell a frame from a chance word).
MIN_FRAME = 2


@dataclass(frozen=True)
class Heading:
    """The title a unit sits under (its own, or its nearest titled ancestor's) and the document it is in."""

    document_id: str
    terms: tuple[str, ...]


def heading_of(unit: UnitRecord, ancestors: list[UnitRecord]) -> Heading | None:
    """The unit's own title, else its nearest titled ancestor's below the document; None when it has neither."""
    for u in [unit, *reversed(ancestors)]:
        if u.type == "document":
            break
        terms = tuple(terms_of(u.title)) if u.title else ()
        if terms:
            return Heading(unit.document_id, terms)
    return None


def read_headings(deps: AnswerDeps, unit_ids: Iterable[str]) -> dict[str, Heading]:
    """The heading of each of these ledger units, their ancestors read in one query (none without a graph)."""
    ids = [u for u in dict.fromkeys(unit_ids) if u in deps.ledger]
    if deps.graph is None or not ids:
        return {}
    units = {u: deps.ledger.units[u].unit for u in ids}
    untitled = [u for u, unit in units.items() if not unit.title]
    try:
        above = deps.graph.ancestors_of(untitled) if untitled else {}
    except StoreError as exc:
        deps.graph_failed(exc, "reading the headings of the search hits")
        above = {}
    found = {u: heading_of(unit, above.get(u, [])) for u, unit in units.items()}
    return {u: h for u, h in found.items() if h is not None}


def _holds(seq: tuple[str, ...], run: tuple[str, ...]) -> bool:
    """Whether `run` occurs in `seq` as adjacent terms."""
    n = len(run)
    return n > 0 and any(seq[i:i + n] == run for i in range(len(seq) - n + 1))


def _slot(terms: tuple[str, ...], other: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """What `terms` has where `other` differs (the two with their common start and end cut), and how many terms
    the cut took."""
    start = 0
    while start < min(len(terms), len(other)) and terms[start] == other[start]:
        start += 1
    end = 0
    while end < min(len(terms), len(other)) - start and terms[-1 - end] == other[-1 - end]:
        end += 1
    return terms[start:len(terms) - end], start + end


def other_sibling(question: tuple[str, ...], named: Heading, heading: Heading) -> bool:
    """Whether `heading` is a sibling of the `named` one (same document, shared frame) whose own slot the question
    does not write, while it writes the named heading whole."""
    if heading.document_id != named.document_id or heading.terms == named.terms or not _holds(question, named.terms):
        return False
    own, frame = _slot(heading.terms, named.terms)
    theirs, _ = _slot(named.terms, heading.terms)
    return frame >= MIN_FRAME and bool(own) and bool(theirs) and not _holds(question, own)


def off_heading(question: str, headings: Mapping[str, Heading]) -> set[str]:
    """The units under a sibling of a heading the question writes whole, whose own slot it does not write."""
    asked = tuple(terms_of(question))
    named = {h for h in headings.values() if _holds(asked, h.terms)}
    if not named:
        return set()
    return {u for u, h in headings.items()
            if h not in named and any(other_sibling(asked, n, h) for n in named)}


def off_units(deps: AnswerDeps) -> set[str]:
    """The candidate units (selection.candidate_units) under a sibling of a heading the question writes whole."""
    return off_heading(deps.question, read_headings(deps, candidate_units(deps.ledger)))
