"""A close choice: the two or three candidate rules the answer may be about, each named with what it is about.

The selection scores every candidate set of rules (core.answer.selection). When the best leads the next by less
than CLOSE_MARGIN, the answer names the candidates ("this may be about: Notification to individuals, 45 CFR 164.404 · Security incident procedures,
45 CFR 164.308(a)(6)"), each one click from its source, rather than asserting the first.
"""
from __future__ import annotations

from core.answer.deps import AnswerDeps
from core.answer.models import RuleRef
from core.answer.selection import UNSURE_MARGIN, Selection
from core.domain import StoreError

# The score lead under which the choice counts as close. For now the selection's UNSURE_MARGIN (the old "not
# clear-cut" caveat's line, also the fit's); bench.answers / bench.regress record each answer's margin
# (`margin`) beside its P / R, so the line can be set where the chosen rules stop being likelier right than wrong.
CLOSE_MARGIN = UNSURE_MARGIN
MAX_NAMED = 3


def close_units(selection: Selection, cited: list[str], margin: float = CLOSE_MARGIN,
                most: int = MAX_NAMED) -> list[str]:
    """The cited units, then the units of every other candidate set scored within `margin` of the best, best
    first, each once, at most `most`; empty when the best leads by `margin` or more, or nothing else is that close."""
    if selection.runner_up is None or selection.score - selection.runner_up >= margin:
        return []
    units = list(cited)
    for score, members in selection.alternatives:
        if selection.score - score < margin:
            units += members
    named = list(dict.fromkeys(units))[:most]
    return named if len(set(named) - set(cited)) else []


def topics(deps: AnswerDeps, unit_ids: list[str]) -> dict[str, str]:
    """Each unit's title, else its nearest titled ancestor's below the document (one graph read for all)."""
    units = {u: deps.ledger.units[u].unit for u in unit_ids if u in deps.ledger}
    untitled = [u for u, unit in units.items() if not unit.title]
    above = {}
    if deps.graph is not None and untitled:
        try:
            above = deps.graph.ancestors_of(untitled)
        except StoreError as exc:
            deps.graph_failed(exc, "reading the headings of the close candidates")
    out: dict[str, str] = {}
    for u, unit in units.items():
        titled = [a for a in [unit, *reversed(above.get(u, []))] if a.type != "document" and a.title]
        out[u] = titled[0].title if titled else ""
    return out


def may_be_about(deps: AnswerDeps, selection: Selection, cited: list[str]) -> list[RuleRef]:
    """The candidates of a close choice, the cited rules first; none when the choice was clear."""
    named = close_units(selection, cited)
    about = topics(deps, named)
    return [RuleRef(unit_id=u, label=deps.ledger.units[u].unit.label or u, topic=about.get(u, ""))
            for u in named if u in deps.ledger]
