"""Precision-first choice of what an extractive answer cites: few units, and their sentences that match the question."""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.signals import Signals
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
    question: str = ""  # kept for the pair features, which read its phrases

    @classmethod
    def for_question(cls, question: str, ledger: EvidenceLedger) -> Scorer:
        terms = set(tokenize(question))
        docs = [set(unit_tokens(e)) for e in ledger.units.values()]
        n = max(1, len(docs))
        df = Counter(t for doc in docs for t in doc if t in terms)
        return cls({t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}, question)

    def score(self, text: str) -> float:
        """Share of the question's weight the text covers (0–1)."""
        return self.score_terms(set(tokenize(text)))

    def score_terms(self, present: set[str]) -> float:
        total = sum(self.weights.values())
        if not total:
            return 0.0
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

# Conditional-logit weights of a pair (u cites v) being exactly the two passages a cross-reference question
# needs; the candidate with the highest weighted sum is cited. Features (all scale-free, none uses search rank,
# so a change in retrieval ranking does not shift them):
#   phrase  = share of the question's adjacent content-word pairs (stemmed bigrams) found adjacent in u or v:
#             generated questions reuse the passages' phrases ("Capital Conservation Buffer"), which single
#             words shared by many neighbouring rules do not pin down;
#   split   = best match (cosine) of the question's two clauses to the two ends, one clause each (the cosine
#             of the question to the pair's mean vector when the question has one clause);
#   s_lex   = BM25 of the citing unit / best BM25 in the corpus (the question is mostly written from it);
#   max_lex = BM25 of the better end / best BM25 in the corpus.
# Fitted with `python -m bench.pair_fit --questions ../shared/bench/xrefrag_fsra_dev.jsonl` (softmax over each
# question's candidates, L2 1.0 on standardised features, Newton steps) on all 390 ADGM XRefRAG dev
# questions. Fitted on the first 200 and checked on the other 190: P=R 0.763; the other way round: 0.783 (the
# 16-feature rank-and-overlap scorer this replaced: 0.70 on the dev set). Rank features (1/search rank)
# were tried and lowered the held-out score.
PAIR_WEIGHTS = {"phrase": 17.01, "split": 18.93, "s_lex": 1.39, "max_lex": 5.53}


@lru_cache(maxsize=4096)
def _text_tokens(label: str, title: str, text: str) -> tuple[str, ...]:
    return tuple(tokenize(f"{label} {title} {text}"))


def unit_tokens(evidence: Evidence) -> tuple[str, ...]:
    """A unit's tokens, stemmed once: the idf scorer, the word sets and the bigrams of every answer read them."""
    unit = evidence.unit
    return _text_tokens(unit.label, unit.title, unit.text)


def _terms(evidence: Evidence) -> set[str]:
    return set(unit_tokens(evidence))


def bigrams(tokens: Sequence[str]) -> set[tuple[str, str]]:
    """Adjacent pairs of content words (tokenize drops stop words, so "notify the Regulator" → (notifi, regul))."""
    return set(zip(tokens, tokens[1:]))


def _bigrams(evidence: Evidence) -> set[tuple[str, str]]:
    return bigrams(unit_tokens(evidence))


def phrase_coverage(question: set[tuple[str, str]], source: set[tuple[str, str]], target: set[tuple[str, str]]) -> float:
    """Share of the question's bigrams that the pair's texts contain between them (0–1)."""
    return len(question & (source | target)) / len(question) if question else 0.0


def clause_split(signals: Signals, source: str, target: str) -> float:
    """Mean cosine of one question clause to the source and another to the target, best assignment."""
    vs, vt = signals.vector_of(source), signals.vector_of(target)
    if vs is None or vt is None:
        return 0.0
    clause_vectors = signals.clause_vectors
    if clause_vectors is None:
        mean = vs + vt
        return float(signals.question_vector @ mean / max(float(np.linalg.norm(mean)), 1e-9))
    a, b = clause_vectors @ vs, clause_vectors @ vt
    return max(float(a[i] + b[j]) for i in range(len(a)) for j in range(len(b)) if i != j) / 2


def pair_features(edge: PathEdge, question: set[tuple[str, str]], grams: dict[str, set[tuple[str, str]]],
                  signals: Signals | None) -> dict[str, float]:
    s, t = edge.source, edge.target
    lex = (signals.lexical_of(s), signals.lexical_of(t)) if signals else (0.0, 0.0)
    return {
        "phrase": phrase_coverage(question, grams[s], grams[t]),
        "split": clause_split(signals, s, t) if signals else 0.0,
        "s_lex": lex[0], "max_lex": max(lex),
    }


def pair_score(features: dict[str, float]) -> float:
    return sum(w * features[k] for k, w in PAIR_WEIGHTS.items())


def candidate_pairs(ledger: EvidenceLedger) -> list[PathEdge]:
    """Written-citation edges joining two distinct units of the ledger, one per unordered pair."""
    seen: set[frozenset[str]] = set()
    out: list[PathEdge] = []
    for edge in ledger.edges.values():
        key = frozenset((edge.source, edge.target))
        if edge.type not in PAIR_EDGE_TYPES or len(key) < 2 or key in seen or not all(u in ledger.units for u in key):
            continue
        seen.add(key)
        out.append(edge)
    return out


def scored_pairs(ledger: EvidenceLedger, question: str, signals: Signals | None) -> list[tuple[PathEdge, dict[str, float]]]:
    """Every candidate pair with its features (bench.pair_fit fits PAIR_WEIGHTS on exactly these)."""
    wanted = bigrams(tokenize(question))
    grams: dict[str, set[tuple[str, str]]] = {}
    out = []
    for edge in candidate_pairs(ledger):
        for u in (edge.source, edge.target):
            if u not in grams:
                grams[u] = _bigrams(ledger.units[u])
        out.append((edge, pair_features(edge, wanted, grams, signals)))
    return out


def choose_units(ledger: EvidenceLedger, scorer: Scorer, signals: Signals | None = None) -> Selection:
    """The best pair of units joined by a written citation, or the top seed alone when no pair exists.

    Cross-reference questions need both ends of a citation. Every written-citation edge between two
    retrieved units is a candidate, scored by the fitted weights above. Ties (common only without corpus
    signals, when phrase coverage alone is left) go to the pair covering more of the question's words,
    then to the pair whose worse end is the better-ranked seed.
    """
    seeds = ledger.seeds()
    if not seeds:
        return Selection([])
    rank = {s.unit.id: i for i, s in enumerate(seeds)}
    terms: dict[str, set[str]] = {}

    def words(u: str) -> set[str]:
        if u not in terms:
            terms[u] = _terms(ledger.units[u])
        return terms[u]

    best: tuple[tuple[float, float, int], PathEdge] | None = None
    for edge, features in scored_pairs(ledger, scorer.question, signals):
        s, t = edge.source, edge.target
        key = (pair_score(features), scorer.score_terms(words(s) | words(t)),
               -max(rank.get(s, len(seeds)), rank.get(t, len(seeds))))
        if best is None or key > best[0]:
            best = (key, edge)
    if best is None:
        return Selection([Choice(seeds[0], scorer.score_terms(words(seeds[0].unit.id)))])
    edge = best[1]
    return Selection([Choice(ledger.units[u], scorer.score_terms(words(u))) for u in (edge.source, edge.target)], edge)


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
