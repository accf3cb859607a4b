"""Reloads do not pin old stores: after a re-ingest swaps in fresh corpus stores, nothing of the answerer keeps the
replaced set (its vectors and BM25 index) alive, so a chat that keeps running through re-ingests stays flat."""
from __future__ import annotations

import gc
import tracemalloc
import weakref

import numpy as np

from core.answer.signals import Signals
from core.retrieval import views
from core.retrieval.base import RetrievalRequest
from core.retrieval.query import Query
from core.retrieval.stores import CorpusStores
from core.retrieval.views import extractor_for
from core.settings import get_settings
from tests.support.corpus_stores import built_stores

UNITS, WINDOWS, DIM = 2000, 5000, 384  # ~7.7 MB of vectors per generation


def _generation(n: int) -> CorpusStores:
    """One reload's stores (vectors are what weigh)."""
    return built_stores(get_settings(), "pinning", units=UNITS, windows=WINDOWS, dim=DIM, seed=n)


def _ask(stores: CorpusStores) -> None:
    """What the extractive answerer reads from one question's signals: unit vectors by id."""
    signals = Signals(stores, np.zeros(DIM, np.float32), None, np.zeros(UNITS), np.zeros(UNITS))
    for uid in ("u1", "u500", "u1999"):
        signals.vector_of(uid)


def test_twenty_reloads_leave_memory_flat() -> None:
    gc.collect()
    tracemalloc.start()
    try:
        replaced: list[weakref.ref[CorpusStores]] = []
        sizes: list[int] = []
        for n in range(20):
            stores = _generation(n)  # the reload's fresh set replaces the previous one ...
            _ask(stores)
            replaced.append(weakref.ref(stores))
            del stores  # ... and the registry drops its reference
            gc.collect()
            sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert [r for r in replaced if r() is not None] == []
    growth_mb = (sizes[-1] - sizes[0]) / 2**20
    assert growth_mb < 2, f"memory grew {growth_mb:.1f} MB over 20 reloads: {[round(s / 2**20) for s in sizes]}"


def test_anchor_extractors_go_with_their_stores() -> None:
    """The views' extractor cache was keyed by id(stores): it grew with every reload and, once a replaced set was
    freed, a new set at the same address would have been given the old corpus's defined terms."""
    settings = get_settings().model_copy(update={"llm_model": ""})
    # Stores that earlier tests in this process still hold (the reload registry) keep their entries: count ours.
    before = set(views._EXTRACTORS)
    for n in range(20):
        stores = _generation(n)
        extractor_for(settings, Query(stores, RetrievalRequest(question="records", corpus="pinning")))
        del stores
        gc.collect()
    assert len(set(views._EXTRACTORS) - before) <= 1
