"""Flat vector baseline: Chroma nearest windows, folded back to units (best window wins)."""
from __future__ import annotations

import time
from typing import Any

from core.retrieval.base import Provenance
from core.retrieval.filters import Filters
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.query import Query


def chroma_where(filters: Filters) -> dict[str, Any] | None:
    """Narrowing filters as a Chroma metadata filter (values only; Chroma has no query language to inject
    into). Status is checked afterwards from the in-memory metadata: a `where` on every query triples
    Chroma's latency, and inactive units are rare."""
    clauses: list[dict[str, Any]] = []
    if filters.document_ids:
        clauses.append({"document_id": {"$in": list(filters.document_ids)}})
    if filters.unit_types:
        clauses.append({"type": {"$in": list(filters.unit_types)}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def unit_of(vector_id: str) -> str:
    """Vector ids are unit ids, extra windows `<unit id>#w<n>`."""
    head, sep, tail = vector_id.rpartition("#w")
    return head if sep and tail.isdigit() else vector_id


class DenseRetriever(CorpusRetriever):
    name = "dense"

    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        wanted = max(query.request.k, 100)
        vector = query.vector
        started = time.perf_counter()
        collection: Any = query.stores.collection  # a chromadb Collection (chromadb is imported where it is opened)
        got = collection.query(
            query_embeddings=[vector.tolist()], n_results=min(wanted * self.config.dense_windows, collection.count()),
            where=chroma_where(query.request.filters), include=["distances"],
        )
        query.timed("vector search", started)
        best: dict[str, float] = {}
        filters = query.request.filters
        for vector_id, distance in zip(got["ids"][0], got["distances"][0]):
            unit_id = unit_of(vector_id)
            # Cosine space: similarity = 1 − distance; windows of one unit keep the max.
            if query.stores.allowed(unit_id, filters) and 1.0 - distance > best.get(unit_id, -2.0):
                best[unit_id] = 1.0 - distance
        ranked = sorted(best.items(), key=lambda item: -item[1])[:wanted]
        provenance = {uid: [Provenance(kind="dense", rank=r, score=s)] for r, (uid, s) in enumerate(ranked, 1)}
        return ranked, provenance
