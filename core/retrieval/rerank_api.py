"""Public API for teams with their own RAG pipeline: give us your hits, get them back expanded over the
citation graph and re-ranked, each with its provenance (your rank/score, or the typed path it was reached by).

    from core.retrieval.rerank_api import ExternalHit, rerank
    result = rerank("When may a covered entity disclose PHI?", "hipaa",
                    [ExternalHit(unit_id="hipaa/164.512", score=12.3), ...], k=10)
"""
from __future__ import annotations

import time

from pydantic import BaseModel, Field

from core.retrieval.base import Provenance, RetrievalRequest, RetrievalResult
from core.retrieval.config import RetrievalConfig
from core.retrieval.expansion import neighbour_edges, with_current_versions
from core.retrieval.filters import Filters
from core.retrieval.pairs import lift_pairs
from core.retrieval.query import Query
from core.retrieval.reload import open_stores
from core.retrieval.results import build_result
from core.settings import Settings, get_settings


class ExternalHit(BaseModel):
    unit_id: str
    score: float = Field(description="any scale, higher = better; only the order and spread matter")


def _normalised(hits: list[ExternalHit]) -> dict[str, float]:
    if not hits:
        return {}
    low, high = min(h.score for h in hits), max(h.score for h in hits)
    if low >= 0 and high > 0:  # similarity-like scores: keep their spread, the last hit is not worth 0
        return {h.unit_id: h.score / high for h in hits}
    span = (high - low) or 1.0
    return {h.unit_id: (h.score - low) / span for h in hits}


def rerank(
    question: str, corpus: str, hits: list[ExternalHit], k: int = 10, filters: Filters | None = None,
    settings: Settings | None = None, config: RetrievalConfig | None = None, external_weight: float = 0.5,
) -> RetrievalResult:
    """Blend your scores with ours, widen with citation neighbours of the top hits, lift linked pairs.
    Unknown unit ids are dropped (listed in `degraded`); Neo4j being down returns your hits re-ranked
    without expansion, never an error."""
    settings = settings or get_settings()
    cfg = config or RetrievalConfig()
    started = time.perf_counter()
    stores = open_stores(settings, corpus, cfg)
    query = Query(stores, RetrievalRequest(question=question, corpus=corpus, k=k, filters=filters or Filters()))
    theirs = _normalised([h for h in hits if h.unit_id in stores.index])
    unknown = [h.unit_id for h in hits if h.unit_id not in stores.index]
    if unknown:
        query.degraded.append(f"{len(unknown)} unit ids not in corpus {corpus!r}: {', '.join(unknown[:5])}")
    ours = query.fused(cfg.lexical_weight)
    provenance: dict[str, list[Provenance]] = {
        uid: [Provenance(kind="external", rank=rank, score=h.score)]
        for rank, h in enumerate(sorted(hits, key=lambda h: -h.score), 1) if (uid := h.unit_id) in theirs
    }
    blended = {uid: external_weight * s + (1 - external_weight) * float(ours[stores.index[uid]])
               for uid, s in theirs.items() if stores.allowed(uid, query.request.filters)}
    seeds = sorted(blended, key=lambda u: -blended[u])[: cfg.pair_seeds]
    # Neighbours join the pool on our score alone: the caller never saw them.
    pool = dict(blended)
    edges = neighbour_edges(query, seeds, cfg.walk_edge_types, cfg.limit_per_unit)
    for edge in edges:
        for uid in (edge.source, edge.target):
            if uid not in pool and uid in stores.index and stores.allowed(uid, query.request.filters):
                pool[uid] = (1 - external_weight) * float(ours[stores.index[uid]])
    lifted = lift_pairs(query, pool, seeds, cfg.walk_edge_types, cfg.pair_bonus, cfg.limit_per_unit, provenance, edges)
    ranked = sorted(lifted.items(), key=lambda item: -item[1])
    if cfg.current_law:
        ranked = with_current_versions(query, ranked, provenance)
    query.timed("total", started)
    return build_result(query, "rerank", ranked, provenance)
