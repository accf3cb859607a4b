"""The cited rule's delegation closure: in Korean or Vietnamese law the act article says that a decree or rules
article fixes the detail, so an answer citing one of them cites the others the search found for the question too.

A partner is a search hit among the first CLOSURE_RANK whose article is joined to a cited article by a delegation
edge or a citation across authority tiers (core.retrieval.delegation.delegates), walked from the cited articles one
tier at a time (act → decree → rules), at most CLOSURE_MORE added. Search hits only: the retriever already ranked the
closure members by the question (the partners it lifted sit right under their act article), so a member the
question does not touch stays out. Measured on ko_dev and ALQAC (bench/results/README.md, issue 25).
"""
from __future__ import annotations

from core.analyzers import language_of
from core.answer.deps import AnswerDeps
from core.answer.signals import Signals
from core.retrieval.articles import article_of, family
from core.retrieval.base import RetrievalRequest
from core.retrieval.delegation import CLOSURE_EDGES, delegates
from core.retrieval.expansion import neighbour_edges
from core.retrieval.query import Query

CLOSURE_RANK = 5
CLOSURE_MORE = 3
EDGES_PER_UNIT = 30


def with_closure(deps: AnswerDeps, signals: Signals | None, cited: list[str]) -> list[str]:
    """`cited`, then the search hits that complete its delegation closure (none for a language without it)."""
    if signals is None or not cited:
        return cited
    stores = signals.stores
    if language_of(stores.lexical.analyzer.name) not in stores.config.closure_languages:
        return cited
    query = Query(stores, RetrievalRequest(question=deps.question, corpus=deps.corpus, k=len(cited)))
    hits = [e.unit.id for e in deps.ledger.seeds()[:CLOSURE_RANK] if e.unit.id in stores.index]
    by_article: dict[str, str] = {}
    for hit in hits:
        by_article.setdefault(article_of(query, hit), hit)
    out = list(cited)
    held = {article_of(query, u) for u in out}
    front = [m for u in cited for m in family(query, u)]
    while front and len(out) < len(cited) + CLOSURE_MORE:
        owner = {m: article_of(query, m) for m in front}
        added: list[str] = []
        for edge in neighbour_edges(query, front, CLOSURE_EDGES, EDGES_PER_UNIT):
            end = edge.target if edge.source in owner else edge.source
            article = article_of(query, end)
            if article in held or article not in by_article or not delegates(query, edge):
                continue
            held.add(article)
            added.append(by_article[article])
        added.sort(key=hits.index)  # the search's order: the partner the question is most about first
        added = added[: len(cited) + CLOSURE_MORE - len(out)]
        out += added
        front = [m for u in added for m in family(query, u)]
    return out
