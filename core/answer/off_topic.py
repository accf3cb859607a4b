"""Whether a question is about something the corpus does not govern: then the answer abstains.

An off-topic question still shares everyday words with some provisions; what it lacks is a neighbourhood. So the
test is the mean cosine of its NEIGHBOURS closest units (the corpus's own embedding model, no word list), read for
the whole question and for each sentence and clause (context such as "We are a clinic." pulls the whole vector
away): a question is answered when any part of it sits among provisions.
"""
from __future__ import annotations

import re

import numpy as np

from core.answer.signals import MIN_CLAUSE_WORDS, Signals, clauses
from core.retrieval.stores import CorpusStores

# A topic the law governs spans dozens of provisions (definitions, the duty, its exceptions, recitals); another
# law's topic meets a few by chance. The group is at most a twentieth of the corpus, so a small one is not
# averaged whole. 40 separated the two sides best of 3, 5, 10, 20, 40, 80 (bench/results/TRIED.md, stop 30).
NEIGHBOURS = 40
_ENDS = ".?!。？！"
_SENTENCE_END = re.compile(rf"(?<=[{_ENDS}])\s+")


def parts(question: str) -> list[str]:
    """The question's sentences and clauses of at least MIN_CLAUSE_WORDS words, each once, not the whole."""
    pieces: dict[str, str] = {}
    for piece in [*_SENTENCE_END.split(question), *clauses(question)]:
        pieces.setdefault(_bare(piece), piece.strip())
    pieces.pop(_bare(question), None)
    return [p for p in pieces.values() if len(p.split()) >= MIN_CLAUSE_WORDS]


def _bare(text: str) -> str:
    """A clause comes without its question mark; it is the same text as the sentence that has one."""
    return text.strip().rstrip(_ENDS)


def nearest_mean(cosines: np.ndarray, k: int) -> float:
    """The mean of the `k` largest cosines (0 for none)."""
    k = min(k, len(cosines))
    return float(np.partition(cosines, len(cosines) - k)[-k:].mean()) if k > 0 else 0.0


def neighbourhood(cosines: np.ndarray) -> float:
    """The mean cosine of the NEIGHBOURS nearest units, at most a twentieth of the corpus."""
    return nearest_mean(cosines, max(1, min(NEIGHBOURS, len(cosines) // 20)))


def closeness(stores: CorpusStores, question: str, dense: np.ndarray | None = None) -> float:
    """The best, over the whole question and its parts, of the mean cosine of its NEIGHBOURS nearest units
    (`dense`: the whole question's cosines, when already read)."""
    if dense is None:
        dense = stores.dense_scores(stores.embed([question])[0])
    best = neighbourhood(dense)
    pieces = parts(question)
    if pieces:
        for vector in stores.embed(pieces):
            best = max(best, neighbourhood(stores.dense_scores(vector)))
    return best


def far_line(stores: CorpusStores) -> float | None:
    """The closeness under which this corpus's model reads a question as off-topic (None: not calibrated)."""
    return stores.embedder.far_neighbourhood


def off_topic(signals: Signals | None, question: str) -> bool:
    """No part of the question sits among the corpus's provisions (False when the retriever keeps no stores or
    its model has no line)."""
    if signals is None or not len(signals.dense):
        return False
    line = far_line(signals.stores)
    return line is not None and closeness(signals.stores, question, signals.dense) < line
