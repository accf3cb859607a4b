"""Precision-first choice of what an extractive answer cites: the one or two provisions that answer the question.

Each candidate (one hit, two hits, or a hit and a provision it cites or is cited by) is scored by a linear model
over scale-free features; a cheap score shortlists, then the shortlist is read in context by the embedding model.
A second provision is cited only when it adds enough of the question to outweigh its cost in precision.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import numpy as np

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.informative import corpus_weights
from core.answer.signals import Signals, clauses
from core.answer.soft_match import SoftMatch
from core.answer.terms import terms_of
from core.domain import Edge
from core.lexical import LexicalIndex, idf, unit_search_text


@dataclass
class Scorer:
    """Question-term overlap weighted by how much each term says: among the run's evidence and in the corpus."""

    weights: dict[str, float]
    question: str = ""

    @classmethod
    def for_question(cls, question: str, ledger: EvidenceLedger, corpus: LexicalIndex | None = None) -> Scorer:
        """Each term's idf among the run's evidence (what tells the hits apart), times its idf over the whole
        corpus when its index is given (core.answer.informative: what the term says in this corpus). Among seven
        hits "last" of "last week" is as rare as the question's topic when one hit is a "Patient Last Name" rule;
        over the corpus it is an everyday word. Measured over the dev sets against the evidence's idf alone
        (bench/results/TRIED.md, issue 49): hipaa_generated +3 questions, xrefrag150 +3, gdpr_user +1, obliqa150,
        ko_user, vi_user, alqac -1 each, ko_dev 0; the corpus's idf alone lost vi_user 3."""
        # Sorted, so the weights (and every sum over them) do not depend on the process's string-hash seed.
        terms = sorted(set(terms_of(question)))
        docs = [held_terms(terms, e) for e in ledger.units.values()]
        n = max(1, len(docs))
        df = Counter(t for doc in docs for t in doc)  # each doc holds question terms only
        run = {t: idf(n, df[t]) for t in terms}
        if corpus is None:
            return cls(run, question)
        wide = corpus_weights(corpus, terms)
        return cls({t: run[t] * wide[t] for t in terms}, question)

    def score(self, text: str) -> float:
        """Share of the question's weight the text covers (0–1)."""
        return self.score_terms(set(terms_of(text)))

    def held_by(self, evidence: Evidence) -> set[str]:
        """The question's terms a unit holds: all that `score_terms` reads of it."""
        return held_terms(self.weights, evidence)

    def score_terms(self, present: set[str]) -> float:
        # fsum is exact, so two texts covering terms of equal weight tie exactly and the tie-break decides,
        # not the order in which floats happened to be added.
        total = math.fsum(self.weights.values())
        if not total:
            return 0.0
        return math.fsum(w for t, w in self.weights.items() if t in present) / total


@dataclass
class Choice:
    evidence: Evidence
    relevance: float


@dataclass
class Selection:
    choices: list[Choice]
    edge: Edge | None = None
    score: float = 0.0
    runner_up: float | None = None  # best score of a different candidate: a small margin means "unsure"
    # The other candidate sets with their scores, best first: what the answer would cite if the choice gave way.
    alternatives: list[tuple[float, tuple[str, ...]]] = field(default_factory=list)


# Written citations only: defined-term uses (DEFINES) and containment join far too many units.
PAIR_EDGE_TYPES = frozenset({"REFERENCES", "DELEGATES_TO", "SPECIFIES", "AMENDS", "REPLACES"})
# Search hits that may form a candidate on their own or with another hit (the rest only through a citation).
SEED_POOL = 5
SEED_PAIR_POOL = 5  # two hits not joined by a citation are a candidate among the first this many

