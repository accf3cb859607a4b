"""Citation-pair co-occurrence: a unit and the unit it cites (or that cites it) rise together when both
are relevant on their own — the shape of a cross-reference question."""
from __future__ import annotations

from core.retrieval.base import PathEdge, Provenance
from core.retrieval.expansion import neighbour_edges
from core.retrieval.query import Query
from ingest.models import EdgeType


def lift_pairs(
    query: Query, pool: dict[str, float], seeds: list[str], edge_types: list[EdgeType], bonus: float,
    limit_per_unit: int, provenance: dict[str, list[Provenance]], edges: list[PathEdge] | None = None,
) -> dict[str, float]:
    """A citation neighbour v of a seed u, relevant on its own (in the pool) and ranked below u, rises to
    min(s(u) − ε, s(v) + bonus·s(u)): it lands right under its seed. Seeds never move, so the flat top
    ranks (MRR, MAP) are kept; only the slots under them change."""
    lifted = dict(pool)
    if bonus <= 0 or not seeds:
        return lifted
    seed_set = set(seeds)
    if edges is None:
        edges = neighbour_edges(query, seeds, edge_types, limit_per_unit, within=list(pool))
    for edge in edges:
        seed, other = (edge.source, edge.target) if edge.source in seed_set else (edge.target, edge.source)
        if other not in pool or pool[other] >= pool[seed]:
            continue  # a partner must be relevant on its own: that is what keeps topic drift out
        raised = min(pool[seed] - 1e-6, pool[other] + bonus * pool[seed])
        if raised > lifted[other]:
            lifted[other] = raised
            provenance.setdefault(other, []).append(Provenance(kind="graph", seed_id=seed, hops=1, path=[edge]))
    return lifted
