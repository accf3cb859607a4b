"""Precision-first choice of what an extractive answer cites: few units, and their sentences that match the question."""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

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

    @classmethod
    def for_question(cls, question: str, ledger: EvidenceLedger) -> Scorer:
        terms = set(tokenize(question))
        docs = [set(tokenize(f"{e.unit.label} {e.unit.title} {e.unit.text}")) for e in ledger.units.values()]
        n = max(1, len(docs))
        df = Counter(t for doc in docs for t in doc if t in terms)
        return cls({t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms})

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

# Logistic weights of a pair (u cites v) being exactly the two passages a cross-reference question needs.
# Fitted on the first 200 ADGM XRefRAG dev questions, checked on the other 190 (see bench/answers.py):
# prior = 1/search rank (0 off the seed list), lex = BM25 / best BM25 in the corpus, dense = cosine to the
# question, rel = share of the question's idf weight a unit covers, union/gain = what the pair covers
# together / beyond its better end, uv = cosine between the two units (near-duplicates are not a pair),
# meancos = cosine of the question to the pair's mean vector, split = best match of the question's two
# clauses to the two ends.
PAIR_WEIGHTS = {
    "s_prior": 1.39, "t_prior": 1.63, "min_prior": 2.08,
    "s_lex": 1.95, "max_lex": 2.62, "min_lex": 1.12,
    "max_dense": -1.68, "min_dense": 1.01,
    "max_rel": -2.73, "min_rel": 1.17, "union": 1.78, "gain": 4.51,
    "uv": -2.2, "meancos": 0.8, "split": 1.33, "REF": 0.25,
}


def _terms(evidence: Evidence) -> set[str]:
    unit = evidence.unit
    return set(tokenize(f"{unit.label} {unit.title} {unit.text}"))


def pair_features(edge: PathEdge, ledger: EvidenceLedger, scorer: Scorer, terms: dict[str, set[str]],
                  prior: dict[str, float], signals: Signals | None) -> dict[str, float]:
    s, t = edge.source, edge.target
    rel = {u: scorer.score_terms(terms[u]) for u in (s, t)}
    lex = {u: signals.lexical_of(u) if signals else 0.0 for u in (s, t)}
    dense = {u: signals.dense_of(u) if signals else 0.0 for u in (s, t)}
    union = scorer.score_terms(terms[s] | terms[t])
    f = {
        "s_prior": prior.get(s, 0.0), "t_prior": prior.get(t, 0.0), "min_prior": min(prior.get(s, 0.0), prior.get(t, 0.0)),
        "s_lex": lex[s], "max_lex": max(lex.values()), "min_lex": min(lex.values()),
        "max_dense": max(dense.values()), "min_dense": min(dense.values()),
        "max_rel": max(rel.values()), "min_rel": min(rel.values()), "union": union, "gain": union - max(rel.values()),
        "uv": 0.0, "meancos": 0.0, "split": 0.0, "REF": 1.0 if edge.type == "REFERENCES" else 0.0,
    }
    vs, vt = (signals.vector_of(s), signals.vector_of(t)) if signals else (None, None)
    if vs is not None and vt is not None:
        mean = vs + vt
        f["uv"] = float(vs @ vt)
        f["meancos"] = float(signals.question_vector @ mean / max(float(np.linalg.norm(mean)), 1e-9))
        f["split"] = f["meancos"]
        clause_vectors = signals.clause_vectors
        if clause_vectors is not None:
            a, b = clause_vectors @ vs, clause_vectors @ vt
            f["split"] = max(float(a[i] + b[j]) for i in range(len(a)) for j in range(len(b)) if i != j) / 2
    return f


def pair_score(features: dict[str, float]) -> float:
    return sum(w * features[k] for k, w in PAIR_WEIGHTS.items())


def choose_units(ledger: EvidenceLedger, scorer: Scorer, signals: Signals | None = None) -> Selection:
    """The best pair of units joined by a written citation, or the top seed alone when no pair exists.

    Cross-reference questions need both ends of a citation. Every written-citation edge between two
    retrieved units is a candidate; it is scored by the fitted weights above (search rank, BM25, dense
    similarity, joint coverage of the question). Without corpus signals (no stores) the lexical and
    dense terms are 0 and rank plus overlap decide.
    """
    seeds = ledger.seeds()
    if not seeds:
        return Selection([])
    prior = {s.unit.id: 1.0 / (1 + i) for i, s in enumerate(seeds)}
    terms: dict[str, set[str]] = {}
    best: tuple[float, PathEdge] | None = None
    seen: set[frozenset[str]] = set()
    for edge in ledger.edges.values():
        ends = (edge.source, edge.target)
        key = frozenset(ends)
        if edge.type not in PAIR_EDGE_TYPES or len(key) < 2 or key in seen or not all(u in ledger.units for u in ends):
            continue
        seen.add(key)
        for u in ends:
            if u not in terms:
                terms[u] = _terms(ledger.units[u])
        score = pair_score(pair_features(edge, ledger, scorer, terms, prior, signals))
        if best is None or score > best[0]:
            best = (score, edge)
    rel = lambda u: scorer.score_terms(terms.get(u) or _terms(ledger.units[u]))  # noqa: E731
    if best is None:
        top = seeds[0].unit.id
        return Selection([Choice(seeds[0], rel(top))])
    edge = best[1]
    return Selection([Choice(ledger.units[u], rel(u)) for u in (edge.source, edge.target)], edge)


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
