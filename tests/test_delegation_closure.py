"""The delegation closure: a strong hit brings the decree / rules article that specifies it, right under it; one
slot per article in a Korean ranking; the same ranking whatever k the caller asks for."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from core.answer.closure import _Pools, with_closure
from core.answer.deps import AnswerDeps, Evidence
from core.answer.service import answer_question
from core.answer.signals import signals_for
from core.domain import Edge, EdgeType
from core.retrieval.articles import article_of
from core.retrieval.base import RetrievalRequest
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.config import RetrievalConfig
from core.retrieval.delegation import CLOSURE_EDGES, delegates
from core.retrieval.edges import HELD_TYPES
from core.retrieval.expansion import neighbour_edges
from core.retrieval.query import Query
from core.retrieval.registry import get_retriever
from core.settings import Settings
from core.stores import queries
from core.stores.queries import UnitRecord
from ingest.pipeline import run_ingest
from tests.test_korean_citations import ACT, DECREE, RULES

QUESTION = "신고는 어떤 방법으로 해야 하나요?"  # the act's 제5조제1항; the form itself is in the rules (별표 1)


@pytest.fixture(scope="module")
def closure_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    folder = tmp_path_factory.mktemp("closure")
    for name, text in (("act.md", ACT), ("decree.md", DECREE), ("rules.md", RULES)):
        (folder / name).write_text(text, encoding="utf-8")
    summary = run_ingest([folder], "closure", test_settings, quiet=True)
    assert not summary.failures and summary.edges_by_type.get("SPECIFIES", 0) >= 2
    return "closure"


def ranked(settings: Settings, config: RetrievalConfig, k: int = 5) -> list[str]:
    retriever = get_retriever("citewalk", settings, config)
    return [h.unit_id for h in retriever.retrieve(RetrievalRequest(question=QUESTION, corpus="closure", k=k)).hits]


# The fusion weight is fixed here: these check where the closure places a partner, on a three-file fixture whose
# plain ranking (the act article first) holds at this weight whatever the shipped default becomes.
def fixed(**changes: object) -> RetrievalConfig:
    return RetrievalConfig(pair_bonus=0, e5_lexical_weight=0.7, channel_weights=False,
                           article_languages=[]).model_copy(update=changes)


def test_a_strong_hit_brings_its_delegated_detail_right_under_it(closure_corpus: str, test_settings: Settings):
    plain = ranked(test_settings, fixed(closure_seeds=0))
    closed = ranked(test_settings, fixed(closure_bonus=1.0))
    assert plain[0] == closed[0] == "closure/act/art-5", (plain, closed)  # 제5조 (신고)
    rules = [u for u in closed if u.startswith("closure/rules/art-1")]
    assert rules and not [u for u in plain if u.startswith("closure/rules/")], (plain, closed)
    # The partner (시행규칙 제1조: "제5조제1항에서 … 별표 1과 같다") rises as far as right under its seed, no further.
    assert closed.index(rules[0]) == 1, closed
    assert len(closed) == len(set(closed))


def test_a_small_bonus_lifts_the_partner_only_by_a_share_of_its_seed(closure_corpus: str, test_settings: Settings):
    full = ranked(test_settings, fixed(closure_seeds=0), k=50)
    rules = next(u for u in full if u.startswith("closure/rules/art-1"))
    lifted = ranked(test_settings, fixed(closure_bonus=0.05), k=50)
    assert 1 < lifted.index(rules) <= full.index(rules), (full, lifted)


def test_the_ranking_does_not_depend_on_k(closure_corpus: str, test_settings: Settings):
    """The benchmark asks for 100 hits, the chat for a few: the first few must be the same units."""
    config = fixed(article_languages=["ko"])
    assert ranked(test_settings, config, k=100)[:4] == ranked(test_settings, config, k=4)


def test_a_korean_ranking_gives_each_article_one_slot_first(closure_corpus: str, test_settings: Settings):
    config = fixed(article_languages=["ko"])
    retriever = CitewalkRetriever(test_settings, config)
    stores = retriever.stores("closure")
    query = Query(stores, RetrievalRequest(question=QUESTION, corpus="closure", k=20))
    hits, _ = retriever.rank(query)
    articles = [article_of(query, uid) for uid, _ in hits]
    distinct = len(set(articles))
    assert len(set(articles[:distinct])) == distinct, articles  # every article once before any comes twice
    plain = [article_of(query, u) for u in ranked(test_settings, fixed(), k=20)]
    assert len(set(plain[:distinct])) < distinct, plain  # without it, an article's clauses take several slots


def test_a_citation_across_tiers_counts_as_delegation_one_within_a_tier_does_not(closure_corpus: str,
                                                                                    test_settings: Settings):
    query = Query(CitewalkRetriever(test_settings).stores("closure"), RetrievalRequest(question=QUESTION, corpus="closure", k=5))
    # 시행령 제2조②: "법 제5조제3항제2호나목에 따라" (the decree's tier citing the act's) …
    assert delegates(query, Edge(source="closure/decree/art-2/cl-2", type="REFERENCES",
                                 target="closure/act/art-5/cl-3/pt-2/sp-나"))
    # … but 시행령 제2조④ "이 영 제1조" stays inside the decree.
    assert not delegates(query, Edge(source="closure/decree/art-2/cl-4", type="REFERENCES", target="closure/decree/art-1"))
    assert delegates(query, Edge(source="closure/act/art-4/cl-5", type="DELEGATES_TO", target="closure/decree/art-2/cl-1"))


def test_the_answer_cites_the_delegated_detail_with_the_rule_it_details(closure_corpus: str, test_settings: Settings):
    envelope = answer_question(QUESTION, "closure", test_settings, model="extractive")
    cited = [r.unit_id for r in envelope.answer.rules]
    assert any(u.startswith("closure/act/art-5") for u in cited), cited
    # 시행규칙 제1조 holds what 제5조제1항 leaves to the rules ("별표 1과 같다"): cited after its act article.
    rules = [n for n, u in enumerate(cited) if u.startswith("closure/rules/art-1")]
    assert rules, cited
    assert len(cited) == len(set(cited))


def closed_answer(settings: Settings, cited: list[str], hits: list[str]) -> tuple[list[str], AnswerDeps]:
    """The extractive answer's closure of `cited`, the run's search having kept `hits` (in that order)."""
    retriever = CitewalkRetriever(settings)
    units = retriever.stores("closure").units
    deps = AnswerDeps(settings=settings, corpus="closure", question=QUESTION, retriever=retriever, graph=None)
    deps.ledger.record_all(Evidence(UnitRecord(id=u, label=units[u].label, text=units[u].text), "seed", rank=n)
                           for n, u in enumerate(hits, start=1))
    return with_closure(deps, signals_for(deps), cited), deps


def test_a_cited_rules_article_brings_the_act_provision_it_details(closure_corpus: str, test_settings: Settings):
    """시행규칙 제1조① details 법 제5조제1항: the act article is cited with it though the run kept no hit of it (a long
    rules article's paragraphs fill the first hits), and is recorded as the search hit it is."""
    out, deps = closed_answer(test_settings, ["closure/rules/art-1/cl-1"], ["closure/rules/art-1/cl-1"])
    acts = [u for u in out if u.startswith("closure/act/art-5")]
    assert acts and acts[0] in deps.ledger, out
    # An answer that cites an act article already gets no second one from the rules article's citations.
    out, _ = closed_answer(test_settings, ["closure/act/art-4/cl-1", "closure/rules/art-1/cl-1"],
                           ["closure/rules/art-1/cl-1", "closure/act/art-4/cl-1"])
    assert not [u for u in out if u.startswith("closure/act/art-5")], out


def test_a_cited_paragraph_brings_only_what_it_delegates_itself(closure_corpus: str, test_settings: Settings):
    """법 제4조⑤ leaves its exception to 시행령 제2조①; citing 제4조① (another duty of the same article) does not make
    the decree part of the answer, citing ⑤ does."""
    hits = ["closure/decree/art-2/cl-1"]
    assert with_partner(closed_answer(test_settings, ["closure/act/art-4/cl-5"], hits)[0])
    assert not with_partner(closed_answer(test_settings, ["closure/act/art-4/cl-1"], hits)[0])


def test_a_rules_article_that_only_names_an_act_paragraph_holds_no_detail_of_it(closure_corpus: str,
                                                                                test_settings: Settings):
    """법 제4조① leaves nothing to a lower tier and 시행규칙 제1조② only names it ("… 법 제4조제1항에 따른다"): citing ①
    does not bring the rules article; 제5조① ("보건복지부령으로 정하는 바에 따른다") brings 시행규칙 제1조, which says
    what that is."""
    units = CitewalkRetriever(test_settings).stores("closure").units
    assert units["closure/act/art-5/cl-1"].delegates and not units["closure/act/art-4/cl-1"].delegates
    hits = ["closure/rules/art-1/cl-2", "closure/rules/art-1/cl-1"]
    out, _ = closed_answer(test_settings, ["closure/act/art-4/cl-1"], hits)
    assert not [u for u in out if u.startswith("closure/rules/")], out
    out, _ = closed_answer(test_settings, ["closure/act/art-5/cl-1"], hits)
    assert [u for u in out if u.startswith("closure/rules/art-1")], out


def with_partner(cited: list[str]) -> bool:
    return any(u.startswith("closure/decree/art-2") for u in cited)


def _as_set(edges: list[Edge]) -> set[tuple[str, str, str]]:
    return {(e.source, str(e.type), e.target) for e in edges}


def test_the_edges_held_in_memory_answer_as_neo4j_does(closure_corpus: str, test_settings: Settings, neo4j_driver):
    """Expansion reads the edges the stores read when they opened; for every unit, edge-type set and pool they are the
    edges Neo4j gives, and a hub gives no more than the limit."""
    stores = CitewalkRetriever(test_settings).stores("closure")
    held_edges = stores.edges
    assert held_edges is not None
    query = Query(stores, RetrievalRequest(question=QUESTION, corpus="closure", k=5))
    database = test_settings.neo4j_database
    ids = list(stores.unit_ids)
    assert any(held_edges.by_unit.get(u) for u in ids)
    pool = ids[::2]
    for types in (CLOSURE_EDGES, [EdgeType.REFERENCES], list(HELD_TYPES)):
        for within in (None, pool):
            for uid in ids:
                held = neighbour_edges(query, [uid], types, 30, within=within)
                stored = queries.neighbours(neo4j_driver, database, [uid], types, "both", 30, within=within)
                assert _as_set(held) == _as_set(stored), (uid, types, within)
                assert len(held) == len(stored)
    busiest = max(ids, key=lambda u: len(held_edges.by_unit.get(u, [])))
    assert len(neighbour_edges(query, [busiest], list(HELD_TYPES), 1)) == 1
    # A walk over CONTAINS is not held: it is read from Neo4j.
    assert not held_edges.holds([EdgeType.CONTAINS])


def test_an_upward_partner_is_the_paragraph_that_leaves_the_detail_to_the_citing_tier():
    """A rules article that names a whole act article details the act paragraph that leaves a detail to the rules
    (부령), not whichever of the article's paragraphs the search ranks first; of several such paragraphs, the one it
    repeats the words of (④ leaves the patients' transfer to the rules too, and the search ranks it first); a named
    paragraph is cited itself."""
    units = {u.id: u for u in (
        UnitRecord(id="a40", label="법 제40조", type="article"),
        UnitRecord(id="a40-1", label="법 제40조제1항", type="paragraph", parent_id="a40",
                   text="① 개설자는 폐업하려면 보건복지부령으로 정하는 바에 따라 구청장에게 신고하여야 한다."),
        UnitRecord(id="a40-4", label="법 제40조제4항", type="paragraph", parent_id="a40",
                   text="④ 개설자는 폐업하는 경우 보건복지부령으로 정하는 바에 따라 입원 중인 환자를 다른 의료기관으로 "
                        "옮기는 조치를 하여야 한다."),
        UnitRecord(id="a40-5", label="법 제40조제5항", type="paragraph", parent_id="a40",
                   text="⑤ 구청장은 신고를 받은 경우 대통령령으로 정하는 조치를 하여야 한다."),
        UnitRecord(id="r30-1", label="시행규칙 제30조제1항", type="paragraph",
                   text="① 법 제40조에 따라 개설자가 폐업하려면 신고서에 서류를 첨부하여 구청장에게 제출하여야 한다."),
        UnitRecord(id="d17", label="시행령 제17조", type="article", text="구청장은 법 제40조에 따른 조치를 확인한다."),
    )}
    pools = object.__new__(_Pools)
    pools.query = SimpleNamespace(stores=SimpleNamespace(units=units))
    pools.__dict__.update(found=["a40-4", "a40-5", "a40-1"], up={"a40": "a40-4"})
    assert pools.up_partner("a40", "a40", 3, "r30-1") == "a40-1"  # the 부령 paragraph whose words the rules repeat
    assert pools.up_partner("a40", "a40", 2, "d17") == "a40-5"  # a decree article: the 대통령령 paragraph
    assert pools.up_partner("a40", "a40-1", 2, "d17") == "a40-1"  # a named paragraph is what the citing unit details
    assert pools.up_partner("a41", "a41", 3, "r30-1") is None  # not among the search's first articles
