"""Word statistics shared by the template writer and its verifier: the lexical index's own tokens."""
from __future__ import annotations

import math
import re
from collections import Counter

from bench.generator.paths import CorpusGraph
from core.lexical import tokenize

_WORDS = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]")
# A stem found in more than about one unit in eight is too common to point at a unit.
MIN_IDF = math.log(8)
# Drafting boilerplate that is rare enough to pass MIN_IDF yet names no subject.
_BOILERPLATE = frozenset(tokenize(
    "those following forth set specified described provided otherwise made listed purpose purposes term terms "
    "including include applicable respect implementation specification specifications standard standards "
    "requirement requirements paragraph paragraphs section sections subpart chapter rule rules means meaning"
))
# Roman numerals are paragraph marks, not subjects.
_ROMAN = re.compile(r"^[ivxlc]+$", re.IGNORECASE)
MIN_SINGLE_WORD = 6
_CLAUSES = re.compile(r"[^.;:,()\[\]\"“”]+")


class TermStats:
    """Inverse document frequency of stems over a corpus's units (one unit = one document)."""

    def __init__(self, graph: CorpusGraph) -> None:
        df: Counter[str] = Counter()
        for unit in graph.units.values():
            df.update(set(tokenize(unit.text)))
        self.n = max(1, len(graph.units))
        self.df = df

    def idf(self, stem: str) -> float:
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 1))


def unit_terms(graph: CorpusGraph, unit_id: str) -> set[str]:
    """Everything a reader holding this unit can see: its label, text and the headings above it."""
    unit = graph.units[unit_id]
    headings = " ".join(graph.units[a].title for a in graph.ancestors(unit_id) if a in graph.units)
    return set(tokenize(f"{unit.label} {unit.title} {headings} {unit.text}"))


def key_phrase(text: str, stats: TermStats, exclude: set[str], max_words: int = 3) -> str:
    """The run of up to three content words in `text` that is rarest in the corpus and absent from `exclude`.

    Taking the words from the unit and not from its neighbours is what makes a question need this unit.
    """
    best, best_score = "", 0.0
    for clause in _CLAUSES.findall(text):
        words = _WORDS.findall(clause)
        for size in range(1, max_words + 1):
            for i in range(len(words) - size + 1):
                window = words[i:i + size]
                if any(_ROMAN.match(w) for w in window) or (size == 1 and len(window[0]) < MIN_SINGLE_WORD):
                    continue
                stems = [tokenize(w) for w in window]
                # Every word must be content and fairly rare: "otherwise provided" identifies nothing.
                if any(not s or s[0] in _BOILERPLATE or stats.idf(s[0]) < MIN_IDF for s in stems):
                    continue
                score = sum(stats.idf(s[0]) for s in stems if s[0] not in exclude)
                if score > best_score:
                    best, best_score = " ".join(window), score
    return best
