"""The default method embeds the question in a worker thread while it cuts and scores the question's BM25 here: the
e5 engine (ctypes) lets go of the GIL, so on two cores the two overlap, and the vector is bit for bit the one
embedding it in this thread gives."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from core.retrieval.base import RetrievalRequest
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.query import Query
from core.settings import Settings
from tests.test_delegation_closure import closure_corpus  # noqa: F401  (the fixture: a Korean act, decree, rules)

QUESTION = "신고서는 누구에게 어떤 서식으로 내야 하나요?"


def test_the_question_is_cut_while_the_model_embeds_it(closure_corpus: str, test_settings: Settings,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    retriever = CitewalkRetriever(test_settings)
    stores = retriever.stores(closure_corpus)  # opened with its heading index built (ReadCorpus.build_indexes)
    # A question before: the worker threads exist and idle, as in a running app (starting one lets go of the GIL).
    retriever.retrieve(RetrievalRequest(question="신고 기한", corpus=closure_corpus, k=5))
    assert stores.embedder.backend == "e5"
    # A question is cut word by word (`core.analyzers.term_groups`): through `groups` where the analyzer has it.
    cutting = "groups" if hasattr(stores.lexical.analyzer, "groups") else "tokenize"
    embed, cut = stores.embedder.embed_queries, getattr(stores.lexical.analyzer, cutting)
    embedding = threading.Event()
    seen: dict[str, object] = {}

    def embedding_started(texts: list[str], threads: int | None = None) -> np.ndarray:
        seen["thread"] = threading.current_thread().name
        embedding.set()
        return embed(texts, threads)

    def cut_while_embedding(text: str) -> list:
        # Kiwi keeps the GIL while it cuts: the worker must be inside the model already, or it would start only after.
        if text == QUESTION:
            seen["overlapped"] = embedding.is_set()
        return cut(text)

    monkeypatch.setattr(stores.embedder, "embed_queries", embedding_started)
    monkeypatch.setattr(stores.lexical.analyzer, cutting, cut_while_embedding)
    query = Query(stores, RetrievalRequest(question=QUESTION, corpus=closure_corpus, k=5))
    ranked, _ = retriever.rank(query)
    assert seen["overlapped"] is True and seen["thread"] != threading.current_thread().name
    assert ranked and {"embed", "embed wait", "lexical"} <= set(query.timings)
    assert np.array_equal(query.vector, embed([QUESTION])[0])  # the same engine call, in whichever thread


def test_an_embedding_that_fails_in_the_worker_fails_the_question(closure_corpus: str,  # noqa: F811
                                                                  test_settings: Settings,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    retriever = CitewalkRetriever(test_settings)
    stores = retriever.stores(closure_corpus)

    def broken(texts: list[str], threads: int | None = None) -> np.ndarray:
        raise RuntimeError("engine failed")

    monkeypatch.setattr(stores.embedder, "embed_queries", broken)
    query = Query(stores, RetrievalRequest(question=QUESTION + " (2)", corpus=closure_corpus, k=5))
    with pytest.raises(RuntimeError, match="engine failed"):
        retriever.rank(query)