# Weights of the candidate-set score. Features, all in 0–1 and none specific to one corpus:
#   cover    = idf-weighted share of the question's terms found in the set's texts;
#   phrase   = share of the question's adjacent content-word pairs found adjacent in one of the texts;
#   dense    = cosine of the question to the set (a pair: one question clause to each end, best assignment,
#              or the mean vector for a one-clause question);
#   lex_max / lex_min = BM25 of the best / weakest member over the best BM25 in the corpus;
#   lex_citing = BM25 of the citing end of a linked pair (a question is mostly written from the citing rule);
#   rank_max / rank_min = 1 / search rank of the best / weakest member (0 when not found by search);
#   gain     = what the weakest member adds: cover of the set minus cover of the other member alone;
#   second   = 1 for a two-unit set (its cost); linked = 1 when the two are joined by a written citation;
#   second_2q / linked_2q = the same, for a question that asks two things (signals.clauses): such a question
#              usually needs two provisions, often one citing the other.
# First stage (the shortlist's order): fitted with `bench.select_fit --l2 0.3` over all candidates on all dev sets
# together, each weighted equally (bench/results/TRIED.md).
SET_WEIGHTS = {"cover": 1.254, "phrase": 2.812, "dense": 1.179, "lex_max": 0.675, "lex_min": 1.856, "lex_citing": 0.778,
               "rank_max": 0.142, "rank_min": 1.704, "gain": 8.42, "second": -1.243, "linked": 1.6,
               "second_2q": 0.613, "linked_2q": 1.052}
FEATURES = tuple(SET_WEIGHTS)
# Second stage: the best READ_POOL candidates by SET_WEIGHTS are re-scored with their texts read in context by the
# embedding model (core.answer.soft_match), which costs a model pass per unit, so it reads only these. Features:
# the 13 above, and
#   soft_cover = in-context match of the question's content to the set (each piece's best match in any member);
#   soft_min   = the weaker member's own in-context match (the member alone for one unit);
#   soft_gain  = what the weaker member adds: soft_cover minus the better member's own;
#   soft_split = for a question that asks two things, how well each member answers a different clause.
SOFT_FEATURES = ("soft_cover", "soft_min", "soft_gain", "soft_split")
READ_POOL = 5
# Fitted with `python -m bench.select_fit --l2 0.1` on all dev sets together over this shortlist (each set weighted
# equally), see bench/results/TRIED.md. SET_WEIGHTS only shortlists; these decide.
READ_WEIGHTS = {"cover": 1.417, "phrase": 4.098, "dense": -0.791, "lex_max": 0.469, "lex_min": 0.511,
                "lex_citing": 1.192, "rank_max": -0.511, "rank_min": 1.648, "gain": 2.563, "second": -1.284,
                "linked": 1.696, "second_2q": 1.065, "linked_2q": 0.17, "soft_cover": 5.797, "soft_min": 1.989,
                "soft_gain": 2.969, "soft_split": 3.889}
READ_FEATURES = tuple(READ_WEIGHTS)
# Below this margin over the runner-up the choice is reported as unsure in the caveats.
UNSURE_MARGIN = 0.25
# A first-stage lead this large over the next is cited without reading the shortlist in context (the second stage
# overturned leads up to 1.86, bench/results/TRIED.md; that reading was most of an answer's time). Reading stored
# vectors only (e5) costs nothing and is always done.
CLEAR_MARGIN = 2.25


@lru_cache(maxsize=8192)
def _text_tokens(text: str) -> tuple[str, ...]:
    return tuple(terms_of(text))


def on_fitted_scale(cosine: float, stretch: float) -> float:
    """A cosine read on the scale the weights were fitted on: its distance from a perfect match times the model's
    stretch (Signals.stretch); untouched for the model they were fitted on."""
    return cosine if stretch == 1.0 else 1.0 - (1.0 - cosine) * stretch


def unit_text(evidence: Evidence) -> str:
    """What a unit is matched by: its label and title with its text, as the lexical index reads it."""
    unit = evidence.unit
    return unit_search_text(unit.label, unit.title, unit.text)


