"""How many XRefRAG (source → target) pairs the citation graph connects: the ceiling graph expansion gives.

A pair counts when the source unit has a citation edge (any type but CONTAINS) to the target unit or
to one of its ancestors or descendants through parent links: a citation of "Rule 3.8.1" that lands
on 3.8.1(a), or one of "3.8.1(a)" that lands on 3.8.1, still brings the target within one hop.
"""
from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from core.domain import Document, Edge, EdgeType
from core.settings import get_settings
from ingest.graph import build_graph
from ingest.stages import StageRecorder

CORPUS = "adgm"
PAIRS = Path("bench") / "xrefrag_fsra_dev.jsonl"


def build_adgm_graph(shared: Path) -> tuple[list[Document], list[Edge], dict[str, float | int]]:
    """Parse, find and resolve the shared ADGM corpus in memory; returns documents, edges and stats."""
    started = time.perf_counter()
    recorder = StageRecorder()
    graph = build_graph([shared / "corpora" / "adgm"], CORPUS, forced_format="adgm", recorder=recorder)
    documents, edges = graph.documents, graph.edges
    mentions = next(stage.items for stage in recorder.stages if stage.name == "find citations")
    citations = [e for e in edges if e.type is not EdgeType.CONTAINS and e.resolution != "inferred"]
    stats: dict[str, float | int] = {
        "seconds": round(time.perf_counter() - started, 2),
        "units": sum(len(d.units) for d in documents),
        "failures": len(graph.failures),
        "mentions": mentions,
        "citation_edges": len(citations),
        "resolved": sum(1 for e in citations if e.resolution in ("exact", "ancestor")),
        "resolved_exact": sum(1 for e in citations if e.resolution == "exact"),
        "external": sum(1 for e in citations if e.resolution == "external"),
        "external_nodes": len(graph.externals),
    }
    return documents, edges, stats


def measure_xrefrag_coverage(shared: Path) -> dict:
    documents, edges, stats = build_adgm_graph(shared)
    units = {u.id: u for d in documents for u in d.units}
    children: dict[str, list[str]] = defaultdict(list)
    for unit in units.values():
        if unit.parent_id:
            children[unit.parent_id].append(unit.id)
    cited: dict[str, set[str]] = defaultdict(set)
    for edge in edges:
        if edge.type is not EdgeType.CONTAINS:
            cited[edge.source].add(edge.target)

    hits, misses = 0, []
    rows = [json.loads(line) for line in (shared / PAIRS).read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        source, target = row["source_passage_id"], row["target_passage_id"]
        family = _family(target, units, children)
        if cited[source] & family:
            hits += 1
            continue
        misses.append({"id": row["id"], "source": source, "target": target,
                       "reference_text": row.get("reference_text", ""), "why": _why(source, target, units, cited)})
    total = len(rows)
    return {"share": hits / total if total else 0.0, "total": total, "hits": hits, "misses": misses, "graph": stats}


def _family(unit_id: str, units: dict, children: dict[str, list[str]]) -> set[str]:
    """The unit, its ancestors up to (not including) the document, and all its descendants."""
    family = {unit_id}
    parent = units[unit_id].parent_id if unit_id in units else None
    while parent is not None and units[parent].parent_id is not None:
        family.add(parent)
        parent = units[parent].parent_id
    stack = list(children.get(unit_id, []))
    while stack:
        child = stack.pop()
        family.add(child)
        stack.extend(children.get(child, []))
    return family


def _why(source: str, target: str, units: dict, cited: dict[str, set[str]]) -> str:
    if source not in units or target not in units:
        return "source or target id missing from the parsed corpus"
    got = sorted(units[t].label for t in cited[source] if t in units)
    external = sorted(t.rsplit("/", 1)[-1] for t in cited[source] if t not in units)
    wanted = units[target].label
    if not got and not external:
        return f"no citation found in the source text (wanted {wanted})"
    return f"wanted {wanted}; source cites {got[:8]}" + (f" and external {external[:4]}" if external else "")


def main() -> int:
    result = measure_xrefrag_coverage(get_settings().shared)
    stats = result["graph"]
    print(f"xrefrag dev edge coverage: {result['share']:.3f} ({result['hits']}/{result['total']})")
    print(f"graph: {stats['units']} units, {stats['mentions']} mentions, {stats['citation_edges']} citation edges: "
          f"{stats['resolved']} resolved ({stats['resolved_exact']} exact), {stats['external']} external "
          f"→ {stats['external_nodes']} External nodes; parse+find+resolve {stats['seconds']} s")
    for miss in result["misses"]:
        print(f"  MISS {miss['id']} {miss['reference_text']!r}: {miss['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
