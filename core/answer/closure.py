"""The cited rule's delegation closure: in Korean or Vietnamese law the act article says that a decree or rules
article fixes the detail, so an answer citing one of them cites the others the search found for the question too.

Partners are joined to a cited unit by a delegation edge or a citation across authority tiers
(core.retrieval.delegation.delegates), walked one tier at a time (act → decree → rules), at most CLOSURE_MORE added,
and the two directions are not alike:
- **down** (the cited rule leaves its detail to a lower tier): an act article delegates many details, the question
  asks for one, so the partner must be a search hit among the first CLOSURE_RANK, and the delegation must start from
  the cited unit's own lineage (its article, the paragraphs above it, the units under it), not from a sibling
  paragraph it does not cite (an act article's paragraphs often each leave a different detail to a different
  article). Where ingest marks which provisions delegate (UnitRecord.delegates), the unit the citation reaches (or
  one above it in its article) must be one: a rules article that names an act paragraph which leaves nothing to it
  ("… 같은 조 제3항에 따라 … 수혈받은 것이 확인된 경우는 제외한다") applies that paragraph, it holds no detail of it.
- **up** (the cited decree / rules article details an act provision): the provision it details is the rule it rests
  on, so it is cited when it is among the first UP_ARTICLES articles of the search, however many paragraphs of the
  lower-tier article rank above it, and only while the answer cites no article of that tier yet (a second act
  article reached from a rules article's other paragraphs is another rule). It is cited by the paragraph the lower
  unit names, or, when that names the whole article, by the article's paragraph that leaves a detail to the lower
  unit's tier (`_Pools.up_partner`).
Measured on ko_dev and ALQAC (bench/results/TRIED.md, issue 25).
"""
from __future__ import annotations

import re
from functools import cached_property

from core.analyzers import language_of
from core.answer.deps import AnswerDeps, Evidence
from core.answer.signals import Signals
from core.answer.terms import terms_of
from core.domain import Edge
from core.retrieval.articles import article_of, family, up_to_article
from core.retrieval.base import RetrievalRequest
from core.retrieval.delegation import CLOSURE_EDGES, delegates
from core.retrieval.expansion import neighbour_edges
from core.retrieval.query import Query
from core.stores.queries import UnitRecord

CLOSURE_RANK = 5
CLOSURE_MORE = 3
EDGES_PER_UNIT = 30
# The search's first articles an upward partner may come from: the depth the retrieval figures are read at
# (bench.retrieval, top 10 articles). 20 gave the same ko_dev answers.
UP_ARTICLES = 10
SEARCH_DEPTH = 60  # hits read for those articles (a long article's paragraphs take many)
# The words with which a Korean act paragraph leaves a detail to each lower tier: a decree (대통령령) or the ministry's
# rules (총리령, 보건복지부령, …). An act article often has one paragraph for each (의료법 제40조: ① "보건복지부령으로
# 정하는 바에 따라 … 신고", ⑤ "대통령령으로 정하는 조치"); a rules article that names only the article details the first.
LEAVES_TO = {2: re.compile(r"대통령령(?:으로|로)\s?정"), 3: re.compile(r"(?:총리령|[가-힣]{1,12}부령)(?:으로|로)\s?정")}


