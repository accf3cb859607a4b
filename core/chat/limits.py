"""The chat settings' limits (k, hops, edge types) applied around the answerer's stores.

The answering agent chooses hops and edge types per tool call; the operator's panel caps them here, so the
service keeps one interface for chat, CLI and benchmarks.
"""
from __future__ import annotations

from collections.abc import Iterable

from core.answer.graph import GraphReader
from core.answer.stores import Stores
from core.answer.tools import MEANING_POOL
from core.current_law import CurrentLaw
from core.domain import Edge
from core.retrieval.base import RetrievalRequest, RetrievalResult, Retriever
from core.retrieval.stores import CorpusStores
from core.stores.queries import Reached, UnitRecord


class LimitedRetriever(Retriever):
    def __init__(self, inner: Retriever, k: int) -> None:
        self.inner = inner
        self.name = inner.name
        self.k = k

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        # The panel's k is the run's seeds (Stores.search_k); the search may read MEANING_POOL hits below them.
        return self.inner.retrieve(request.model_copy(update={"k": min(request.k, self.k + MEANING_POOL)}))

    def corpus_stores(self, corpus: str) -> CorpusStores | None:
        return self.inner.corpus_stores(corpus)


class LimitedGraph:
    """GraphReader that follows at most `max_hops` hops over the allowed edge types only.
    Reads that do not walk edges pass straight through. Each is spelled out: `limited` types this wrapper as a
    GraphReader, so a method added to the protocol and missing here is a type error, not a silent gap."""

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

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[Edge]:
        types = self._types(edge_types)
        return self.inner.edges_among(unit_ids, types) if types else []

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        return self.inner.fetch_units(unit_ids)

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        return self.inner.ancestors(unit_id)

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return self.inner.ancestors_of(unit_ids)

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return self.inner.children(unit_ids)

    def current_law(self, unit_id: str) -> CurrentLaw | None:
        return self.inner.current_law(unit_id)

    def existing_edges(self, edges: list[Edge]) -> set[tuple[str, str, str]]:
        return self.inner.existing_edges(edges)


def limited(stores: Stores, k: int, max_hops: int, edge_types: Iterable[str]) -> Stores:
    graph: GraphReader | None = LimitedGraph(stores.graph, max_hops, edge_types) if stores.graph is not None else None
    return Stores(LimitedRetriever(stores.retriever, k), graph, stores.graph_notice, search_k=k, wordings=stores.wordings)
