"""The agent's tools. Each records every unit it returns in the run's evidence ledger before returning it."""
from __future__ import annotations

from collections import Counter

from pydantic_ai import RunContext

from core.answer.deps import MEANING, AnswerDeps, Evidence
from core.answer.prompt import arrange, role_for
from core.domain import CITATION_EDGE_TYPES, EdgeType, Step, StoreError
from core.retrieval.base import RetrievalRequest, RetrievedUnit
from core.stores.graph_reader import UNAVAILABLE
from core.stores.queries import UnitRecord

MAX_HOPS = 2
NODE_CAP = 20
GRAPH_DOWN = UNAVAILABLE  # one wording for every fallback (core.stores.graph_reader)
# A user's question describes a situation ("lost a laptop last week") and the fused search's BM25 share reads those
# words, so the provisions closest in meaning can rank far below k (GDPR user dev: Article 33(1) first by cosine,
# 33rd fused). The first MEANING_RANKS of the dense list found among the next MEANING_POOL hits are recorded as
# evidence (not seeds: the candidates stay the search's), where fitting to what was asked can reach them.
MEANING_POOL = 40
MEANING_RANKS = 3


def _unit_of(hit: RetrievedUnit) -> UnitRecord:
    return UnitRecord(id=hit.unit_id, label=hit.label, title=hit.title, text=hit.text,
                      document_id=hit.document_id, type=hit.type)


def _evidence_of(hit: RetrievedUnit, rank: int) -> Evidence:
    """A hit found by search is a seed; one only reached over the graph keeps the role of the edge that reached it."""
    graph_paths = [p for p in hit.provenance if p.kind == "graph" and p.path]
    if graph_paths and not any(p.kind in ("dense", "lexical") for p in hit.provenance):
        edge = graph_paths[0].path[-1]
        return Evidence(_unit_of(hit), role_for(edge, hit.unit_id), graph_paths[0].seed_id, edge, hit.score, rank)
    return Evidence(_unit_of(hit), "seed", None, None, hit.score, rank)


def _use_stored_text(deps: AnswerDeps, found: list[Evidence]) -> None:
    """Claims quote the unit as stored in the graph; a retriever may hand back its index text (label + text)."""
    if deps.graph is None or not found:
        return
    try:
        stored = deps.graph.fetch_units(e.unit.id for e in found)
    except StoreError as exc:  # the retriever's text is the best there is when the graph is down
        deps.graph_failed(exc, "reading the stored text of search hits")
        return
    for item in found:
        if item.unit.id in stored:
            item.unit = stored[item.unit.id]
    # The search index is loaded once per process; a re-ingest since then may have deleted some of its units.
    found[:] = [item for item in found if item.unit.id in stored]


def search_provisions(ctx: RunContext[AnswerDeps], query: str) -> str:
    """Search the corpus for provisions relevant to `query` (use the user's question or a focused rephrasing)."""
    return run_search(ctx.deps, query)


def run_search(deps: AnswerDeps, query: str) -> str:
    with deps.step(Step.SEARCH, f"searching provisions: {query[:80]}") as outcome:
        result = deps.retriever.retrieve(RetrievalRequest(question=query, corpus=deps.corpus,
                                                          k=deps.search_k + MEANING_POOL))
        for notice in result.degraded:
            deps.notice(notice)
        hits = result.hits[:deps.search_k]
        found = [_evidence_of(hit, rank) for rank, hit in enumerate(hits, start=1)]
        closest = [hit for hit in result.hits[deps.search_k:]
                   if any(p.kind == "dense" and p.rank is not None and p.rank <= MEANING_RANKS for p in hit.provenance)]
        held = found + [Evidence(_unit_of(hit), MEANING, score=hit.score) for hit in closest]
        _use_stored_text(deps, held)  # one read of the graph for both
        deps.ledger.record_all(held)
        found = [e for e in held if e.role != MEANING]
        # Edges the retriever walked are stored edges too: the answer may use them as its chain.
        deps.ledger.record_edges(e for hit in hits + closest for p in hit.provenance for e in p.path)
        outcome.append(f"{len(found)} hits")
    return arrange(found)


def _checked_edge_types(edge_types: list[str] | None) -> list[str]:
    allowed = {t.value for t in CITATION_EDGE_TYPES}
    wanted = [t.upper() for t in (edge_types or [])] or sorted(allowed)
    return [EdgeType(t).value for t in wanted if t in allowed]


def follow_citations(
    ctx: RunContext[AnswerDeps], unit_ids: list[str], edge_types: list[str] | None = None, hops: int = 1
) -> str:
    """Follow typed citation edges (REFERENCES, AMENDS, REPLACES, DEFINES, DELEGATES_TO, SPECIFIES; default all)
    from units already returned, up to `hops` (1–2) hops, both directions."""
    return run_follow(ctx.deps, unit_ids, edge_types, hops)


