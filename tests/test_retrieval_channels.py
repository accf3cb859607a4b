"""The first stage's channels weighed per question (core/retrieval/channels.py), against the real HIPAA stores."""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np
import pytest

from core.answer.deps import MEANING, AnswerDeps
from core.answer.tools import MEANING_POOL, run_search
from core.domain import RetrievalError
from core.retrieval.base import Provenance, RetrievalRequest
from core.retrieval.channels import (
    FEATURES,
    ChannelModel,
    ChannelWeights,
    channel_weights,
    question_features,
    within_reach,
)
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.config import RetrievalConfig
from core.retrieval.query import Query
from core.retrieval.registry import get_retriever

# In the user's own words: "last week" meets "Last Name" (45 CFR 162.920) in BM25; the breach-notification
# sections are what it asks about (issue 49).
SITUATION = ("Our laptop with unencrypted patient files was stolen last week. Who do we have to tell, and how fast?")
# In the rule's own words, naming it.
RULE_WORDS = "What must a covered entity include in the notification to individuals under 164.404(c)?"


def _features(stores, question: str) -> dict[str, float]:
    query = Query(stores, RetrievalRequest(question=question, corpus=stores.corpus))
    lexical = np.where(query.mask, query.context_lexical, -np.inf)
    dense = np.where(query.mask, query.dense, -np.inf)
    return dict(zip(FEATURES, question_features(stores, question, lexical, dense)))


@pytest.fixture(scope="module")
def stores(test_settings, hipaa_corpus):
    retriever = get_retriever("citewalk", test_settings)
    assert isinstance(retriever, CitewalkRetriever)
    return retriever.stores(hipaa_corpus)


def test_features_read_the_vocabulary_the_chat_and_the_citation(stores):
    situation, rule = _features(stores, SITUATION), _features(stores, RULE_WORDS)
    assert situation["unknown_terms"] > rule["unknown_terms"]  # "laptop", "stolen" are no words of the rules
    assert situation["function_words"] > 0.2  # "our", "with", "was", "who", "we", … dropped by the analyzer
    assert situation["length"] > rule["length"] - 1.0
    assert (situation["cites"], rule["cites"]) == (0.0, 1.0)
    for value in (*situation.values(), *rule.values()):
        assert np.isfinite(value)
    for lead in ("dense_lead", "lexical_lead"):
        assert 0.0 <= situation[lead] <= 1.0 and 0.0 <= rule[lead] <= 1.0


def test_the_fitted_model_gives_bm25_less_of_a_situational_question(stores):
    weights = channel_weights()
    assert weights.fitted.startswith("python -m bench.channel_fit")
    assert "sentence-transformers" in weights.models  # MiniLM's (e5's is fitted, not shipped: bench.channel_fit)
    model = weights.models[stores.embedder.backend]
    situation = model.share(np.array(list(_features(stores, SITUATION).values())))
    rule = model.share(np.array(list(_features(stores, RULE_WORDS).values())))
    assert 0.0 <= situation < rule <= 1.0


def test_a_share_is_a_logistic_curve_of_the_features():
    model = ChannelModel(features=list(FEATURES), intercept=0.0, coefficients=[1.0] + [0.0] * (len(FEATURES) - 1))
    low, mid, high = (model.share(np.array([v] + [0.0] * (len(FEATURES) - 1))) for v in (-3.0, 0.0, 3.0))
    assert low < mid == 0.5 < high and abs(low + high - 1.0) < 1e-9
    assert model.share(np.array([1e9] + [0.0] * (len(FEATURES) - 1))) == 1.0  # no overflow


def test_weights_fitted_for_other_features_are_refused_naming_the_file(tmp_path: Path):
    path = tmp_path / "channel_weights.json"
    other = ChannelModel(features=["length"], intercept=0.0, coefficients=[1.0])
    path.write_text(ChannelWeights(models={"e5": other}).model_dump_json())
    with pytest.raises(RetrievalError, match=str(path)):
        channel_weights(path)
    path.write_text("{not json")
    with pytest.raises(RetrievalError, match="bench.channel_fit"):
        channel_weights(path)


def _marks(kind: Literal["lexical", "dense", "graph"], rank: int) -> list[Provenance]:
    return [Provenance(kind=kind, rank=rank, score=1.0)]


def test_each_channels_first_hits_take_the_last_places_within_reach():
    ranked = [(f"u{i}", 10.0 - i) for i in range(10)]
    provenance = {"u0": _marks("lexical", 1), "u8": _marks("dense", 1), "far": _marks("dense", 2),
                  "deep": _marks("lexical", 9), "u9": _marks("graph", 1)}
    out = within_reach(ranked, provenance, reach=5, depth=3)
    assert [u for u, _ in out[:5]] == ["u0", "u1", "u2", "u8", "far"]
    assert [s for _, s in out] == sorted((s for _, s in out), reverse=True)
    assert sorted(u for u, _ in out) == sorted([u for u, _ in ranked] + ["far"])  # nothing lost, nothing twice
    assert within_reach(ranked, provenance, reach=10, depth=0) == ranked
    # At most half of the places.
    many = {f"d{i}": _marks("dense", 1) for i in range(6)}
    assert [u for u, _ in within_reach(ranked, many, reach=4, depth=1)[:4]] == ["u0", "u1", "d0", "d1"]


def test_the_first_hits_do_not_depend_on_k(test_settings, stores):
    retriever = get_retriever("citewalk", test_settings)
    ranked = [[h.unit_id for h in retriever.retrieve(RetrievalRequest(question=SITUATION, corpus=stores.corpus,
                                                                      k=k)).hits] for k in (8, 48, 100)]
    assert ranked[0] == ranked[1][:8] == ranked[2][:8] and ranked[1] == ranked[2][:48]


def test_a_situational_question_keeps_the_cosines_sure_hit_in_the_searched_pool(test_settings, stores):
    dense = get_retriever("dense", test_settings).retrieve(RetrievalRequest(question=SITUATION, corpus=stores.corpus))
    closest = dense.hits[0].unit_id
    weighed = get_retriever("citewalk", test_settings, RetrievalConfig(channel_weights=True))
    deps = AnswerDeps(test_settings, stores.corpus, SITUATION, weighed, graph=None)
    run_search(deps, SITUATION)
    assert closest in {e.unit.id for e in deps.ledger.searched()}
    # Within the seeds, not only below them: the fitted share leans on the cosine for this question.
    assert closest in {e.unit.id for e in deps.ledger.seeds()}
    result = deps.retriever.retrieve(RetrievalRequest(question=SITUATION, corpus=stores.corpus,
                                                      k=deps.search_k + MEANING_POOL))
    assert closest in [h.unit_id for h in result.hits]
    assert all(e.role in ("seed", MEANING) for e in deps.ledger.units.values())
