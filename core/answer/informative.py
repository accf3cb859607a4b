"""How much a question's term says in this corpus: its idf over every unit the corpus holds, read from the corpus's
BM25 index.

Weighed among the run's few evidence units only, an incidental word ("last" of "last week") that one hit happens to
hold ("Patient Last Name") weighs as much as the question's topic; over the whole corpus it is seen for the everyday
word it is. A term is counted as the answer's words are cut (`core.answer.terms`): as the index's own term where the
index writes whole words (English stems, Korean morphemes), and by its pieces where the index joins them into
words (Vietnamese syllables of "quy_định"), counted once, kept with the index.
"""
from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Iterable

from core.lexical import LexicalIndex, document_frequency, idf

_JOIN = "_"  # how a segmenting analyzer joins a word's pieces ("quy_định")
_PAIR = "+"  # how it writes a pair of adjacent words ("bộ+y_tế"): no piece of its own
_PIECES: weakref.WeakKeyDictionary[LexicalIndex, Counter[str]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _joins_pieces(index: LexicalIndex) -> bool:
    tokens = index.unit_tokens
    return tokens is not None and any(_JOIN in t for doc in tokens[:200] for t in doc)


def _piece_counts(index: LexicalIndex) -> Counter[str]:
    """Per piece, how many units hold it in any of their words (once per index: a pass over its saved terms)."""
    with _LOCK:
        found = _PIECES.get(index)
    if found is None:
        found = Counter()
        for doc in index.unit_tokens or []:
            found.update({p for t in doc if _PAIR not in t for p in t.split(_JOIN)})
        with _LOCK:
            _PIECES[index] = found
    return found


def holding(index: LexicalIndex, terms: Iterable[str]) -> dict[str, int]:
    """How many of the corpus's units hold each term; a term the corpus's analyzer drops (a function word the
    index leaves out, "được", "có") is counted as held by every unit: it says nothing about any of them."""
    pieces = _piece_counts(index) if _joins_pieces(index) else None
    out: dict[str, int] = {}
    for t in terms:
        found = pieces.get(t, 0) if pieces is not None else document_frequency(index.retriever, t)
        out[t] = found if found or index.analyzer.tokenize(t) else len(index.unit_ids)
    return out


def corpus_weights(index: LexicalIndex, terms: Iterable[str]) -> dict[str, float]:
    """Each term's idf over the whole corpus."""
    n = len(index.unit_ids)
    return {t: idf(n, df) for t, df in holding(index, terms).items()}
