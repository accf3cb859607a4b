"""Typed graph expansion for the graph-based retrievers, degrading to 'no expansion' when Neo4j is down."""
from __future__ import annotations

import time
from collections.abc import Iterable

from neo4j import Driver

from core.domain import Edge, EdgeType
from core.retrieval.base import Provenance
from core.retrieval.query import Query
from core.retrieval.stores import INACTIVE_STATUSES
from core.stores import queries as graph_queries
from core.stores.queries import Reached

AMENDMENT_TYPES = frozenset({EdgeType.AMENDS, EdgeType.REPLACES})


def expand_groups(
    query: Query, seeds: list[str], groups: Iterable[tuple[list[EdgeType], int]], node_cap: int, limit_per_unit: int,
) -> list[Reached]:
    """Expand each (edge types, hops) group from the seeds; a unit keeps its shortest path; capped."""
    started = time.perf_counter()

    def run(driver: Driver, database: str) -> list[Reached]:
        best: dict[str, Reached] = {}
        for types, hops in groups:
            if not types or hops <= 0:
                continue
            for item in graph_queries.expand(driver, database, seeds, types, hops, node_cap, "both", limit_per_unit):
                if item.unit_id not in best or item.hops < best[item.unit_id].hops:
                    best[item.unit_id] = item
        ordered = sorted(best.values(), key=lambda r: r.hops)
        return ordered[:node_cap]

    none_reached: list[Reached] = []
    reached, problem = query.stores.graph.call(run, none_reached)
    if problem:
        query.degraded.append(problem)
    query.timed("graph expansion", started)
    return [r for r in reached if query.stores.allowed(r.unit_id, query.request.filters)]


def neighbour_edges(query: Query, unit_ids: list[str], edge_types: list[EdgeType], limit_per_unit: int,
                    within: list[str] | None = None) -> list[Edge]:
    """One hop from the units, from the edges the stores hold when they hold these types, else from Neo4j."""
    started = time.perf_counter()
    held = query.stores.edges
    if held is not None and held.holds(edge_types):
        types, inside = {str(t) for t in edge_types}, set(within) if within is not None else None
        found: list[Edge] = []
        for uid in unit_ids:
            own = held.neighbours_of(uid, types, limit_per_unit, inside)
            found += own if own is not None else _hub_edges(query, uid, edge_types, limit_per_unit, within)
        query.timed("graph expansion", started)
        return found
    edges = _read_neighbours(query, unit_ids, edge_types, limit_per_unit, within)
    query.timed("graph expansion", started)
    return edges


def _hub_edges(query: Query, unit_id: str, edge_types: list[EdgeType], limit_per_unit: int,
               within: list[str] | None) -> list[Edge]:
    def read() -> tuple[Edge, ...] | None:
        before = len(query.degraded)
        edges = _read_neighbours(query, [unit_id], edge_types, limit_per_unit, within)
        return None if len(query.degraded) > before else tuple(edges)

    key = (unit_id, tuple(edge_types), limit_per_unit, None if within is None else frozenset(within))
    return list(query.stores.hub_edges(key, read) or ())


def _read_neighbours(query: Query, unit_ids: list[str], edge_types: list[EdgeType], limit_per_unit: int,
                     within: list[str] | None) -> list[Edge]:
    edges, problem = query.stores.graph.call(
        lambda driver, database: graph_queries.neighbours(
            driver, database, unit_ids, edge_types, "both", limit_per_unit, within=within),
        list[Edge](),
    )
    if problem:
        query.degraded.append(problem)
    return edges


def graph_provenance(reached: Reached) -> Provenance:
    return Provenance(kind="graph", seed_id=reached.seed_id, hops=reached.hops, path=reached.path)


def with_current_versions(query: Query, ranked: list[tuple[str, float]], provenance: dict[str, list[Provenance]],
                          superseded_only: bool = False) -> list[tuple[str, float]]:
    """'Current law': a hit given new words by an amending provision is followed by the latest version
    of its AMENDS/REPLACES chain (core.current_law.gives_text says which edges give new words).

    superseded_only: only from hits no longer current (their status, or a typed replacing instruction); chains
    between two in-force units displaced relevant hits (bench/results/TRIED.md)."""
    started = time.perf_counter()
    units, starts = query.stores.units, query.stores.chain_starts
    top = [uid for uid, _ in ranked[: query.request.k]]
    if starts is not None:
        # A unit no kept chain can start from gets none from the read: Neo4j is asked about the others only.
        top = [uid for uid in top if starts.may_follow(
            uid, not superseded_only or (uid in units and units[uid].status in INACTIVE_STATUSES))]
        if not top:
            query.timed("current law", started)
            return ranked
    chains, problem = query.stores.graph.call(
        lambda driver, database: graph_queries.latest_versions(driver, database, top), dict[str, tuple[list[Edge], bool]](),
    )
    if problem:
        query.degraded.append(problem)
    query.timed("current law", started)
    if superseded_only:
        chains = {uid: found for uid, found in chains.items()
                  if found[1] or (uid in units and units[uid].status in INACTIVE_STATUSES)}
    if not chains:
        return ranked
    out: list[tuple[str, float]] = []
    placed: set[str] = set()
    for uid, score in ranked:
        if uid in placed:
            continue
        out.append((uid, score))
        placed.add(uid)
        chain = chains[uid][0] if uid in chains else None
        latest = chain[-1].source if chain else None
        if chain and latest and latest not in placed and query.stores.allowed(latest, query.request.filters):
            provenance.setdefault(latest, []).append(Provenance(kind="graph", seed_id=uid, hops=len(chain), path=chain))
            out.append((latest, score))
            placed.add(latest)
    return out
