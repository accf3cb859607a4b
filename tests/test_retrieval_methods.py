"""Retrievers against the real test stores (HIPAA ingested once per session)."""
from __future__ import annotations

import pytest

from core.retrieval.base import RetrievalRequest
from core.retrieval.config import RetrievalConfig
from core.retrieval.filters import Filters
from core.retrieval.registry import RETRIEVERS, get_retriever
from core.stores import queries as graph_queries

QUESTION = "When may a covered entity use or disclose protected health information without an authorization?"


@pytest.fixture(scope="module")
def request_(hipaa_corpus: str) -> RetrievalRequest:
    return RetrievalRequest(question=QUESTION, corpus=hipaa_corpus, k=10)


@pytest.mark.parametrize("method", list(RETRIEVERS))
def test_every_method_returns_k_hits_with_provenance(method, test_settings, request_):
    result = get_retriever(method, test_settings).retrieve(request_)
    assert result.method == method
    assert len(result.hits) == 10
    assert not result.degraded
    assert len({h.unit_id for h in result.hits}) == 10
    for hit in result.hits:
        assert hit.provenance, f"{hit.unit_id} has no provenance"
        assert hit.document_id and hit.type
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)


def test_flat_provenance_kinds(test_settings, request_):
    bm25 = get_retriever("bm25", test_settings).retrieve(request_)
    assert [p.rank for h in bm25.hits for p in h.provenance] == list(range(1, 11))
    assert {p.kind for h in bm25.hits for p in h.provenance} == {"lexical"}
    dense = get_retriever("dense", test_settings).retrieve(request_)
    assert {p.kind for h in dense.hits for p in h.provenance} == {"dense"}
    assert all("#w" not in h.unit_id for h in dense.hits), "windows must fold back to unit ids"
    hybrid = get_retriever("hybrid", test_settings).retrieve(request_)
    assert {p.kind for h in hybrid.hits for p in h.provenance} <= {"dense", "lexical"}


@pytest.mark.parametrize("method", ["graph", "refwalk", "citewalk"])
def test_graph_paths_exist_in_neo4j(method, test_settings, request_, neo4j_driver):
    cfg = RetrievalConfig(pair_bonus=1.0, pair_seeds=20, node_cap=40)
    result = get_retriever(method, test_settings, cfg).retrieve(request_.model_copy(update={"k": 40}))
    graph_items = [(h.unit_id, p) for h in result.hits for p in h.provenance if p.kind == "graph"]
    assert graph_items, "expected some units reached over the graph"
    for unit_id, prov in graph_items:
        assert prov.path and prov.hops == len(prov.path) and prov.seed_id
        ends = {prov.path[-1].source, prov.path[-1].target}
        assert unit_id in ends
        assert prov.seed_id in {prov.path[0].source, prov.path[0].target}
        found = graph_queries.existing_edges(neo4j_driver, test_settings.neo4j_database, prov.path)
        assert {(e.source, e.type, e.target) for e in prov.path} <= found


def test_refwalk_never_walks_containment(test_settings, request_):
    result = get_retriever("refwalk", test_settings).retrieve(request_.model_copy(update={"k": 50}))
    types = {e.type for h in result.hits for p in h.provenance for e in p.path}
    assert "CONTAINS" not in types


def test_hits_carry_parent_headings(test_settings, request_):
    hit = get_retriever("citewalk", test_settings).retrieve(request_).hits[0]
    assert hit.context and hit.context[0].startswith("45 CFR Part")


@pytest.mark.parametrize("method", ["bm25", "dense", "graph", "refwalk", "citewalk"])
def test_filters_document_and_type(method, test_settings, request_):
    first = get_retriever("bm25", test_settings).retrieve(request_).hits[0]
    filtered = request_.model_copy(update={"filters": Filters(document_ids=[first.document_id], unit_types=[first.type])})
    result = get_retriever(method, test_settings).retrieve(filtered)
    assert result.hits
    assert {h.document_id for h in result.hits} == {first.document_id}
    assert {h.type for h in result.hits} == {first.type}


def test_repealed_units_are_excluded_unless_asked(test_settings, request_):
    from core.retrieval.reload import open_stores
    from core.retrieval.unit_table import UnitTable

    stores = open_stores(test_settings, request_.corpus)
    top = get_retriever("bm25", test_settings).retrieve(request_).hits[0].unit_id
    original = stores.units
    # The stores as an ingest that marked the top hit repealed would open them.
    stores.units = UnitTable.from_records({uid: original[uid].model_copy(update={"status": "repealed"}) if uid == top
                                           else original[uid] for uid in original})
    stores._masks.clear()
    try:
        for method in ("bm25", "dense", "citewalk"):
            assert top not in {h.unit_id for h in get_retriever(method, test_settings).retrieve(request_).hits}
        asked = request_.model_copy(update={"filters": Filters(include_repealed=True)})
        assert top in {h.unit_id for h in get_retriever("bm25", test_settings).retrieve(asked).hits}
    finally:
        stores.units = original
        stores._masks.clear()


def test_current_law_follows_amendments(test_settings, request_, neo4j_driver):
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (n:Unit {corpus: $c})-[:AMENDS|REPLACES]->(o:Unit) RETURN o.id AS old, n.id AS new LIMIT 1",
        c=request_.corpus, database_=test_settings.neo4j_database)
    if not records:
        pytest.skip("no amendment edge in this corpus")
    from core.retrieval.expansion import with_current_versions
    from core.retrieval.query import Query
    from core.retrieval.reload import open_stores

    query = Query(open_stores(test_settings, request_.corpus), request_)
    provenance: dict = {}
    ranked = with_current_versions(query, [(records[0]["old"], 1.0)], provenance)
    ids = [uid for uid, _ in ranked]
    assert ids[0] == records[0]["old"] and len(ids) == 2
    assert provenance[ids[1]][0].path[0].target == records[0]["old"]