def unit_tokens(evidence: Evidence) -> tuple[str, ...]:
    """A unit's terms, computed once: the idf scorer, the word sets and the bigrams of every answer read them."""
    return _text_tokens(unit_text(evidence))


def held_terms(terms: Iterable[str], evidence: Evidence) -> set[str]:
    """Which of `terms` a unit's text holds, without a set of all the unit's terms (a unit has thousands)."""
    return set(terms).intersection(unit_tokens(evidence))


def bigrams(tokens: Sequence[str]) -> set[tuple[str, str]]:
    """Adjacent pairs of content words (stop words are dropped, so "notify the Regulator" → (notifi, regul))."""
    return set(zip(tokens, tokens[1:]))


_TERM_SEP = "\x1f"  # no analyzer's term holds it, so a joined pair matches only two adjacent whole terms


@lru_cache(maxsize=8192)
def _joined_tokens(text: str) -> str:
    return _TERM_SEP + _TERM_SEP.join(_text_tokens(text)) + _TERM_SEP


def grams_present(question: set[tuple[str, str]], evidence: Evidence) -> set[tuple[str, str]]:
    """The question's bigrams that a unit's terms hold, as `bigrams` of the unit would intersect them: a
    question has a handful, a unit thousands, so each is a substring test instead of building the unit's pairs."""
    joined = _joined_tokens(unit_text(evidence))
    return {g for g in question if f"{_TERM_SEP}{g[0]}{_TERM_SEP}{g[1]}{_TERM_SEP}" in joined}


def phrase_coverage(question: set[tuple[str, str]], *texts: set[tuple[str, str]]) -> float:
    """Share of the question's bigrams that the texts contain between them (0–1)."""
    if not question:
        return 0.0
    found: set[tuple[str, str]] = set()
    for grams in texts:
        found |= question & grams
    return len(found) / len(question)


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


@dataclass
class Candidate:
    units: tuple[str, ...]
    features: dict[str, float]
    edge: Edge | None = None


@dataclass
class _Context:
    ledger: EvidenceLedger
    scorer: Scorer
    signals: Signals | None
    question_grams: set[tuple[str, str]]
    rank: dict[str, int]
    two_part: bool = False
    _words: dict[str, set[str]] = field(default_factory=dict)
    _grams: dict[str, set[tuple[str, str]]] = field(default_factory=dict)

    def words(self, u: str) -> set[str]:
        if u not in self._words:
            self._words[u] = self.scorer.held_by(self.ledger.units[u])
        return self._words[u]

    def grams(self, u: str) -> set[tuple[str, str]]:
        if u not in self._grams:
            self._grams[u] = grams_present(self.question_grams, self.ledger.units[u])
        return self._grams[u]

    def cover(self, *units: str) -> float:
        present: set[str] = set()
        for u in units:
            present |= self.words(u)
        return self.scorer.score_terms(present)

    def lexical(self, u: str) -> float:
        return self.signals.lexical_of(u) if self.signals else 0.0

    def inverse_rank(self, u: str) -> float:
        r = self.rank.get(u)
        return 1.0 / r if r else 0.0

    def dense(self, units: tuple[str, ...]) -> float:
        if self.signals is None:
            return 0.0
        if len(units) == 2:
            return on_fitted_scale(clause_split(self.signals, *units), self.signals.stretch)
        vector = self.signals.vector_of(units[0])  # the unit's own vector, as clause_split reads it
        if vector is None:
            return 0.0
        return on_fitted_scale(float(self.signals.question_vector @ vector), self.signals.stretch)

    def features(self, units: tuple[str, ...], edge: Edge | None) -> dict[str, float]:
        lex = [self.lexical(u) for u in units]
        ranks = [self.inverse_rank(u) for u in units]
        cover = self.cover(*units)
        gain = cover - max(self.cover(u) for u in units) if len(units) > 1 else 0.0
        return {
            "cover": cover, "phrase": phrase_coverage(self.question_grams, *(self.grams(u) for u in units)),
            "dense": self.dense(units), "lex_max": max(lex), "lex_min": min(lex),
            "lex_citing": self.lexical(edge.source) if edge is not None else max(lex),
            "rank_max": max(ranks), "rank_min": min(ranks), "gain": gain,
            "second": float(len(units) > 1), "linked": float(edge is not None),
            "second_2q": float(len(units) > 1 and self.two_part), "linked_2q": float(edge is not None and self.two_part),
        }


