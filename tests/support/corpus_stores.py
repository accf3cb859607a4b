"""CorpusStores built in memory (random vectors, no corpus on disk), for tests of what holds and opens them."""
from __future__ import annotations

import numpy as np

from core.retrieval.config import RetrievalConfig
from core.retrieval.stores import CorpusStores
from core.settings import Settings
from core.stores.graph_reader import reader_for


def built_stores(settings: Settings, corpus: str, config: RetrievalConfig | None = None, *, units: int = 50,
                 windows: int = 80, dim: int = 8, seed: int = 0) -> CorpusStores:
    """What CorpusStores.open builds, minus the indexes a test of holding and opening stores never reads."""
    rng = np.random.default_rng(seed)
    ids = [f"u{i}" for i in range(units)]
    return CorpusStores(
        settings=settings, corpus=corpus, config=config or RetrievalConfig(), lexical=None,  # type: ignore[arg-type]
        embedder=None, collection=None, graph=reader_for(settings),  # type: ignore[arg-type]
        unit_ids=ids, units={}, window_matrix=rng.random((windows, dim), dtype=np.float32),
        window_unit=np.sort(rng.integers(0, units, windows)), lexical_to_unit=np.arange(units),
        index={u: i for i, u in enumerate(ids)},
    )
