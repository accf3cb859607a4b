"""Precision-first choice of what an extractive answer cites: few units, and their sentences that match the question."""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.models import Claim
from core.lexical import tokenize
from core.retrieval.base import PathEdge

# A sentence ends at . ; or : followed by space and an upper-case letter, an opening bracket or a digit, or at a line break.
_SENTENCE = re.compile(r"[^\n]+?(?:[.;:](?=\s+[A-Z(0-9\"“])|[.;:]?(?=\n)|$)", re.S)
_MARK = re.compile(r"^\s*(\((?:[a-z]{1,4}|[0-9]{1,3}|[ivx]{1,6})\))")
MIN_SENTENCE_CHARS = 25


@dataclass
class Scorer:
    """Question-term overlap weighted by how rare each term is among the run's evidence (BM25-style idf)."""

    weights: dict[str, float]

    @classmethod
    def for_question(cls, question: str, ledger: EvidenceLedger) -> Scorer:
        terms = set(tokenize(question))
        docs = [set(tokenize(f"{e.unit.label} {e.unit.title} {e.unit.text}")) for e in ledger.units.values()]
        n = max(1, len(docs))
        df = Counter(t for doc in docs for t in doc if t in terms)
        return cls({t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms})

    def score(self, text: str) -> float:
        """Share of the question's weight the text covers (0–1)."""
        total = sum(self.weights.values())
        if not total:
            return 0.0
        present = set(tokenize(text))
        return sum(w for t, w in self.weights.items() if t in present) / total


@dataclass
class Choice:
    evidence: Evidence
    relevance: float


@dataclass
class Selection:
    choices: list[Choice]
    edge: PathEdge | None = None


# Written citations only: defined-term uses (DEFINES) and containment join far too many units to pick a pair by.
PAIR_EDGE_TYPES = frozenset({"REFERENCES", "DELEGATES_TO", "SPECIFIES", "AMENDS", "REPLACES"})
RANK_WEIGHT = 0.5
# A pair must touch one of the top seeds: on ADGM this costs nothing, and it keeps a lexically busy
# but poorly ranked pair from displacing what the search put first.
PAIR_SEEDS = 2


def choose_units(ledger: EvidenceLedger, scorer: Scorer) -> Selection:
    """The best pair of units joined by a written citation, or the top seed alone when no pair exists.

    Cross-reference questions need both ends of a citation. A pair is scored by the search rank of its
    ends (seeds only) plus how much of the question each end covers; weights were fitted on the ADGM
    XRefRAG dev questions (bench/answers.py), where this beat single-unit and union-coverage variants.
    """
    seeds = ledger.seeds()
    if not seeds:
        return Selection([])
    rel = {uid: scorer.score(f"{e.unit.label} {e.unit.title} {e.unit.text}") for uid, e in ledger.units.items()}
    prior = {s.unit.id: 1.0 / (1 + i) for i, s in enumerate(seeds)}
    top = {s.unit.id for s in seeds[:PAIR_SEEDS]}
    best: tuple[float, PathEdge] | None = None
    for edge in ledger.edges.values():
        ends = (edge.source, edge.target)
        if edge.type not in PAIR_EDGE_TYPES or not all(u in ledger.units for u in ends) or not any(u in top for u in ends):
            continue
        score = sum(RANK_WEIGHT * prior.get(u, 0.0) + rel[u] for u in ends)
        if best is None or score > best[0]:
            best = (score, edge)
    if best is None:
        top = seeds[0].unit.id
        return Selection([Choice(seeds[0], rel[top])])
    edge = best[1]
    return Selection([Choice(ledger.units[u], rel[u]) for u in (edge.source, edge.target)], edge)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(text):
        start, end = match.start(), match.end()
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
    return spans


def choose_claims(text: str, scorer: Scorer, *, limit: int = 2) -> list[Claim]:
    """Verbatim sentences of the unit, best match first; the first sentence when none matches."""
    spans = [s for s in sentence_spans(text) if s[1] - s[0] >= MIN_SENTENCE_CHARS] or sentence_spans(text)
    if not spans:
        return []
    ranked = sorted(spans, key=lambda s: (-scorer.score(text[s[0]:s[1]]), s[0]))
    picked = [s for s in ranked[:limit] if scorer.score(text[s[0]:s[1]]) > 0] or ranked[:1]
    claims: list[Claim] = []
    for start, end in sorted(picked):
        sentence = text[start:end]
        mark = _MARK.match(sentence)
        claims.append(Claim(text=sentence, span=(start, end), paragraph=mark.group(1) if mark else None))
    return claims
