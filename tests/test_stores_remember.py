"""What corpus stores remember between questions stays bounded: filter masks and question vectors are kept for
the questions that come back (the search and the answer's signals embed the same question), least recently used
out past a fixed count, however many distinct filters or questions a long-running chat sees."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from core.analyzers import EnglishAnalyzer
from core.retrieval import stores as stores_module
from core.retrieval.config import RetrievalConfig
from core.retrieval.filters import Filters
from core.settings import get_settings
from tests.support.corpus_stores import built_stores


def test_filter_masks_are_kept_up_to_their_bound() -> None:
    stores = built_stores(get_settings(), "remember", units=50)
    first = stores.allowed_mask(Filters(document_ids=["d0"]))
    assert stores.allowed_mask(Filters(document_ids=["d0"])) is first
    for n in range(1, stores_module.MAX_MASKS * 3):
        stores.allowed_mask(Filters(document_ids=[f"d{n}"]))
    assert len(stores._masks) == stores_module.MAX_MASKS
    with pytest.raises(ValueError):
        first[0] = True  # shared by every question: nobody may change it in place


def test_a_question_embedded_again_is_not_run_through_the_model_again() -> None:
    stores = built_stores(get_settings(), "remember", searchable=True)
    calls: list[list[str]] = []
    model_embed = stores.embedder.embed_queries

    def counted(texts: list[str], threads: int | None = None) -> np.ndarray:
        calls.append(list(texts))
        return model_embed(texts, threads)

    stores.embedder.embed_queries = counted  # type: ignore[method-assign]
    try:
        vector = stores.embed(["What records must be kept?"])
        again = stores.embed(["What records must be kept?"])
        assert calls == [["What records must be kept?"]] and np.array_equal(vector, again)
        assert np.allclose(vector, model_embed(["What records must be kept?"]))
        for n in range(stores_module.MAX_QUERY_VECTORS + 10):
            stores.embed([f"question {n}"])
        assert len(stores._query_vectors) == stores_module.MAX_QUERY_VECTORS
    finally:
        del stores.embedder.embed_queries


class CountingAnalyzer(EnglishAnalyzer):
    def __init__(self) -> None:
        self.cut: list[str] = []

    def tokenize(self, text: str) -> list[str]:
        self.cut.append(text)
        return super().tokenize(text)


def test_a_question_is_cut_into_terms_once_for_every_bm25_index_that_scores_it() -> None:
    """The default method scores the plain and the heading index, the answer's signals the plain one again: a
    Korean or Vietnamese segmenter cuts the question once, and the scores are those of cutting it each time."""
    stores = built_stores(get_settings(), "remember", RetrievalConfig(context_depth=0), searchable=True)
    question = "Which records must be kept on rule 7?"
    expected = stores.lexical.scores(question)
    analyzer = CountingAnalyzer()
    stores.lexical.analyzer = analyzer
    first = stores.lexical_scores(question)
    assert np.array_equal(stores.context_lexical_scores(question), first)
    assert np.array_equal(stores.lexical_scores(question), first) and np.array_equal(first, expected)
    assert analyzer.cut == [question]
    for n in range(stores_module.MAX_QUESTION_TERMS + 10):
        stores.terms(f"question {n}")
    assert len(stores._question_terms) == stores_module.MAX_QUESTION_TERMS


def test_a_question_is_scored_over_the_corpus_once_for_the_search_and_the_answer_signals() -> None:
    stores = built_stores(get_settings(), "remember", searchable=True)
    vector = stores.embed(["What records must be kept?"])[0]
    dense, lexical = stores.dense_scores(vector), stores.lexical_scores("What records must be kept?")
    assert stores.dense_scores(vector.copy()) is dense and stores.lexical_scores("What records must be kept?") is lexical
    assert np.array_equal(dense, stores._dense_scores_of(vector)) and np.array_equal(lexical, stores._lexical_scores_of("What records must be kept?"))
    with pytest.raises(ValueError):
        dense[0] = 1.0  # shared by every caller: nobody may change it in place
    for n in range(stores_module.MAX_QUESTION_SCORES * 2):
        stores.lexical_scores(f"question {n}")
    assert len(stores._lexical_scores) == stores_module.MAX_QUESTION_SCORES


def test_users_asking_one_new_question_at_once_embed_it_once() -> None:
    stores = built_stores(get_settings(), "remember", searchable=True)
    model_embed = stores.embedder.embed_queries
    calls: list[list[str]] = []
    started = threading.Event()

    def slow(texts: list[str], threads: int | None = None) -> np.ndarray:
        calls.append(list(texts))
        started.set()
        time.sleep(0.3)  # long enough for the other users to ask meanwhile
        return model_embed(texts, threads)

    stores.embedder.embed_queries = slow  # type: ignore[method-assign]
    try:
        got: list[np.ndarray] = []
        users = [threading.Thread(target=lambda: got.append(stores.embed(["When must a firm report?"])))
                 for _ in range(4)]
        users[0].start()
        assert started.wait(10)
        for user in users[1:]:
            user.start()
        for user in users:
            user.join(10)
        assert calls == [["When must a firm report?"]]
        assert len(got) == 4 and all(v is got[0] for v in got)
        assert not stores._making
    finally:
        del stores.embedder.embed_queries


def test_a_value_whose_maker_failed_is_made_by_the_next_user() -> None:
    stores = built_stores(get_settings(), "remember")
    with pytest.raises(RuntimeError):
        stores.hub_edges("hub", lambda: (_ for _ in ()).throw(RuntimeError("Neo4j went away")))
    assert not stores._making
    assert stores.hub_edges("hub", lambda: ()) == ()
