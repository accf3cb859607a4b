"""The delegation closure: a strong hit brings the provisions that fill in its details, and the one it details.

A Korean act article says "대통령령으로 정한다" and the 시행령 article that SPECIFIES it holds the figure, which a
시행규칙 article may detail further; a Vietnamese Luật says "Chính phủ quy định chi tiết …" and the Nghị định holds it;
an EU act delegates to a delegated act. A question asks in everyday words, so the lower-tier article rarely ranks
on its own: its partner does. Delegation edges are stored at the level the citation names (an act paragraph, a
decree article), so a hit's whole article is looked up (the article, its paragraphs and points); the partners
reached over DELEGATES_TO / SPECIFIES, up to `closure_hops` hops (act → decree → rules), are ranked by their own
first-stage score and the best `closure_partners` of each of the top `closure_seeds` hits are placed right under
it. A partner already in the top k stays where it is.
"""
from __future__ import annotations

import numpy as np

from core.domain import Edge, EdgeType
from core.retrieval.base import Provenance
from core.retrieval.expansion import neighbour_edges
from core.retrieval.method import ProvenanceMap, Ranked
from core.retrieval.query import Query

DELEGATION = [EdgeType.DELEGATES_TO, EdgeType.SPECIFIES]
ARTICLE_TYPES = frozenset({"article", "section", "rule"})


def article_of(query: Query, unit_id: str) -> str:
    """The article a unit belongs to (itself when it is one, or when none is above it)."""
    units, uid = query.stores.units, unit_id
    while uid in units and units[uid].type not in ARTICLE_TYPES:
        parent = units[uid].parent_id
        if parent is None or parent not in units:
            break
        uid = parent
    return uid if uid in units and units[uid].type in ARTICLE_TYPES else unit_id


def family(query: Query, unit_id: str) -> list[str]:
    """A unit's article and every unit under it: where that article's delegation edges may start."""
    article = article_of(query, unit_id)
    out, todo = [article], [article]
    children = query.stores.children
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def delegation_closure(query: Query, ranked: Ranked, provenance: ProvenanceMap, base: np.ndarray, seeds: int,
                       partners: int, hops: int, limit_per_unit: int) -> Ranked:
    if seeds <= 0 or partners <= 0 or hops <= 0 or not ranked:
        return ranked
    k = query.request.k
    top_articles = {article_of(query, uid) for uid, _ in ranked[:k]}
    stores = query.stores
    # The first `seeds` hits of distinct articles; a unit reached belongs to the seed it was reached from.
    seed_of: dict[str, str] = {}
    chosen: list[str] = []
    for uid, _ in ranked:
        if len(chosen) >= seeds:
            break
        if article_of(query, uid) in {article_of(query, c) for c in chosen}:
            continue
        chosen.append(uid)
        for member in family(query, uid):
            seed_of.setdefault(member, uid)
    reached: dict[str, dict[str, Edge]] = {seed: {} for seed in chosen}
    front = list(seed_of)
    for _ in range(hops):  # one graph read per hop for all seeds
        nexts: list[str] = []
        for edge in neighbour_edges(query, front, DELEGATION, limit_per_unit):
            known = edge.source if edge.source in seed_of else edge.target
            end = edge.target if known == edge.source else edge.source
            if end not in stores.index or not stores.allowed(end, query.request.filters):
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
                reached[seed].setdefault(article, edge)
        front = nexts
        if not front:
            break
    picked: dict[str, list[str]] = {}
    for seed in chosen:
        # Each partner article by its best unit's own score: the one the question is about comes first.
        scored = []
        for article, edge in reached[seed].items():
            if article in top_articles:
                continue
            members = [m for m in family(query, article) if m in stores.index]
            best = max(members, key=lambda m: base[stores.index[m]])
            scored.append((float(base[stores.index[best]]), best, edge))
        scored.sort(key=lambda item: -item[0])
        picked[seed] = []
        for _, unit, edge in scored[:partners]:
            picked[seed].append(unit)
            top_articles.add(article_of(query, unit))
            provenance.setdefault(unit, []).append(Provenance(kind="graph", seed_id=seed, hops=1, path=[edge]))
    out: Ranked = []
    placed: set[str] = set()
    for uid, score in ranked:
        if uid in placed:
            continue
        out.append((uid, score))
        placed.add(uid)
        for n, partner in enumerate(picked.get(uid, []), start=1):
            if partner not in placed:
                out.append((partner, score - n * 1e-6))
                placed.add(partner)
    return out
