"""The delegation closure: a strong hit brings the provisions that fill in its details, and the one it details.

A lower-tier article (Korean 시행령/시행규칙, Vietnamese Nghị định, an EU delegated act) rarely ranks on its own for an
everyday question: its partner does. A hit's whole article is looked up, and its partners are the articles reached
over DELEGATES_TO / SPECIFIES or a cross-tier citation (`delegates`), up to `closure_hops` hops. The best
`closure_partners` of each of the top `closure_seeds` hits rise by a share of their seed's score, never above it
(as a citation pair does, pairs.py). Nothing depends on how many hits the caller asks for.
"""
from __future__ import annotations

import numpy as np

from core.domain import Edge, EdgeType
from core.retrieval.articles import article_of, family
from core.retrieval.base import Provenance
from core.retrieval.expansion import neighbour_edges
from core.retrieval.method import ProvenanceMap, Ranked
from core.retrieval.query import Query

DELEGATION = [EdgeType.DELEGATES_TO, EdgeType.SPECIFIES]
CLOSURE_EDGES = [*DELEGATION, EdgeType.REFERENCES]


def delegates(query: Query, edge: Edge) -> bool:
    """A delegation edge, or a citation between two authority tiers: a 시행규칙 article that opens with "법 제39조제2항에
    따른 …" details that act paragraph whether or not the act's words delegated it (the delegation phrase is often in
    the decree, or the act names no tier), while a citation within one tier is an ordinary cross-reference."""
    if edge.type in DELEGATION:
        return True
    units = query.stores.units
    source, target = units.get(edge.source), units.get(edge.target)
    return source is not None and target is not None and source.tier != target.tier


def delegation_closure(query: Query, ranked: Ranked, provenance: ProvenanceMap, base: np.ndarray, seeds: int,
                       partners: int, hops: int, limit_per_unit: int, bonus: float) -> Ranked:
    if seeds <= 0 or partners <= 0 or hops <= 0 or not ranked:
        return ranked
    stores = query.stores
    # The first `seeds` hits of distinct articles; a unit reached belongs to the seed it was reached from.
    seed_of: dict[str, str] = {}
    chosen: list[str] = []
    chosen_articles: set[str] = set()
    for uid, _ in ranked:
        if len(chosen) >= seeds:
            break
        article = article_of(query, uid)
        if article in chosen_articles:
            continue
        chosen.append(uid)
        chosen_articles.add(article)
        for member in family(query, uid):
            seed_of.setdefault(member, uid)
    # seed → partner article → (hop it was first reached at, the edge that reached it)
    reached: dict[str, dict[str, tuple[int, Edge]]] = {seed: {} for seed in chosen}
    front = list(seed_of)
    for hop in range(1, hops + 1):  # one graph read per hop for all seeds
        nexts: list[str] = []
        for edge in neighbour_edges(query, front, CLOSURE_EDGES, limit_per_unit):
            known = edge.source if edge.source in seed_of else edge.target
            end = edge.target if known == edge.source else edge.source
            if end not in stores.index or not stores.allowed(end, query.request.filters) or not delegates(query, edge):
                continue
            seed, article = seed_of[known], article_of(query, end)
            if seed_of.get(end) == seed:
                continue  # within what this seed reached already
            # A unit another seed reached (or another seed itself) is still this seed's partner; it is walked once.
            for member in family(query, article):
                if member not in seed_of:
                    seed_of[member] = seed
                    nexts.append(member)
            if article != article_of(query, seed):
                reached[seed].setdefault(article, (hop, edge))
        front = nexts
        if not front:
            break
    scores = dict(ranked)
    lifted = dict(scores)
    for seed in chosen:
        # Each partner article by its best unit's own score, the nearer tier first: the article the hit itself
        # delegates to (or details) before what that one delegates on.
        scored = []
        for article, (hop, edge) in reached[seed].items():
            members = [m for m in family(query, article) if m in stores.index]
            best = max(members, key=lambda m: base[stores.index[m]])
            scored.append((hop, -float(base[stores.index[best]]), best, edge))
        scored.sort(key=lambda item: item[:2])
        for n, (hop, own, unit, edge) in enumerate(scored[:partners], start=1):
            # Like a citation pair (pairs.py): the partner rises by a share of its seed's score, never above it.
            raised = min(scores[seed] - n * 1e-6, -own + bonus * scores[seed])
            if raised > lifted.get(unit, -np.inf):
                lifted[unit] = raised
                provenance.setdefault(unit, []).append(Provenance(kind="graph", seed_id=seed, hops=hop, path=[edge]))
    return sorted(lifted.items(), key=lambda item: -item[1])
