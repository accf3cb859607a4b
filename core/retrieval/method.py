"""The shared shape of Citewalk's retrievers: open the corpus stores once, rank, wrap the result."""
from __future__ import annotations

import time
from abc import abstractmethod

from core.retrieval.base import Provenance, RetrievalRequest, RetrievalResult, Retriever
from core.retrieval.config import RetrievalConfig
from core.retrieval.query import Query
from core.retrieval.reload import open_stores
from core.retrieval.results import build_result
from core.retrieval.stores import CorpusStores
from core.settings import Settings

Ranked = list[tuple[str, float]]
ProvenanceMap = dict[str, list[Provenance]]


class CorpusRetriever(Retriever):
    name = "abstract"

    def __init__(self, settings: Settings, config: RetrievalConfig | None = None) -> None:
        self.settings = settings
        self.config = config or RetrievalConfig()

    def stores(self, corpus: str) -> CorpusStores:
        return open_stores(self.settings, corpus, self.config)

    def corpus_stores(self, corpus: str) -> CorpusStores:
        return self.stores(corpus)

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        started = time.perf_counter()
        query = Query(self.stores(request.corpus), request)
        ranked, provenance = self.rank(query)
        query.timed("total", started)
        return build_result(query, self.name, ranked, provenance)

    @abstractmethod
    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        """Best first; at least request.k entries when the corpus has them."""