def units_asked(monkeypatch: pytest.MonkeyPatch, read: str) -> list[list[str]]:
    """The unit ids each call of this graph read is asked about, from now on (the read itself still runs)."""
    asked: list[list[str]] = []
    real = getattr(graph_queries, read)

    def counted(driver, database, unit_ids, *args, **kwargs):
        asked.append(list(unit_ids))
        return real(driver, database, unit_ids, *args, **kwargs)

    monkeypatch.setattr(graph_queries, read, counted)
    return asked


def test_current_law_asks_neo4j_only_about_units_a_kept_chain_can_start_from(test_settings, request_, neo4j_driver,
                                                                           monkeypatch):
    """The stores know where amendment chains start; a top hit no kept chain starts from is not asked about, and the
    ranking is the one asking about every hit gives."""
    from core.retrieval.expansion import with_current_versions
    from core.retrieval.query import Query
    from core.retrieval.reload import open_stores

    records, _, _ = neo4j_driver.execute_query(
        "MATCH (n:Unit {corpus: $c})-[r:AMENDS|REPLACES]->(o:Unit) WHERE r.action IS NULL "
        "RETURN o.id AS old, n.id AS new LIMIT 1", c=request_.corpus, database_=test_settings.neo4j_database)
    if not records:
        pytest.skip("no untyped amendment edge in this corpus")
    old, new = records[0]["old"], records[0]["new"]
    stores = open_stores(test_settings, request_.corpus)
    assert stores.chain_starts is not None
    plain = next(u for u in stores.unit_ids if u not in stores.chain_starts.typed_by_unit and u not in (old, new))
    asked = units_asked(monkeypatch, "latest_versions")

    def ranked(hits: list[tuple[str, float]], superseded_only: bool) -> list[str]:
        return [u for u, _ in with_current_versions(Query(stores, request_), hits, {}, superseded_only=superseded_only)]

    hits = [(plain, 2.0), (old, 1.0)]
    assert ranked(hits, False)[:3] == [plain, old, new] and asked == [[old]]
    asked.clear()
    # The default method keeps only chains of superseded hits or typed instructions: an in-force unit given new words
    # by an untyped edge is not followed, and now not asked about either.
    assert ranked(hits, True) == [plain, old] and asked == []
    every_time = {}
    for superseded_only in (False, True):
        every_time[superseded_only] = ranked(hits, superseded_only)
    monkeypatch.setattr(stores, "chain_starts", None)
    asked.clear()
    assert {s: ranked(hits, s) for s in (False, True)} == every_time and asked == [[plain, old], [plain, old]]


def test_a_hubs_edges_are_read_from_neo4j_once_per_stores(test_settings, request_, neo4j_driver, monkeypatch):
    """The held edges leave a hub (more edges than the per-unit limit) to Neo4j; the edges read are kept with the
    stores, so a definitions article that is the hub of question after question costs one round trip."""
    from core.domain import EdgeType
    from core.retrieval.expansion import neighbour_edges
    from core.retrieval.query import Query
    from core.retrieval.reload import open_stores

    stores = open_stores(test_settings, request_.corpus)
    assert stores.edges is not None
    hub = next(uid for uid in stores.edges.by_unit
               if sum(e.type == EdgeType.REFERENCES for e in stores.edges.edges_of(uid)) >= 4)
    stores._hub_reads.clear()
    read = graph_queries.neighbours
    reads = units_asked(monkeypatch, "neighbours")
    first = neighbour_edges(Query(stores, request_), [hub], [EdgeType.REFERENCES], 2)
    again = neighbour_edges(Query(stores, request_), [hub], [EdgeType.REFERENCES], 2)
    assert len(first) == 2 and first == again and reads == [[hub]]
    assert first == read(neo4j_driver, test_settings.neo4j_database, [hub], [EdgeType.REFERENCES], "both", 2)
    wider = neighbour_edges(Query(stores, request_), [hub], [EdgeType.REFERENCES], 3)  # another read, its own key
    assert len(wider) == 3 and wider[:2] == first and reads == [[hub], [hub]]


@pytest.mark.parametrize("method", ["bm25", "graph", "refwalk", "citewalk"])
def test_cypher_looking_question_is_just_text(method, test_settings, hipaa_corpus, neo4j_driver):
    count = "MATCH (n) RETURN count(n) AS n"
    before = neo4j_driver.execute_query(count, database_=test_settings.neo4j_database)[0][0]["n"]
    evil = "x'}) DETACH DELETE n // MATCH (n) DETACH DELETE n RETURN 1; CALL dbms.killQueries() authorization"
    result = get_retriever(method, test_settings).retrieve(RetrievalRequest(question=evil, corpus=hipaa_corpus))
    assert not result.degraded
    filtered = RetrievalRequest(question=QUESTION, corpus=hipaa_corpus,
                                filters=Filters(document_ids=["x' OR 1=1 //", "}) DETACH DELETE n //"]))
    assert get_retriever(method, test_settings).retrieve(filtered).hits == []
    after = neo4j_driver.execute_query(count, database_=test_settings.neo4j_database)[0][0]["n"]
    assert before == after


def test_edge_type_setting_is_checked_against_the_enum():
    with pytest.raises(ValueError):
        RetrievalConfig(walk_edge_types=["REFERENCES]->() DETACH DELETE n //"])
    with pytest.raises(ValueError):
        graph_queries.checked_types(["CONTAINS|REFERENCES"])