def _seed_ranks(ledger: EvidenceLedger) -> dict[str, int]:
    return {e.unit.id: i for i, e in enumerate(ledger.seeds(), start=1)}


def linked_pairs(ledger: EvidenceLedger) -> list[Edge]:
    """Written-citation edges joining two distinct units of the ledger, one per unordered pair."""
    seen: set[frozenset[str]] = set()
    out: list[Edge] = []
    for edge in ledger.edges.values():
        key = frozenset((edge.source, edge.target))
        if edge.type not in PAIR_EDGE_TYPES or len(key) < 2 or key in seen or not all(u in ledger.units for u in key):
            continue
        seen.add(key)
        out.append(edge)
    return out


def _pool(rank: dict[str, int]) -> list[str]:
    """The first SEED_POOL search hits."""
    return [u for u, _ in sorted(rank.items(), key=lambda kv: kv[1])][:SEED_POOL]


def candidate_units(ledger: EvidenceLedger) -> list[str]:
    """Every unit some candidate set holds: the first search hits and the ends of the ledger's citation pairs."""
    ends = [u for e in linked_pairs(ledger) for u in (e.source, e.target)]
    return list(dict.fromkeys(_pool(_seed_ranks(ledger)) + ends))


def candidates(ledger: EvidenceLedger, scorer: Scorer, signals: Signals | None) -> list[Candidate]:
    """Every candidate set with its features (bench.select_fit fits SET_WEIGHTS on exactly these). (Penalty and
    transitional provisions were kept out unless the question asked of them: one question's gain on all dev sets,
    removed in issue 49, bench/results/TRIED.md.)"""
    rank = _seed_ranks(ledger)
    ctx = _Context(ledger, scorer, signals, bigrams(terms_of(scorer.question)), rank,
                   # Two clauses read apart: xrefrag150 13 questions, hipaa_generated 3, ko_dev 2 (obliqa150 -2).
                   two_part=len(clauses(scorer.question)) >= 2)
    pool = _pool(rank)
    out = [Candidate((u,), ctx.features((u,), None)) for u in pool]
    linked: dict[frozenset[str], Edge] = {frozenset((e.source, e.target)): e for e in linked_pairs(ledger)}
    for a, b in combinations(pool[:SEED_PAIR_POOL], 2):
        key = frozenset((a, b))
        out.append(Candidate((a, b), ctx.features((a, b), linked.get(key)), linked.get(key)))
    for key, edge in linked.items():
        if key <= set(pool[:SEED_PAIR_POOL]):
            continue  # already a candidate as two search hits
        units = (edge.source, edge.target)
        out.append(Candidate(units, ctx.features(units, edge), edge))
    return out


def told_apart(found: list[Candidate], off: AbstractSet[str]) -> list[Candidate]:
    """The candidates without a unit under a sibling heading the question did not ask about
    (core.answer.headings), a unit a written citation joins to the other member excepted; all of them when that
    leaves none."""
    kept = [c for c in found if not _asked_elsewhere(c, off)]
    return kept or found


def _asked_elsewhere(candidate: Candidate, off: AbstractSet[str]) -> bool:
    outside = sum(u in off for u in candidate.units)
    return outside > 0 and (candidate.edge is None or outside == len(candidate.units))


def set_score(features: dict[str, float], weights: dict[str, float] | None = None) -> float:
    return sum(w * features[k] for k, w in (weights or SET_WEIGHTS).items())


