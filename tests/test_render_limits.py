"""The chat settings' caps around the answerer's stores (k, hops, edge types), on the real graph."""
from __future__ import annotations

from core.answer.graph import Neo4jGraph
from core.answer.stores import Stores
from core.answer.tools import MEANING_POOL
from core.chat.controls import RunOptions, read_options
from core.chat.limits import LimitedGraph, LimitedRetriever, limited
from core.retrieval.base import RetrievalRequest, RetrievalResult, Retriever
from tests.render_support import real_walk


class Recorder(Retriever):
    name = "recorder"

    def __init__(self) -> None:
        self.requests: list[RetrievalRequest] = []

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        self.requests.append(request)
        return RetrievalResult(method=self.name, hits=[])

    def corpus_stores(self, corpus: str) -> None:
        return None


def test_graph_caps_hops_and_edge_types(neo4j_driver, hipaa_corpus, test_settings):
    envelope, _ = real_walk(neo4j_driver, test_settings.neo4j_database)
    a, b, c = envelope.evidence_ids
    graph = Neo4jGraph(neo4j_driver, test_settings.neo4j_database)
    only_refs = LimitedGraph(graph, max_hops=1, edge_types=["REFERENCES"])
    reached = only_refs.expand([a], ["REFERENCES", "DEFINES"], max_hops=3, node_cap=50)
    assert b in {r.unit_id for r in reached} and all(r.hops == 1 for r in reached)
    assert all(e.type == "REFERENCES" for r in reached for e in r.path)
    assert LimitedGraph(graph, max_hops=0, edge_types=["REFERENCES"]).expand([a], ["REFERENCES"], 2, 50) == []
    assert LimitedGraph(graph, 2, ["AMENDS"]).edges_among([a, b], ["REFERENCES"]) == []
    assert only_refs.fetch_units([c])[c].id == c  # other reads pass through


def test_retriever_uses_the_panel_k():
    inner = Recorder()
    stores = limited(Stores(inner, None), k=4, max_hops=1, edge_types=["REFERENCES"])
    assert isinstance(stores.retriever, LimitedRetriever) and stores.graph is None
    assert stores.search_k == 4  # the run's seeds: the panel's k
    stores.retriever.retrieve(RetrievalRequest(question="q", corpus="hipaa", k=100))
    assert inner.requests[0].k == 4 + MEANING_POOL  # and no more than the units read below them


def test_settings_panel_values_are_checked():
    current = RunOptions(corpus="hipaa")
    change = read_options({"hops": 1.0, "k": "5", "edge_types": ["DEFINES", "DROP TABLE"], "method": "bm25"}, current,
                          ["hipaa"])
    changed = change.options
    assert (changed.hops, changed.k, changed.edge_types, changed.method) == (1, 5, ["DEFINES"], "bm25")
    assert change.problems == []
    assert read_options({"hops": 99}, current, ["hipaa"]).options == current


def test_settings_panel_refuses_a_corpus_never_ingested():
    """A websocket message can carry any corpus name: one that is not ingested keeps the current corpus and is named
    back to the user with the corpora there are, so nothing is opened or started for it."""
    current = RunOptions(corpus="hipaa")
    for crafted in ("no-such-corpus", "../../etc", ["hipaa"], {"$ne": 1}):
        change = read_options({"corpus": crafted, "k": 5}, current, ["adgm", "hipaa"])
        assert change.options.corpus == "hipaa" and change.options.k == 5
        assert len(change.problems) == 1 and repr(crafted)[:20] in change.problems[0]
        assert "adgm, hipaa" in change.problems[0]
    assert read_options({"corpus": "adgm"}, current, ["adgm", "hipaa"]).options.corpus == "adgm"
    refused = read_options({"method": "nope"}, current, ["hipaa"])
    assert refused.options.method == current.method and "'nope'" in refused.problems[0]
