"""Method name → retriever factory (the harness, the agent and the API pick methods by name)."""
from __future__ import annotations

from collections.abc import Callable

from core.domain import RetrievalError
from core.retrieval.base import DEFAULT_METHOD, Retriever
from core.retrieval.bm25 import BM25Retriever
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.config import RetrievalConfig
from core.retrieval.dense import DenseRetriever
from core.retrieval.hybrid import HybridRetriever
from core.retrieval.refwalk import RefWalkRetriever
from core.retrieval.vihermes import ViHermesRetriever
from core.settings import Settings


class UnknownMethodError(RetrievalError, KeyError):
    pass


Factory = Callable[[Settings, RetrievalConfig], Retriever]

RETRIEVERS: dict[str, Factory] = {
    "bm25": BM25Retriever,
    "dense": DenseRetriever,
    "hybrid": HybridRetriever,
    "graph": ViHermesRetriever,
    "refwalk": RefWalkRetriever,
    "citewalk": CitewalkRetriever,
    # Variants kept measurable: the default with anchor views, and with containment roll-up.
    "citewalk_views": lambda s, c: _named(CitewalkRetriever(s, c.model_copy(update={"views": True})), "citewalk_views"),
    "citewalk_rollup": lambda s, c: _named(CitewalkRetriever(s, c.model_copy(update={"rollup": True})), "citewalk_rollup"),
}
__all__ = ["DEFAULT_METHOD", "RETRIEVERS", "get_retriever"]


def _named(retriever: Retriever, name: str) -> Retriever:
    retriever.name = name
    return retriever


def get_retriever(name: str, settings: Settings, config: RetrievalConfig | None = None) -> Retriever:
    if name not in RETRIEVERS:
        raise UnknownMethodError(f"unknown retrieval method {name!r}; choose from {', '.join(RETRIEVERS)}")
    return RETRIEVERS[name](settings, config or RetrievalConfig())
