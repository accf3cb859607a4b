"""A corpus's citation edges held in memory, read once when its stores open, so that a question's expansion is a few
dictionary reads instead of Neo4j round trips (they were most of a Korean question's time after the embedding).

`neighbours` answers exactly as `core.stores.queries.neighbours` does (both directions, stored units only, `within`
filtered before the per-unit limit). A hub with more than `limit_per_unit` edges is read from Neo4j, so rankings
match the reads it replaces. CONTAINS is not held: the stores hold the tree already.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.domain import Edge, EdgeType

HELD_TYPES: tuple[EdgeType, ...] = (EdgeType.REFERENCES, EdgeType.DELEGATES_TO, EdgeType.SPECIFIES, EdgeType.DEFINES,
                                    EdgeType.AMENDS, EdgeType.REPLACES)


# (type, source, target): an edge as held, a model made of it only when a question reads it.
Triple = tuple[str, str, str]


@dataclass
class HeldEdges:
    """Each unit's edges, kept as triples: a corpus's ~12k edges as Edge models are ~25k objects for the collector."""

    by_unit: dict[str, tuple[Triple, ...]] = field(default_factory=dict)
    _made: dict[str, list[Edge]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_rows(cls, rows: Iterable[dict[str, Any]], units: Iterable[str]) -> HeldEdges:
        """Edges between two of `units` (the corpus's stored units) from `corpus_edges` rows."""
        known = set(units)
        by_unit: dict[str, list[Triple]] = {}
        # Parallel edges (a provision citing another twice) are kept, as Neo4j returns them: they count towards
        # a unit's limit there too.
        edges = sorted((str(r["type"]), str(r["source"]), str(r["target"])) for r in rows
                       if r["source"] in known and r["target"] in known and r["source"] != r["target"])
        for edge in edges:
            by_unit.setdefault(edge[1], []).append(edge)
            by_unit.setdefault(edge[2], []).append(edge)
        return cls({unit: tuple(held) for unit, held in by_unit.items()})

    def edges_of(self, unit_id: str) -> list[Edge]:
        """The unit's edges, made once (threads racing make equal lists; one is kept)."""
        made = self._made.get(unit_id)
        if made is None:
            made = self._made.setdefault(unit_id, [Edge(type=kind, source=source, target=target)
                                                   for kind, source, target in self.by_unit.get(unit_id, ())])
        return made

    @staticmethod
    def holds(edge_types: Iterable[str]) -> bool:
        return all(t in HELD_TYPES for t in edge_types)

    def neighbours_of(self, unit_id: str, types: set[str], limit_per_unit: int, within: set[str] | None) -> list[Edge] | None:
        """The unit's edges of these types (to `within` only, when given), or None when more than `limit_per_unit`
        match: which of a hub's edges Neo4j returns first is its storage order, so a hub is read from Neo4j and
        every ranking stays what it was."""
        out: list[Edge] = []
        for edge in self.edges_of(unit_id):
            other = edge.target if edge.source == unit_id else edge.source
            if edge.type in types and (within is None or other in within):
                if len(out) >= limit_per_unit:
                    return None
                out.append(edge)
        return out


@dataclass(frozen=True)
class ChainStarts:
    """The units an amendment chain can start from (`core.stores.queries.chain_starts`), read with the edges, so
    that most questions ask Neo4j nothing for current versions. Each says whether a text-giving edge into it carries
    an instruction's action (a chain from it may start typed)."""

    typed_by_unit: Mapping[str, bool] = field(default_factory=dict)

    def may_follow(self, unit_id: str, untyped_kept: bool) -> bool:
        """Whether `latest_versions` can give this unit a chain the caller keeps (an untyped one only when
        `untyped_kept`): when not, the unit need not be asked about."""
        typed = self.typed_by_unit.get(unit_id)
        return typed is not None and (typed or untyped_kept)
