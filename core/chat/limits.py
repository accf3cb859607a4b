"""The chat settings' limits (k, hops, edge types) applied around the answerer's stores.

The answering agent chooses hops and edge types per tool call; the operator's panel caps them here, so the
service keeps one interface for chat, CLI and benchmarks.
"""
from __future__ import annotations

from collections.abc import Iterable

from core.answer.deps import Stores
from core.answer.graph import GraphReader
from core.stores.queries import Reached
from core.retrieval.base import PathEdge, RetrievalRequest, RetrievalResult, Retriever
from core.retrieval.stores import CorpusStores


class LimitedRetriever(Retriever):
    def __init__(self, inner: Retriever, k: int) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "retriever")
        self.k = k

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        return self.inner.retrieve(request.model_copy(update={"k": self.k}))

    def corpus_stores(self, corpus: str) -> CorpusStores | None:
        return self.inner.corpus_stores(corpus)


class LimitedGraph:
    """GraphReader that follows at most `max_hops` hops over the allowed edge types only.

    Reads that do not walk edges pass straight through (`__getattr__`), so the reader's interface can grow
    without this wrapper silently turning new methods into "graph unavailable".
    """

    def __init__(self, inner: GraphReader, max_hops: int, edge_types: Iterable[str]) -> None:
        self.inner = inner
        self.max_hops = max_hops
        self.allowed = set(edge_types)

    def _types(self, edge_types: Iterable[str]) -> list[str]:
        return [t for t in edge_types if t in self.allowed]

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]:
        types = self._types(edge_types)
        hops = min(max_hops, self.max_hops)
        if hops < 1 or not types:
            return []
        return self.inner.expand(seed_ids, types, hops, node_cap)

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[PathEdge]:
        types = self._types(edge_types)
        return self.inner.edges_among(unit_ids, types) if types else []

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def limited(stores: Stores, k: int, max_hops: int, edge_types: Iterable[str]) -> Stores:
    graph = LimitedGraph(stores.graph, max_hops, edge_types) if stores.graph is not None else None
    return Stores(LimitedRetriever(stores.retriever, k), graph, stores.graph_notice)
