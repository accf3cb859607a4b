"""Mentions → typed edges: finest existing unit, else nearest existing ancestor, else External."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field

from core.domain import CITATION_EDGE_TYPES, Document, Edge, EdgeType, ExternalRef
from ingest.models import Mention

# Unicode-aware: Korean and Vietnamese citations must not collapse onto the same slug.
_EXTERNAL_SLUG = re.compile(r"[\W_]+")


class KeyIndex:
    """Address key → unit id for a whole corpus (a key claimed twice keeps its first unit)."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self._by_key: dict[str, str] = {}
        for document in documents:
            for unit in document.units:
                # "unit:<id>" lets a finder that already knows its target (defined terms) name it directly.
                self._by_key.setdefault(f"unit:{unit.id}", unit.id)
                for key in unit.keys:
                    self._by_key.setdefault(key, unit.id)

    def add_fallback(self, keys: dict[str, str]) -> None:
        """Keys of already-stored units; the units parsed in this run take precedence."""
        for key, unit_id in keys.items():
            self._by_key.setdefault(key, unit_id)

    def lookup(self, key: str) -> str | None:
        return self._by_key.get(key)

    def __len__(self) -> int:
        return len(self._by_key)


class Resolution(BaseModel):
    edges: list[Edge] = Field(default_factory=list)
    externals: list[ExternalRef] = Field(default_factory=list)


def external_id(corpus: str, raw: str) -> str:
    return f"{corpus}/external/{_EXTERNAL_SLUG.sub('-', raw.lower()).strip('-')[:120]}"


def resolve_mentions(mentions: Iterable[Mention], index: KeyIndex, corpus: str) -> Resolution:
    out = Resolution()
    externals: dict[str, ExternalRef] = {}
    seen: set[tuple[str, str, EdgeType, int | None]] = set()
    for mention in mentions:
        target, resolution = _target_of(mention, index)
        if target is None:
            # Named by the act and provision when the finder knows them, else by the words cited.
            raw = mention.name or mention.text
            ext = externals.setdefault(external_id(corpus, raw), ExternalRef(id=external_id(corpus, raw), corpus=corpus, raw=raw))
            target, resolution = ext.id, "external"
        if target == mention.source_id:
            continue
        key = (mention.source_id, target, mention.edge_type, mention.start)
        if key in seen:
            continue
        seen.add(key)
        out.edges.append(
            Edge(
                source=mention.source_id,
                target=target,
                type=mention.edge_type,
                citation=mention.text,
                start=mention.start,
                end=mention.end,
                resolution="inferred" if mention.inferred else resolution,
                action=mention.action,
            )
        )
        # Delegation is always stored as a pair: the delegated rule SPECIFIES its delegating rule.
        pair = mention.pair or (EdgeType.SPECIFIES if mention.edge_type is EdgeType.DELEGATES_TO else None)
        if pair is not None and resolution != "external":
            out.edges.append(Edge(source=target, target=mention.source_id, type=pair,
                                  citation=mention.text, resolution=resolution))
    out.externals = list(externals.values())
    mark_cycles(out.edges)
    return out


def _target_of(mention: Mention, index: KeyIndex) -> tuple[str | None, str]:
    for position, key in enumerate(mention.keys):
        unit_id = index.lookup(key)
        if unit_id is not None:
            return unit_id, "exact" if position == 0 else "ancestor"
    return None, "external"


def structure_edges(documents: Iterable[Document]) -> list[Edge]:
    """CONTAINS (parent → child) from the parsed hierarchy; PART_OF is its reverse, derived at query time."""
    return [
        Edge(source=unit.parent_id, target=unit.id, type=EdgeType.CONTAINS, resolution="structure")
        for document in documents
        for unit in document.units
        if unit.parent_id is not None
    ]


def mark_cycles(edges: list[Edge]) -> None:
    """Flag citation edges whose two ends lie on one directed cycle (same strongly connected component)."""
    graph: dict[str, list[str]] = defaultdict(list)
    citation_edges = [e for e in edges if e.type in CITATION_EDGE_TYPES]
    for edge in citation_edges:
        graph[edge.source].append(edge.target)
    component = _strongly_connected(graph)
    for edge in citation_edges:
        source_c, target_c = component.get(edge.source), component.get(edge.target)
        edge.in_cycle = source_c is not None and source_c == target_c


def _strongly_connected(graph: dict[str, list[str]]) -> dict[str, int]:
    """Tarjan's algorithm, iterative so that long citation chains cannot overflow the stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    component: dict[str, int] = {}
    counter = 0
    for root in list(graph):
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child_pos = work.pop()
            if child_pos == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = graph.get(node, [])
            if child_pos < len(children):
                work.append((node, child_pos + 1))
                child = children[child_pos]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    for member in members:
                        component[member] = index[node]
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component
