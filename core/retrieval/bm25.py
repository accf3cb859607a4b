"""Flat lexical baseline: BM25 over the corpus index."""
from __future__ import annotations

from core.retrieval.base import Provenance
from core.retrieval.fusion import top_indices
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.query import Query


class BM25Retriever(CorpusRetriever):
    name = "bm25"

    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        scores = query.lexical
        ids = query.stores.unit_ids
        ranked = [(ids[i], float(scores[i])) for i in top_indices(scores, max(query.request.k, 100), query.mask)
                  if scores[i] > 0]
        provenance = {uid: [Provenance(kind="lexical", rank=r, score=s)] for r, (uid, s) in enumerate(ranked, 1)}
        return ranked, provenance