def ranked(found: list[Candidate], ledger: EvidenceLedger,
           weights: dict[str, float] | None = None) -> list[tuple[float, Candidate]]:
    """Best first; ties go to the smaller set, then to better-ranked search hits."""
    rank = _seed_ranks(ledger)
    return sorted(
        ((set_score(c.features, weights), c) for c in found),
        key=lambda sc: (-round(sc[0], 9), len(sc[1].units), sum(rank.get(u, 99) for u in sc[1].units)),
    )


def soft_features(units: tuple[str, ...], match: SoftMatch | None, stretch: float = 1.0) -> dict[str, float]:
    """The in-context features of a candidate, read on the fitted scale (`on_fitted_scale`)."""
    if match is None:
        return dict.fromkeys(SOFT_FEATURES, 0.0)
    cover = on_fitted_scale(match.cover(*units), stretch)
    own = [on_fitted_scale(match.cover(u), stretch) for u in units]
    return {"soft_cover": cover, "soft_min": min(own), "soft_gain": cover - max(own),
            "soft_split": on_fitted_scale(match.split(*units), stretch)}


def read_in_context(best: list[Candidate], ledger: EvidenceLedger, question: str,
                    signals: Signals | None) -> list[Candidate]:
    """The candidates' features extended by reading their units in context (one model pass per unit not read
    before)."""
    units = list(dict.fromkeys(u for c in best for u in c.units))
    match = signals.soft_match(question, {u: unit_text(ledger.units[u]) for u in units}) \
        if signals is not None and units else None
    stretch = signals.stretch if signals is not None else 1.0
    return [Candidate(c.units, c.features | soft_features(c.units, match, stretch), c.edge) for c in best]


def shortlist(found: list[Candidate], ledger: EvidenceLedger, question: str,
              signals: Signals | None) -> list[Candidate]:
    """The best READ_POOL candidates by SET_WEIGHTS, their features extended by reading their units in context."""
    return _read_pool(ranked(found, ledger), ledger, question, signals)


def _read_pool(first: list[tuple[float, Candidate]], ledger: EvidenceLedger, question: str,
               signals: Signals | None) -> list[Candidate]:
    return read_in_context([c for _, c in first[:READ_POOL]], ledger, question, signals)


def clear_lead(first: list[tuple[float, Candidate]]) -> bool:
    """The first stage's best leads the next candidate by CLEAR_MARGIN or more (or stands alone)."""
    return len(first) == 1 or first[0][0] - first[1][0] >= CLEAR_MARGIN


def choose_units(ledger: EvidenceLedger, scorer: Scorer, signals: Signals | None = None,
                 weights: dict[str, float] | None = None, off: AbstractSet[str] = frozenset()) -> Selection:
    """The best-scoring candidate set of the shortlist (READ_WEIGHTS unless `weights` says otherwise); a clear
    first-stage lead is cited without reading (`clear_lead`). Units in `off` sit under a sibling of the heading the
    question names (`told_apart`)."""
    first = ranked(told_apart(candidates(ledger, scorer, signals), off), ledger)
    if not first:
        return Selection([])
    if signals is not None and signals.reads_tokens and weights is None and clear_lead(first):
        scored = first  # reading would cost a model pass and, this far ahead, not change the choice
    else:
        scored = ranked(_read_pool(first, ledger, scorer.question, signals), ledger, weights or READ_WEIGHTS)
    best_score, best = scored[0]
    runner_up = next((s for s, c in scored[1:] if set(c.units) != set(best.units)), None)
    ctx_cover = {u: scorer.score_terms(scorer.held_by(ledger.units[u])) for u in best.units}
    choices = [Choice(ledger.units[u], ctx_cover[u]) for u in best.units]
    return Selection(choices, best.edge, best_score, runner_up, [(s, c.units) for s, c in scored[1:]])
