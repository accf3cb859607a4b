"""Flat hybrid baseline: Reciprocal Rank Fusion (k=60) of the BM25 and vector lists."""
from __future__ import annotations

from core.retrieval.bm25 import BM25Retriever
from core.retrieval.dense import DenseRetriever
from core.retrieval.fusion import rrf, sorted_items
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.query import Query


class HybridRetriever(CorpusRetriever):
    name = "hybrid"

    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        pool = self.config.pool_size
        lists: list[list[str]] = []
        provenance: ProvenanceMap = {}
        for part in (BM25Retriever(self.settings, self.config), DenseRetriever(self.settings, self.config)):
            ranked, prov = part.rank(query)
            kept = [uid for uid, _ in ranked[:pool]]
            lists.append(kept)
            for uid in kept:
                provenance.setdefault(uid, []).extend(prov.get(uid, []))
        return sorted_items(rrf(lists, self.config.rrf_k)), provenance
