"""RefWalk: pool N from the `mid` view, top M seeds expanded one hop over citation edges (never
containment) with decay δ (max over paths), every candidate scored under three views and fused by
Reciprocal Rank MAX; authority tiers ≥ 2 multiplied by μ."""
from __future__ import annotations

from core.domain import EdgeType
from core.retrieval.base import Provenance
from core.retrieval.expansion import neighbour_edges, with_current_versions
from core.retrieval.fusion import rrm, top_indices
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.query import Query
from core.retrieval.views import extract_anchor, view_scores

# A decree article that SPECIFIES the act's delegation is where the delegated detail is written: the
# authority discount would push down exactly the unit a question about that detail needs.
DELEGATION_TYPES = frozenset({EdgeType.DELEGATES_TO.value, EdgeType.SPECIFIES.value})


def authority_weighted(query: Query, scores: dict[str, float], mu: float,
                       exempt: frozenset[str] | set[str] = frozenset()) -> dict[str, float]:
    """Tier >= 2 units (decrees, rules) count μ × their score, except those joined to a candidate over a
    delegation edge (DELEGATES_TO / SPECIFIES)."""
    units = query.stores.units
    return {uid: s * (mu if units[uid].tier >= 2 and uid not in exempt else 1.0) for uid, s in scores.items()}


class RefWalkRetriever(CorpusRetriever):
    name = "refwalk"

    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        cfg, ids, index = self.config, query.stores.unit_ids, query.stores.index
        views = view_scores(query, extract_anchor(self.settings, query), cfg.lexical_weight)
        pool = [ids[i] for i in top_indices(views["mid"], cfg.pool_size, query.mask)]
        provenance = query.first_stage_provenance(cfg.pool_size)
        seeds = pool[: cfg.seeds]
        inherited: dict[str, list[str]] = {}
        delegation: set[str] = set()
        for edge in neighbour_edges(query, seeds, cfg.walk_edge_types, cfg.limit_per_unit):
            seed, other = (edge.source, edge.target) if edge.source in seeds else (edge.target, edge.source)
            if edge.type in DELEGATION_TYPES:
                delegation.update((seed, other))
            if other in index and query.stores.allowed(other, query.request.filters):
                inherited.setdefault(other, []).append(seed)
                provenance.setdefault(other, []).append(Provenance(kind="graph", seed_id=seed, hops=1, path=[edge]))
        candidates = list(dict.fromkeys([*pool, *inherited]))
        rankings = []
        for scores in views.values():
            own = {uid: float(scores[index[uid]]) for uid in candidates}
            # A neighbour is worth at least δ × its best seed under this view: max over paths, not sum.
            for uid, from_seeds in inherited.items():
                own[uid] = max(own[uid], cfg.decay * max(float(scores[index[s]]) for s in from_seeds))
            rankings.append(sorted(own, key=lambda u: -own[u]))
        fused = authority_weighted(query, rrm(rankings, cfg.rrf_k), cfg.authority_decay, delegation & set(candidates))
        ranked = sorted(fused.items(), key=lambda item: -item[1])
        if cfg.current_law:
            ranked = with_current_versions(query, ranked, provenance)
        return ranked, provenance
