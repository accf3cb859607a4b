"""Citation-pair co-occurrence: a unit and the unit it cites (or that cites it) rise together when both
are relevant on their own — the shape of a cross-reference question."""
from __future__ import annotations

from core.domain import Edge, EdgeType
from core.retrieval.base import Provenance
from core.retrieval.expansion import neighbour_edges
from core.retrieval.query import Query


def lift_pairs(
    query: Query, pool: dict[str, float], seeds: list[str], edge_types: list[EdgeType], bonus: float,
    limit_per_unit: int, provenance: dict[str, list[Provenance]], edges: list[Edge] | None = None,
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


def lift_siblings(query: Query, pool: dict[str, float], lifted: dict[str, float], seeds: list[str], bonus: float
                  ) -> dict[str, float]:
    """The clause right before or after a top seed under the same parent ("(a)" next to "(b)", guidance
    paragraph 3 next to 4), relevant on its own (in the pool), rises to min(s(u) − 2ε, s(v) + λ·s(u)).
    Multi-passage questions are mostly answered by such neighbours; the small λ keeps cited partners first."""
    stores = query.stores
    if bonus <= 0 or not seeds:
        return lifted
    for seed in seeds:
        for n in stores.adjacent[stores.index[seed]]:
            if n < 0:
                continue
            other = stores.unit_ids[n]
            if other not in pool or pool[other] >= pool[seed]:
                continue
            raised = min(pool[seed] - 2e-6, pool[other] + bonus * pool[seed])
            if raised > lifted[other]:
                lifted[other] = raised
    return lifted
