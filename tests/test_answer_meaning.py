"""A user's question in their own words: the provisions closest in meaning are evidence even when the fused
search ranks them low (its BM25 share reads the situation's words: "laptop", "last week", "charge her").

On the ingested HIPAA corpus: the units the dense list ranks first but the fused ranking puts below the
search's k are in the run's evidence ledger, where fitting the answer to what was asked can reach them, while
the search's own hits stay the candidates.
"""
from __future__ import annotations

import pytest

from core.answer.deps import AnswerDeps
from core.answer.service import answer_question
from core.answer.stores import open_stores
from core.answer.tools import MEANING_POOL, MEANING_RANKS, run_search
from core.chat.limits import limited
from core.retrieval.base import RetrievalRequest
from core.retrieval.registry import get_retriever

QUESTIONS = [
    "A patient wants a copy of her medical records. How much can we charge her?",
    "Our hospital lost a laptop with patient files last week. How long do we have to tell the patients?",
]


@pytest.fixture(scope="module")
def stores(test_settings, hipaa_corpus):
    return open_stores(test_settings, hipaa_corpus, "citewalk")


def _closest_below_k(question: str, corpus: str, stores, k: int) -> list[str]:
    hits = stores.retriever.retrieve(RetrievalRequest(question=question, corpus=corpus, k=k + MEANING_POOL)).hits
    return [h.unit_id for h in hits[k:]
            if any(p.kind == "dense" and p.rank is not None and p.rank <= MEANING_RANKS for p in h.provenance)]


def _closest(question: str, corpus: str, test_settings) -> list[str]:
    """The first MEANING_RANKS units of the dense list alone."""
    dense = get_retriever("dense", test_settings).retrieve(RetrievalRequest(question=question, corpus=corpus))
    return [h.unit_id for h in dense.hits[:MEANING_RANKS]]


@pytest.mark.parametrize("question", QUESTIONS)
def test_units_closest_in_meaning_are_evidence(question, test_settings, hipaa_corpus, stores):
    deps = AnswerDeps(settings=test_settings, corpus=hipaa_corpus, question=question, retriever=stores.retriever,
                      graph=stores.graph)
    # Ranked among the seeds (the per-question channel weights lean on the cosine for such a question,
    # core.retrieval.channels) or below them, each is evidence.
    everywhere = _closest(question, hipaa_corpus, test_settings)
    closest = _closest_below_k(question, hipaa_corpus, stores, deps.search_k)
    assert set(closest) <= set(everywhere)
    envelope = answer_question(question, hipaa_corpus, test_settings, model="extractive", stores=stores)
    assert set(everywhere) <= set(envelope.evidence_ids), everywhere
    # The chat's panel caps k at the run's seeds, not at the units read below them.
    capped = limited(stores, k=deps.search_k, max_hops=2, edge_types=["REFERENCES", "DEFINES"])
    in_chat = answer_question(question, hipaa_corpus, test_settings, model="extractive", stores=capped)
    assert set(everywhere) <= set(in_chat.evidence_ids), everywhere
    run_search(deps, question)
    assert [e.unit.id for e in deps.ledger.seeds()][: deps.search_k] == \
        [h.unit_id for h in stores.retriever.retrieve(
            RetrievalRequest(question=question, corpus=hipaa_corpus, k=deps.search_k)).hits]
    assert all(deps.ledger.units[u].role == "meaning" for u in closest)
