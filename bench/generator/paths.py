"""Read a corpus's citation graph from Neo4j once and walk its 2–4-hop paths in Python.

One parameterised query per kind of record, then the walk in memory: per-node fan-out caps, cycle
and containment rules and seeded sampling are plain code here, which a variable-length Cypher pattern
would either not express or explode on (inferred DEFINES edges make a few definitions hubs).
"""
from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator

from neo4j import Driver
from pydantic import BaseModel

from bench.generator.models import GraphPath, PathHop
from core.domain import EdgeType
from core.stores.queries import UnitRecord, corpus_edges, corpus_unit_records

PATH_EDGE_TYPES: tuple[EdgeType, ...] = (EdgeType.AMENDS, EdgeType.REFERENCES, EdgeType.DELEGATES_TO, EdgeType.DEFINES)
# Parts and chapters are too broad to be evidence: "this part" is a citation, not an answer.
BROAD_TYPES = frozenset({"document", "part", "subpart", "chapter"})
MIN_TEXT_CHARS = 40
CUE_CHARS = 60
# When two edges join the same pair, the rarer, more specific relation names the hop.
EDGE_PRIORITY = {EdgeType.AMENDS: 0, EdgeType.DELEGATES_TO: 1, EdgeType.REFERENCES: 2, EdgeType.DEFINES: 3}


class CorpusGraph(BaseModel):
    corpus: str
    units: dict[str, UnitRecord]
    out: dict[str, list[PathHop]]

    def ancestors(self, unit_id: str) -> list[str]:
        chain: list[str] = []
        parent = self.units[unit_id].parent_id if unit_id in self.units else None
        while parent and parent not in chain:
            chain.append(parent)
            parent = self.units[parent].parent_id if parent in self.units else None
        return chain

    def heading(self, unit_id: str) -> str:
        """The nearest title on the way up: what a reader would call the provision's subject."""
        for candidate in [unit_id, *self.ancestors(unit_id)]:
            unit = self.units.get(candidate)
            if unit and unit.title and unit.type not in BROAD_TYPES:
                return unit.title
        return ""

    def eligible(self, unit_id: str) -> bool:
        unit = self.units.get(unit_id)
        return unit is not None and unit.type not in BROAD_TYPES and len(unit.text.strip()) >= MIN_TEXT_CHARS \
            and unit.status not in ("repealed", "expired")


def load_graph(driver: Driver, database: str, corpus: str) -> CorpusGraph:
    """Units and citation edges of one corpus; External targets and pending placeholders never enter."""
    units = corpus_unit_records(driver, database, corpus)
    rows = corpus_edges(driver, database, corpus, PATH_EDGE_TYPES)
    best: dict[tuple[str, str], PathHop] = {}
    for r in rows:
        hop = PathHop(source=r["source"], type=r["type"], target=r["target"], citation=r["citation"],
                      cue=_cue(units.get(r["source"]), r["start"]))
        key = (hop.source, hop.target)
        if key not in best or EDGE_PRIORITY[EdgeType(hop.type)] < EDGE_PRIORITY[EdgeType(best[key].type)]:
            best[key] = hop
    out: dict[str, list[PathHop]] = defaultdict(list)
    for hop in sorted(best.values(), key=lambda h: (h.source, h.target)):
        out[hop.source].append(hop)
    return CorpusGraph(corpus=corpus, units=units, out=dict(out))


def _cue(unit: UnitRecord | None, start: int | None) -> str:
    if unit is None or start is None:
        return ""
    return unit.text[max(0, start - CUE_CHARS):start]


def walk_paths(
    graph: CorpusGraph, seed: int, min_hops: int = 2, max_hops: int = 4, fanout: int = 6,
    per_start: int = 30, limit: int = 60000,
) -> Iterator[GraphPath]:
    """Simple directed paths (citing → cited) whose units are all eligible and none contains another."""
    rng = random.Random(seed)
    starts = sorted(u for u in graph.out if graph.eligible(u))
    rng.shuffle(starts)
    lineage = {u: {u, *graph.ancestors(u)} for u in graph.units}
    emitted = 0
    for start in starts:
        found = 0
        stack: list[list[PathHop]] = [[h] for h in _next_hops(graph, start, [start], lineage, rng, fanout)]
        while stack and found < per_start:
            hops = stack.pop()
            units = [hops[0].source, *(h.target for h in hops)]
            if len(hops) >= min_hops:
                yield GraphPath(units=units, hops=hops, documents=len({graph.units[u].document_id for u in units}))
                found += 1
                emitted += 1
                if emitted >= limit:
                    return
            if len(hops) < max_hops:
                stack.extend([*hops, h] for h in _next_hops(graph, units[-1], units, lineage, rng, fanout))


def _next_hops(
    graph: CorpusGraph, node: str, on_path: list[str], lineage: dict[str, set[str]], rng: random.Random, fanout: int
) -> list[PathHop]:
    def related(a: str, b: str) -> bool:
        # A hop into one's own parent or child restates the same provision: no second piece of evidence.
        return a in lineage.get(b, ()) or b in lineage.get(a, ())

    options = [h for h in graph.out.get(node, []) if graph.eligible(h.target)
               and not any(related(h.target, p) for p in on_path)]
    rng.shuffle(options)
    return options[:fanout]