def run_follow(deps: AnswerDeps, unit_ids: list[str], edge_types: list[str] | None = None, hops: int = 1) -> str:
    known = [u for u in dict.fromkeys(unit_ids) if u in deps.ledger]
    if not known:
        return "None of these ids were returned by a tool; search first and use ids from the results."
    if deps.graph is None:
        deps.notice(GRAPH_DOWN)
        return "The citation graph is unavailable; answer from the search results."
    types = _checked_edge_types(edge_types)
    with deps.step(Step.EXPAND, f"following citations from {len(known)} units") as outcome:
        try:
            reached = deps.graph.expand(known, types, max(1, min(int(hops), MAX_HOPS)), NODE_CAP)
            units = deps.graph.fetch_units(r.unit_id for r in reached)
            # Edges among everything the run now holds, not only the given units: a search hit ranked 6th
            # may cite one ranked 2nd, and such a pair is what a cross-reference question asks for.
            held = list(dict.fromkeys([*deps.ledger.ids(), *units]))
            among = deps.graph.edges_among(held, types)
        except StoreError as exc:  # a graph failure mid-run degrades like a graph that is down
            deps.graph_failed(exc, "following citations")
            return "The citation graph is unavailable; answer from the search results."
        found: list[Evidence] = []
        for item in reached:
            unit = units.get(item.unit_id)
            if unit is None or not item.path:
                continue
            deps.ledger.record_edges(item.path)
            edge = item.path[-1]
            found.append(Evidence(unit, role_for(edge, unit.id), item.seed_id, edge))
        deps.ledger.record_all(found)
        deps.ledger.record_edges(among)
        counts = Counter(e.via.type for e in found if e.via is not None)
        outcome.append(f"{len(found)} units" + (f" via {', '.join(sorted(counts))}" if counts else ""))
    links = "".join(f"\n  edge: {e.source} —{e.type}→ {e.target}" for e in among)
    body = arrange(found) if found else "No citation edges to further units."
    return body + (f"\n\nEdges among the returned units:{links}" if links else "")


def read_unit(ctx: RunContext[AnswerDeps], unit_id: str) -> str:
    """Full text of a unit already returned by a tool, with its parent headings."""
    deps = ctx.deps
    evidence = deps.ledger.units.get(unit_id)
    if evidence is None:
        return f"{unit_id} was not returned by any tool; only returned units can be read."
    headings: list[UnitRecord] = []
    if deps.graph is not None:
        with deps.step(Step.READ, f"reading {evidence.unit.label or unit_id}"):
            try:
                headings = deps.graph.ancestors(unit_id)
            except StoreError as exc:
                deps.graph_failed(exc, "reading headings")
    deps.ledger.record_all(Evidence(heading, "heading", evidence.seed_id or unit_id) for heading in headings)
    trail = " › ".join(h.label or h.title or h.id for h in headings)
    return (f"Headings: {trail}\n" if trail else "") + arrange([evidence], text_limit=8000)


def current_version(ctx: RunContext[AnswerDeps], unit_id: str) -> str:
    """Whether a returned unit is still current law: in force or repealed (by what, when), its amendments in
    date order, and the amending provision that holds its newest text."""
    deps = ctx.deps
    if unit_id not in deps.ledger:
        return f"{unit_id} was not returned by any tool; search first."
    if deps.graph is None:
        deps.notice(GRAPH_DOWN)
        return "The citation graph is unavailable."
    with deps.step(Step.CURRENT_VERSION, f"current law of {unit_id}") as outcome:
        try:
            law = deps.graph.current_law(unit_id)
            units = deps.graph.fetch_units(e.source for e in law.chain) if law is not None else {}
        except StoreError as exc:
            deps.graph_failed(exc, "reading current law")
            return "The citation graph is unavailable."
        if law is None:
            return f"{unit_id} is not in the citation graph."
        found = [Evidence(units[e.source], role_for(e, e.source), unit_id, e) for e in law.chain if e.source in units]
        deps.ledger.record_all(found)
        if law.repealed:
            # Shown, never dropped: the answer must say the rule it quotes is no longer in force.
            deps.notice(" ".join(law.lines()[:1]))
        outcome.append(("repealed; " if law.repealed else "") + f"{len(law.events)} amendments, {len(found)} amending units")
    body = "\n".join(law.lines())
    return body + ("\n\nNewest text:\n" + arrange(found) if found else "")


TOOLS = (search_provisions, follow_citations, read_unit, current_version)