def lineage(query: Query, unit_id: str) -> list[str]:
    """The unit, the units above it up to its article, and every unit under it: where its own delegations start."""
    units, out, uid = query.stores.units, [unit_id], unit_id
    article = article_of(query, unit_id)
    while uid != article and uid in units:
        parent = units[uid].parent_id
        if parent is None or parent not in units:
            break
        uid = parent
        out.append(uid)
    todo = [unit_id]
    while todo:
        for child in query.stores.children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class _Pools:
    """Article → the unit that stands for it: the first hits for a downward partner, the search's first articles
    for an upward one (searched deeper only when an upward edge is met: one tier, as in a Vietnamese law, never
    does), and the search's order (the partner the question is most about first)."""

    def __init__(self, deps: AnswerDeps, query: Query) -> None:
        self.deps, self.query = deps, query
        self.hits = [e.unit.id for e in deps.ledger.seeds()[:CLOSURE_RANK] if e.unit.id in query.stores.index]
        self.down: dict[str, str] = {}
        for hit in self.hits:
            self.down.setdefault(article_of(query, hit), hit)

    @cached_property
    def found(self) -> list[str]:
        request = RetrievalRequest(question=self.deps.question, corpus=self.deps.corpus, k=SEARCH_DEPTH)
        return [h.unit_id for h in self.deps.retriever.retrieve(request).hits]

    @cached_property
    def up(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for hit in self.found:
            if len(out) >= UP_ARTICLES:
                break
            out.setdefault(article_of(self.query, hit), hit)
        return out

    def up_partner(self, article: str, named: str, tier: int, lower: str) -> str | None:
        """The unit an upward partner article is cited by: the paragraph the lower-tier unit names when it names one;
        when it names the whole article, of the article's hits that leave a detail to the lower unit's tier
        (LEAVES_TO), the one sharing most words with the lower unit (the paragraph it details: "법 제40조에 따라 …
        폐업하거나 휴업하려면 … 신고서 … 시장ㆍ군수ㆍ구청장에게" details ① "폐업하거나 … 휴업하려면 … 시장ㆍ군수ㆍ구청장에게
        신고", not ④ on the patients of a closing clinic), the first of them on a tie; else its first hit."""
        first = self.up.get(article)
        if first is None:
            return None
        if named != article:
            return named
        leaves = LEAVES_TO.get(tier)
        units = self.query.stores.units
        found = [h for h in self.found if h in units and article_of(self.query, h) == article
                 and leaves is not None and leaves.search(units[h].text or "")]
        if not found:
            return first
        words = set(terms_of(units[lower].text or "")) if lower in units else set()
        return max(found, key=lambda h: (len(words & set(terms_of(units[h].text or ""))), -found.index(h)))

    def position(self, unit_id: str) -> int:
        """Rank in the search: the first hits are the deeper search's first ones (the same ranking), so ordering
        downward partners never needs the deeper search."""
        order: list[str] = self.__dict__.get("found", self.hits)
        return order.index(unit_id) if unit_id in order else len(order)


def _partner(query: Query, pools: _Pools, edge: Edge, inside: set[str], near: set[str], held: set[str]) -> str | None:
    """The unit standing for the article this edge reaches from the walked units, when it is a partner."""
    units = query.stores.units
    start, end = (edge.source, edge.target) if edge.source in inside else (edge.target, edge.source)
    article = article_of(query, end)
    if article in held or start not in units or end not in units or not delegates(query, edge):
        return None
    if units[end].tier < units[start].tier:
        if any(units[a].tier == units[end].tier for a in held if a in units):
            return None
        return pools.up_partner(article, end, units[start].tier, start)
    if start not in near or not _leaves_detail(query, start):
        return None
    return pools.down.get(article)


def _leaves_detail(query: Query, unit_id: str) -> bool:
    """Whether the unit, or one above it in its article (the lead-in of a list it is an item of), leaves a detail to
    a lower tier; always so in a corpus whose ingest marks no provision that way."""
    if not query.stores.marks_delegation:
        return True
    path, found = up_to_article(query.stores.units, unit_id)
    return any(u.delegates for u in (path if found else path[:1]))


def _recorded(deps: AnswerDeps, query: Query, unit_id: str) -> None:
    """A partner found deeper in the search than the hits the run kept is recorded as the search hit it is."""
    if unit_id in deps.ledger:
        return
    info = query.stores.units[unit_id]
    deps.ledger.record(Evidence(UnitRecord(id=unit_id, label=info.label, title=info.title, text=info.text,
                                           document_id=info.document_id, type=info.type), "seed"))


def with_closure(deps: AnswerDeps, signals: Signals | None, cited: list[str]) -> list[str]:
    """`cited`, then the search hits that complete its delegation closure (none for a language without it)."""
    if signals is None or not cited:
        return cited
    stores = signals.stores
    if language_of(stores.lexical.analyzer.name) not in stores.config.closure_languages:
        return cited
    query = Query(stores, RetrievalRequest(question=deps.question, corpus=deps.corpus, k=len(cited)))
    pools = _Pools(deps, query)
    out = list(cited)
    held = {article_of(query, u) for u in out}
    front = list(dict.fromkeys(m for u in cited for m in family(query, u)))
    near = {m for u in cited for m in lineage(query, u)}
    while front and len(out) < len(cited) + CLOSURE_MORE:
        inside = set(front)
        added: list[tuple[str, str]] = []  # (partner, the unit the edge names)
        for edge in neighbour_edges(query, front, CLOSURE_EDGES, EDGES_PER_UNIT):
            partner = _partner(query, pools, edge, inside, near, held)
            if partner is not None:
                held.add(article_of(query, partner))
                added.append((partner, edge.target if edge.source in inside else edge.source))
        added.sort(key=lambda pair: pools.position(pair[0]))
        added = added[: len(cited) + CLOSURE_MORE - len(out)]
        for partner, _ in added:
            _recorded(deps, query, partner)
        out += [partner for partner, _ in added]
        front = list(dict.fromkeys(m for partner, _ in added for m in family(query, partner)))
        near = {m for _, named in added for m in lineage(query, named)}
    return out
