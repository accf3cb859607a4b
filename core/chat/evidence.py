"""Turns an AnswerEnvelope into the AnswerView the chat shows: units, document titles, edges among the evidence."""
from __future__ import annotations

from datetime import UTC, datetime

from neo4j import Driver
from neo4j.exceptions import DriverError, Neo4jError

from core.answer.dated import dated_words
from core.answer.models import AnswerEnvelope
from core.domain import CITATION_EDGE_TYPES, Edge
from core.render.dated import DatedView, dated_view
from core.render.history import HistoryView, read_history
from core.render.view import AnswerView, build_view
from core.stores.queries import (
    DocumentRecord,
    UnitRecord,
    document_records,
    fetch_units,
    law_as_of,
    neighbours,
    wordings,
)

GRAPH_NODE_CAP = 40


def graph_unit_ids(envelope: AnswerEnvelope, cap: int = GRAPH_NODE_CAP) -> list[str]:
    """What the answer names first (rules, chain), then seeds, then the rest of the evidence, up to the cap."""
    answer = envelope.answer
    named = [r.unit_id for r in answer.rules] + [i for e in answer.chain for i in (e.source, e.target)]
    ordered = list(dict.fromkeys([*named, *envelope.seed_ids, *envelope.evidence_ids]))
    return ordered[: max(cap, len(set(named)))]


def answer_view(driver: Driver | None, database: str, envelope: AnswerEnvelope) -> AnswerView:
    """With Neo4j down (driver None or failing) the view is built from the envelope alone: the answer and its
    notices still reach the user, only the stored texts, titles and graph edges are missing."""
    ids = graph_unit_ids(envelope)
    units: dict[str, UnitRecord] = {}
    documents: dict[str, DocumentRecord] = {}
    edges: list[Edge] = []
    histories: dict[str, HistoryView] = {}
    dated: dict[str, DatedView] = {}
    if driver is not None:
        try:
            units = fetch_units(driver, database, ids)
            if envelope.as_of:
                units, dated = as_of(driver, database, envelope, units)
            documents = document_records(driver, database, (u.document_id for u in units.values()))
            edges = neighbours(driver, database, list(units), CITATION_EDGE_TYPES, direction="out")
            histories = card_histories(driver, database, [r.unit_id for r in envelope.answer.rules], units)
        except (Neo4jError, DriverError, OSError):
            units, documents, edges, histories, dated = {}, {}, [], {}, {}
    shown = envelope.model_copy(update={
        "evidence_ids": [i for i in envelope.evidence_ids if i in ids],
        "seed_ids": [i for i in envelope.seed_ids if i in ids],
    })
    titles = {d.id: d.title or d.id for d in documents.values()}
    return build_view(shown, units, titles, edges, histories=histories, documents=documents,
                      answered_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"), dated=dated)


def as_of(driver: Driver, database: str, envelope: AnswerEnvelope, units: dict[str, UnitRecord]
          ) -> tuple[dict[str, UnitRecord], dict[str, DatedView]]:
    """The units with the words in force on the answer's date (the ones its claims quote), and each cited rule's
    status that day with the changes adopted but not yet in force."""
    day = envelope.as_of or ""
    words = dated_words(day, wordings(driver, database, list(units)))
    dated_units = {uid: words.apply(unit) or unit for uid, unit in units.items()}
    dated: dict[str, DatedView] = {}
    for rule in envelope.answer.rules:
        found = dated_view(law_as_of(driver, database, rule.unit_id, day, rule.label))
        if found is not None:
            dated[rule.unit_id] = found
    return dated_units, dated


def card_histories(driver: Driver, database: str, unit_ids: list[str], units: dict[str, UnitRecord]
                   ) -> dict[str, HistoryView]:
    """Each cited rule's status and amendments; the newest words when an amending provision holds them."""
    out: dict[str, HistoryView] = {}
    for unit_id in dict.fromkeys(unit_ids):
        view = read_history(driver, database, unit_id, units[unit_id].text if unit_id in units else "")
        if view is not None:
            out[unit_id] = view
    return out
