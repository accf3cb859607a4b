"""Neo4j down: graph methods fall back to the flat ranking with a visible notice, and recover."""
from __future__ import annotations

import pytest

from core.retrieval.base import RetrievalRequest
from core.retrieval.registry import get_retriever
from core.retrieval.reload import open_stores
from core.stores import graph_reader
from core.stores.graph_reader import UNAVAILABLE, Neo4jReader
from tests.conftest import free_port

QUESTION = "What must a business associate contract contain?"


@pytest.fixture
def dead_settings(test_settings):
    return test_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "neo4j_password": "x"})


@pytest.mark.parametrize("method", ["graph", "refwalk", "citewalk"])
def test_graph_methods_degrade_to_flat(method, dead_settings, hipaa_corpus):
    request = RetrievalRequest(question=QUESTION, corpus=hipaa_corpus)
    result = get_retriever(method, dead_settings).retrieve(request)
    assert len(result.hits) == 10
    assert result.degraded and set(result.degraded) == {UNAVAILABLE}
    assert all(p.kind != "graph" for h in result.hits for p in h.provenance)


def test_flat_methods_do_not_need_neo4j(dead_settings, hipaa_corpus):
    result = get_retriever("bm25", dead_settings).retrieve(RetrievalRequest(question=QUESTION, corpus=hipaa_corpus))
    assert len(result.hits) == 10 and not result.degraded


def test_recovers_without_restart(dead_settings, test_settings, hipaa_corpus, monkeypatch):
    monkeypatch.setattr(graph_reader, "RECONNECT_EVERY_S", 0.0)
    stores = open_stores(test_settings, hipaa_corpus)
    monkeypatch.setattr(stores, "graph", Neo4jReader(dead_settings))
    # The held edges and chain starts answer this question without Neo4j (nothing is missing, nothing degraded);
    # without the chain starts its current law is a read, as on stores opened while Neo4j was down.
    monkeypatch.setattr(stores, "chain_starts", None)
    request = RetrievalRequest(question=QUESTION, corpus=hipaa_corpus)
    assert get_retriever("citewalk", test_settings).retrieve(request).degraded
    # The server "comes back": same process, same stores object, next question expands again.
    stores.graph.settings = test_settings
    result = get_retriever("citewalk", test_settings).retrieve(request)
    assert not result.degraded
