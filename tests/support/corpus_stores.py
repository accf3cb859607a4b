"""CorpusStores built in memory (random vectors, no corpus on disk), for tests of what holds and opens them."""
from __future__ import annotations

import numpy as np

from core.embeddings import get_embedder
from core.lexical import LexicalIndex
from core.retrieval.config import RetrievalConfig
from core.retrieval.stores import CorpusStores
from core.retrieval.unit_table import UnitTable
from core.settings import Settings
from core.stores.graph_reader import reader_for


def built_stores(settings: Settings, corpus: str, config: RetrievalConfig | None = None, *, units: int = 50,
                 windows: int = 80, dim: int = 8, seed: int = 0, searchable: bool = False) -> CorpusStores:
    """What opening a corpus builds (core.retrieval.reload); `searchable` adds a real BM25 index and the embedding model (a question can be
    scored), otherwise the indexes a test of holding and opening stores never reads are left out."""
    rng = np.random.default_rng(seed)
    ids = [f"u{i}" for i in range(units)]
    lexical = LexicalIndex.build(ids, [f"rule {i} on records" for i in range(units)]) if searchable else None
    embedder = get_embedder(settings) if searchable else None
    dim = int(embedder.embed_query("x").shape[-1]) if embedder is not None else dim
    return CorpusStores(
        settings=settings, corpus=corpus, config=config or RetrievalConfig(), lexical=lexical,  # type: ignore[arg-type]
        embedder=embedder, collection=None, graph=reader_for(settings),  # type: ignore[arg-type]
        unit_ids=ids, units=UnitTable.from_records({}), window_matrix=rng.random((windows, dim), dtype=np.float32),
        window_unit=np.sort(rng.integers(0, units, windows)), lexical_to_unit=np.arange(units),
        index={u: i for i, u in enumerate(ids)},
    )
