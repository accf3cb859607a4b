"""Cypher-looking input cannot change a query: the graph's node and edge counts stay the same and the input is
either rejected (edge types, hops, unknown corpus) or matched as a plain value."""
from __future__ import annotations

import pytest

from core.answer.service import answer_question
from core.chat.controls import RunOptions, read_options
from core.settings import Settings
from core.stores import queries as gq
from tests.hardening_support import graph_counts

CORPUS = "x' }) DETACH DELETE n //"
EDGE = "REFERENCES]->() DETACH DELETE n //"
HOPS = "2; MATCH (n) DETACH DELETE n"
UNIT = "x'}) MATCH (n) DETACH DELETE n RETURN 1 //"


@pytest.fixture()
def unchanged(neo4j_driver, test_settings: Settings, hipaa_corpus: str):
    before = graph_counts(neo4j_driver, test_settings.neo4j_database)
    assert before[0] > 0 and before[1] > 0
    yield
    assert graph_counts(neo4j_driver, test_settings.neo4j_database) == before


def test_values_are_data(neo4j_driver, test_settings: Settings, unchanged) -> None:
    db = test_settings.neo4j_database
    assert gq.fetch_units(neo4j_driver, db, [UNIT, CORPUS]) == {}
    assert gq.neighbours(neo4j_driver, db, [UNIT], ["REFERENCES"]) == []
    assert gq.ancestors(neo4j_driver, db, UNIT) == [] and gq.current_version(neo4j_driver, db, UNIT) == []
    counts = gq.corpus_counts(neo4j_driver, db, CORPUS)
    assert counts == {"units": {}, "edges": {}, "externals": {"External": 0}}
    assert gq.corpus_units(neo4j_driver, db, CORPUS) == []


def test_edge_types_and_hops_are_rejected(neo4j_driver, test_settings: Settings, unchanged) -> None:
    db = test_settings.neo4j_database
    with pytest.raises(ValueError):
        gq.checked_types([EDGE])
    with pytest.raises(ValueError):
        gq.neighbours(neo4j_driver, db, ["hipaa/x"], [EDGE])
    with pytest.raises(ValueError):
        gq.expand(neo4j_driver, db, ["hipaa/x"], ["REFERENCES"], max_hops=HOPS)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        gq.latest_versions(neo4j_driver, db, ["hipaa/x"], max_hops=HOPS)  # type: ignore[arg-type]


def test_chat_settings_reject_injected_values(unchanged) -> None:
    current, corpora = RunOptions(corpus="hipaa"), ["hipaa"]
    assert read_options({"hops": HOPS}, current, corpora).options == current
    assert read_options({"edge_types": [EDGE]}, current, corpora).options.edge_types == current.edge_types
    assert read_options({"method": "citewalk'; DROP"}, current, corpora).options.method == current.method
    assert read_options({"k": ["1", "2"]}, current, corpora).options == current
    assert read_options({"corpus": "hipaa' }) DETACH DELETE n //"}, current, corpora).options == current


def test_questions_and_corpus_names(test_settings: Settings, hipaa_corpus: str, unchanged) -> None:
    envelope = answer_question(f"MATCH (n) DETACH DELETE n // {EDGE} {HOPS} — what is a covered entity?",
                               hipaa_corpus, test_settings)
    assert envelope.error is None and {r.unit_id for r in envelope.answer.rules} <= set(envelope.evidence_ids)
    # Not an ingested corpus: refused before any graph query or registry entry, with what to do, not taken for a bug.
    refused = answer_question("What is a covered entity?", CORPUS, test_settings)
    assert refused.error and "is not ingested here" in refused.error and "python -m ingest" in refused.error
    assert not refused.answer.rules and "internal error" not in refused.error
