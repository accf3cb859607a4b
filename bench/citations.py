"""Citation extraction on HIPAA against the section-pair gold: precision, recall, F1, paragraph exactness.

    python -m bench.citations [--out bench/results/citations.json]

Section pairs come from the graph's citation edges (not defined-term uses, not containment), with
paragraph and definition units rolled up to their section. The edges are read through one function,
`hipaa_graph`, so that a later revision can read them back from Neo4j instead of rebuilding them.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from core.domain import CITATION_EDGE_TYPES, Document, Edge, UnitType
from core.settings import get_settings
from ingest.graph import build_graph

CORPUS = "hipaa"
GOLD = Path("bench") / "hipaa_citation_pairs.jsonl"
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "citations.json"
# A written citation with a paragraph part: "(a)(2)" in "§ 164.508(a)(2)", "paragraph (b)(1)", "(2)".
_PARAGRAPH_PART = re.compile(r"\((?:[a-z]{1,4}|\d{1,3}|[A-Z]{1,3})\)")
_PARAGRAPH_TYPES = {UnitType.PARAGRAPH, UnitType.CLAUSE, UnitType.POINT}

Pair = tuple[str, str]


@dataclass
class GraphView:
    section_of: dict[str, str]  # unit id → its section number ("164.508")
    unit_type: dict[str, UnitType]
    edges: list[Edge]
    stats: dict[str, float | int] = field(default_factory=dict)


def hipaa_graph(shared: Path) -> GraphView:
    """The edge source: the HIPAA graph built in memory, exactly what the writer puts in Neo4j."""
    started = time.perf_counter()
    graph = build_graph([shared / "corpora" / CORPUS], corpus=CORPUS, forced_format=CORPUS)
    section_of, unit_type = _unit_index(graph.documents)
    return GraphView(
        section_of,
        unit_type,
        graph.edges,
        {
            "seconds": round(time.perf_counter() - started, 2),
            "units": graph.unit_count(),
            "edges": len(graph.edges),
            "externals": len(graph.externals),
            "failures": len(graph.failures),
        },
    )


def _unit_index(documents: list[Document]) -> tuple[dict[str, str], dict[str, UnitType]]:
    section_of: dict[str, str] = {}
    unit_type: dict[str, UnitType] = {}
    for document in documents:
        number = next((u.metadata.get("section") for u in document.units if u.type is UnitType.SECTION), None)
        for unit in document.units:
            unit_type[unit.id] = unit.type
            if number:
                section_of[unit.id] = number
    return section_of, unit_type


def written_citations(view: GraphView) -> list[Edge]:
    """Edges from citations written in the text: drop containment and defined-term uses."""
    return [e for e in view.edges if e.type in CITATION_EDGE_TYPES and e.resolution not in ("inferred", "structure")]


def section_pairs(view: GraphView) -> dict[Pair, list[str]]:
    pairs: dict[Pair, list[str]] = defaultdict(list)
    for edge in written_citations(view):
        citing, cited = view.section_of.get(edge.source), view.section_of.get(edge.target)
        if citing and cited and citing != cited:
            pairs[(citing, cited)].append(edge.citation or "")
    return pairs


def load_gold(shared: Path) -> dict[Pair, str]:
    gold: dict[Pair, str] = {}
    for line in (shared / GOLD).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            gold[(row["citing"], row["cited"])] = row.get("example", "")
    return gold


def paragraph_exactness(view: GraphView) -> dict[str, float | int]:
    """Of in-corpus written citations with a paragraph part, the share resolved exactly to a paragraph.

    External targets (statutes, other CFR titles) are left out: the corpus has no unit they could hit.
    """
    considered = exact = 0
    for edge in written_citations(view):
        if edge.resolution not in ("exact", "ancestor") or not _PARAGRAPH_PART.search(edge.citation or ""):
            continue
        considered += 1
        exact += edge.resolution == "exact" and view.unit_type.get(edge.target) in _PARAGRAPH_TYPES
    return {"share": round(exact / considered, 4) if considered else 0.0, "considered": considered, "exact": exact}


def xrefrag_coverage(shared: Path) -> tuple[dict | None, str | None]:
    try:
        from bench.xrefrag_coverage import measure_xrefrag_coverage  # a sibling bench: its breaking must not hide ours
    except ImportError as exc:
        return None, f"bench.xrefrag_coverage unavailable: {exc}"
    try:
        return measure_xrefrag_coverage(shared), None
    except Exception as exc:  # a broken sibling benchmark must not hide this one's numbers
        return None, f"measure_xrefrag_coverage failed: {type(exc).__name__}: {exc}"


def evaluate(shared: Path) -> dict:
    view = hipaa_graph(shared)
    predicted = section_pairs(view)
    gold = load_gold(shared)
    hits = set(predicted) & set(gold)
    precision = len(hits) / len(predicted) if predicted else 0.0
    recall = len(hits) / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    paragraph = paragraph_exactness(view)
    coverage, coverage_note = xrefrag_coverage(shared)
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "paragraph_exact_share": paragraph["share"],
        "xrefrag_edge_coverage": coverage.get("share") if isinstance(coverage, dict) else None,
        "details": {
            "gold_pairs": len(gold),
            "predicted_pairs": len(predicted),
            "true_positives": len(hits),
            "false_negatives": [
                {"citing": c, "cited": d, "example": gold[(c, d)]} for c, d in sorted(set(gold) - hits)
            ],
            "false_positives": [
                {"citing": c, "cited": d, "citations": sorted(set(predicted[(c, d)]))[:5]} for c, d in sorted(set(predicted) - hits)
            ],
            "paragraph": paragraph,
            "xrefrag": coverage,
            "xrefrag_note": coverage_note,
            "graph": view.stats,
        },
    }


def print_report(result: dict, out: Path) -> None:
    details = result["details"]
    rows = [
        ("precision", result["precision"]),
        ("recall", result["recall"]),
        ("f1", result["f1"]),
        ("paragraph_exact_share", f"{result['paragraph_exact_share']} ({details['paragraph']['exact']}/{details['paragraph']['considered']})"),
        ("xrefrag_edge_coverage", result["xrefrag_edge_coverage"]),
        ("pairs gold / predicted / hit", f"{details['gold_pairs']} / {details['predicted_pairs']} / {details['true_positives']}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"HIPAA citations ({details['graph'].get('seconds')} s to build the graph)")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    for miss in details["false_negatives"]:
        print(f"  missed   {miss['citing']} → {miss['cited']}: …{miss['example']}…")
    for extra in details["false_positives"]:
        print(f"  spurious {extra['citing']} → {extra['cited']}: {extra['citations']}")
    if details["xrefrag_note"]:
        print(f"  note: {details['xrefrag_note']}")
    print(f"  written to {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    args = parser.parse_args(argv)
    shared = get_settings().shared
    if not (shared / "corpora" / CORPUS).is_dir():
        print(f"HIPAA corpus not found under {shared}; set CITEWALK_SHARED", file=sys.stderr)
        return 2
    result = evaluate(shared)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    print_report(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
