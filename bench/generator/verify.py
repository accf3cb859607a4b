"""Checks a generated item must pass to be emitted.

Every generator: the evidence is in the graph as written (each unit a non-pending Unit of the corpus,
each hop a stored edge, the hops chained in order): anything else is rejected as `structure`.

Template questions (no LLM) are then held to a retrieval check and a term-coverage check:
- `retrieval`: every path unit is in the top `pool_k` (100) of the hybrid retriever's fused list
  (BM25 top 50 and dense top 50 under RRF) for the question: it is really about these units. This
  selects items that a flat first stage can at least reach; rank, not reachability, is what the
  comparison then measures;
- `coverage`: let Q be the question's content stems (the lexical index's tokenizer, minus the
  templates' own words). The path's units (label, text, headings above them) must cover at least
  `min_coverage` of Q (answerable from the evidence), and removing any one unit must leave a stem of Q
  uncovered (`necessity`): no unit is decorative and no single unit answers it alone.
"""
from __future__ import annotations

from collections.abc import Callable

from neo4j import Driver

from bench.generator.models import GraphPath, Verification
from bench.generator.paths import CorpusGraph
from bench.generator.templates import frame_stems
from bench.generator.terms import unit_terms
from core.domain import Edge
from core.lexical import tokenize
from core.stores.queries import existing_edges, fetch_units

Pool = Callable[[str], list[str]]


def structure(driver: Driver, database: str, corpus: str, path: GraphPath) -> list[str]:
    problems: list[str] = []
    found = fetch_units(driver, database, path.units)
    for unit_id in path.units:
        unit = found.get(unit_id)
        if unit is None:
            problems.append(f"structure: {unit_id} is not a unit in the graph (missing, pending or external)")
        elif unit.corpus != corpus:
            problems.append(f"structure: {unit_id} belongs to corpus {unit.corpus!r}")
    walked = [path.hops[0].source, *(h.target for h in path.hops)] if path.hops else []
    if walked != path.units or any(a.target != b.source for a, b in zip(path.hops, path.hops[1:])):
        problems.append("structure: hops do not chain through the evidence units in order")
    edges = [Edge(source=h.source, type=h.type, target=h.target) for h in path.hops]
    stored = existing_edges(driver, database, edges)
    problems += [f"structure: no {e.type} edge {e.source} -> {e.target}" for e in edges
                 if (e.source, e.type, e.target) not in stored]
    return problems


def coverage(graph: CorpusGraph, question: str, units: list[str], min_coverage: float) -> tuple[list[str], dict]:
    wanted = set(tokenize(question)) - frame_stems()
    known = [u for u in units if u in graph.units]
    held = [unit_terms(graph, u) for u in known]
    covered = wanted & set().union(*held) if held else set()
    share = len(covered) / len(wanted) if wanted else 0.0
    problems = []
    if share < min_coverage:
        problems.append(f"coverage: evidence covers {share:.2f} of the question's terms (< {min_coverage})")
    needless = [u for i, u in enumerate(known)
                if not (covered - set().union(*(h for j, h in enumerate(held) if j != i)))]
    problems += [f"necessity: the question is covered without {u}" for u in needless]
    return problems, {"question_terms": len(wanted), "covered": round(share, 3), "needless_units": needless}


def retrieval(pool: Pool, question: str, units: list[str], pool_k: int) -> tuple[list[str], dict]:
    ranked = pool(question)[:pool_k]
    missing = [u for u in units if u not in ranked]
    ranks = {u: ranked.index(u) + 1 for u in units if u in ranked}
    problems = [f"retrieval: {u} not in the top {pool_k} for the question" for u in missing]
    return problems, {"pool_k": pool_k, "ranks": ranks, "missing": missing}


def verify_template(
    driver: Driver, database: str, graph: CorpusGraph, path: GraphPath, question: str, pool: Pool,
    pool_k: int = 100, min_coverage: float = 1.0,
) -> Verification:
    problems = structure(driver, database, graph.corpus, path)
    cover_problems, cover_details = coverage(graph, question, path.units, min_coverage)
    problems += cover_problems
    details = {"coverage": cover_details}
    if not problems:
        # Only a structurally sound, well-covered item is worth a retrieval run.
        found_problems, details["retrieval"] = retrieval(pool, question, path.units, pool_k)
        problems += found_problems
    return Verification(passed=not problems, method="retrieval+coverage", reasons=problems, details=details)
