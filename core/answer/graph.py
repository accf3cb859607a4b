"""The graph reads the answerer needs, behind a small protocol so tests can supply an in-memory graph."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from neo4j import Driver
from neo4j.exceptions import DriverError, TransientError

from core.current_law import CurrentLaw
from core.domain import Edge
from core.stores import queries as gq
from core.stores.graph_reader import GraphUnavailable
from core.stores.queries import Reached, UnitRecord

T = TypeVar("T")
# What a live Neo4j does when it goes away or is busy mid-run; a ClientError (a bad query) is a bug and is not here.
GRAPH_FAULTS = (DriverError, TransientError, OSError)


class GraphReader(Protocol):
    """A read that cannot reach the graph raises a StoreError (GraphUnavailable); anything else is a bug."""

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]: ...

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]: ...

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[Edge]: ...

    def ancestors(self, unit_id: str) -> list[UnitRecord]: ...

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]: ...

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]: ...

    def current_law(self, unit_id: str) -> CurrentLaw | None: ...

    def existing_edges(self, edges: list[Edge]) -> set[tuple[str, str, str]]: ...


def _read(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except GRAPH_FAULTS as exc:
        raise GraphUnavailable(f"Neo4j read failed ({type(exc).__name__}: {str(exc)[:200]})") from exc


@dataclass
class Neo4jGraph:
    """GraphReader over the live store; every query is the shared, parameterised one in core.stores.queries."""

    driver: Driver
    database: str

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        return _read(lambda: gq.fetch_units(self.driver, self.database, unit_ids))

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]:
        return _read(lambda: gq.expand(self.driver, self.database, seed_ids, edge_types, max_hops=max_hops, node_cap=node_cap))

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[Edge]:
        """Edges joining two of these units (expansion skips them: both ends are already visited)."""
        inside = set(unit_ids)
        # `within` filters before the per-unit limit: a hub's edge to another held unit is not cut off.
        edges = _read(lambda: gq.neighbours(self.driver, self.database, unit_ids, edge_types, "out", within=list(inside)))
        return [e for e in edges if e.source in inside and e.target in inside]

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        return _read(lambda: gq.ancestors(self.driver, self.database, unit_id))

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        """Each unit's parent headings, top down, in one query (a unit without any is absent)."""
        return _read(lambda: gq.ancestors_of(self.driver, self.database, unit_ids))

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return _read(lambda: gq.children(self.driver, self.database, unit_ids))

    def current_law(self, unit_id: str) -> CurrentLaw | None:
        return _read(lambda: gq.current_law(self.driver, self.database, unit_id))

    def existing_edges(self, edges: list[Edge]) -> set[tuple[str, str, str]]:
        return _read(lambda: gq.existing_edges(self.driver, self.database, edges))
