"""The items under cited units (their CONTAINS children), read from the graph and recorded in the ledger.

A rule quoted without its items ("A contract … must:") does not answer anything; its items are part of it.
"""
from __future__ import annotations

from core.answer.deps import AnswerDeps, Evidence
from core.answer.quotes import is_lead_in
from core.domain import StoreError
from core.stores.queries import UnitRecord


def read_items(deps: AnswerDeps, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
    """parent id → its items in order, two levels deep below lead-in items; {} without a graph."""
    if deps.graph is None or not unit_ids:
        return {}
    # Part of composing, not a step of its own: shown as one, it split "Composing the answer" in two.
    try:
        items = deps.graph.children(unit_ids)
        nested = [i.id for kids in items.values() for i in kids if is_lead_in(i.text)]
        if nested:
            items.update(deps.graph.children(nested))
    except StoreError as exc:  # the rules are still quoted, only without their items
        deps.graph_failed(exc, "reading the items of cited provisions")
        return {}
    deps.ledger.record_all(Evidence(kid, "item", parent) for parent, kids in items.items() for kid in kids)
    return items
