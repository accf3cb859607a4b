"""Turning a ranked list of unit ids into the typed result the agent and UI consume."""
from __future__ import annotations

from core.retrieval.base import Provenance, RetrievalResult, RetrievedUnit
from core.retrieval.query import Query


def build_result(
    query: Query, method: str, ranked: list[tuple[str, float]], provenance: dict[str, list[Provenance]],
) -> RetrievalResult:
    stores = query.stores
    hits = []
    for unit_id, score in ranked[: query.request.k]:
        info = stores.units.get(unit_id)
        hits.append(RetrievedUnit(
            unit_id=unit_id, score=float(score),
            label=info.label if info else "", title=info.title if info else "", text=info.text if info else "",
            document_id=info.document_id if info else "", type=info.type if info else "",
            provenance=provenance.get(unit_id, []), context=stores.context(unit_id),
        ))
    return RetrievalResult(method=method, hits=hits, timings_ms=dict(query.timings), degraded=list(query.degraded))
