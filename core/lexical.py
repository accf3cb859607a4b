"""The lexical (BM25) index over a corpus's units, saved next to the other stores.

The analyzer that cut the units into terms is saved with the index (analyzer.json) and cuts every
question for it; an index saved before analyzers existed is English.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path

import bm25s
import numpy as np

from core.analyzers import Analyzer, EnglishAnalyzer, get_analyzer, term_groups
from core.analyzers.english import tokenize
from core.domain import StoreError

__all__ = ["LexicalIndex", "document_frequency", "idf", "tokenize", "unit_search_text"]

_EMPTY = "_empty_"


def unit_search_text(label: str, title: str, text: str) -> str:
    return f"{label} {title}\n{text}".strip()


class LexicalIndex:
    def __init__(self, retriever: bm25s.BM25, unit_ids: list[str], analyzer: Analyzer | None = None,
                 unit_tokens: list[list[str]] | None = None) -> None:
        self.retriever = retriever
        self.unit_ids = unit_ids
        self.analyzer = analyzer or EnglishAnalyzer()
        # Each unit's terms, kept when the analyzer is slow (a segmenter) so derived indexes reuse them.
        self.unit_tokens = unit_tokens

    @classmethod
    def build(cls, unit_ids: list[str], texts: list[str], k1: float = 1.2, b: float = 0.75,
              method: str = "lucene", analyzer: Analyzer | None = None) -> LexicalIndex:
        analyzer = analyzer or EnglishAnalyzer()
        return cls.from_tokens(unit_ids, [analyzer.tokenize(t) for t in texts], k1, b, method, analyzer)

    @classmethod
    def from_tokens(cls, unit_ids: list[str], tokens: list[list[str]], k1: float = 1.2, b: float = 0.75,
                    method: str = "lucene", analyzer: Analyzer | None = None) -> LexicalIndex:
        analyzer = analyzer or EnglishAnalyzer()
        is_part = getattr(analyzer, "is_part_term", None)
        # Compounds' parts go to an index of their own (`part_index`): the words as written are counted, and
        # documents' lengths measured, exactly as without them.
        written = tokens if is_part is None else [[t for t in doc if not is_part(t)] for doc in tokens]
        keep = tokens if analyzer.name != "en" else None
        return cls(_bm25(written, k1, b, method), unit_ids, analyzer, keep)

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.retriever.save(str(path / "bm25"))
        _write(path / "analyzer.json", json.dumps({"name": self.analyzer.name}))
        tokens_file = path / "unit_tokens.json"
        if self.unit_tokens is not None:
            _write(tokens_file, json.dumps(self.unit_tokens, ensure_ascii=False))
        elif tokens_file.exists():
            tokens_file.unlink()
        # Written last: its mtime is the ingest stamp running apps watch.
        _write(path / "unit_ids.json", json.dumps(self.unit_ids))

    @classmethod
    def load(cls, path: Path, mmap: bool = False) -> LexicalIndex:
        """The index saved at `path` (arrays and JSON only: nothing in it runs code); `mmap`: its arrays mapped
        read-only rather than copied."""
        ids_file = path / "unit_ids.json"
        if not ids_file.exists():
            raise StoreError(f"no lexical index at {path}: run `python -m ingest` for this corpus first")
        meta = path / "analyzer.json"
        analyzer = get_analyzer(json.loads(meta.read_text())["name"]) if meta.exists() else EnglishAnalyzer()
        tokens_file = path / "unit_tokens.json"
        tokens = json.loads(tokens_file.read_text()) if tokens_file.exists() else None
        return cls(bm25s.BM25.load(str(path / "bm25"), mmap=mmap), json.loads(ids_file.read_text()), analyzer, tokens)

    def tokens_of(self) -> dict[str, list[str]] | None:
        """unit id → its indexed terms, when they were kept."""
        return None if self.unit_tokens is None else dict(zip(self.unit_ids, self.unit_tokens))

    def scores(self, query: str) -> np.ndarray:
        """BM25 of every indexed document, in index order (zeros when the query has no searchable word)."""
        return self.group_scores(term_groups(self.analyzer, query))

    def term_scores(self, tokens: Sequence[str]) -> np.ndarray:
        """`scores` of a query this index's analyzer has cut already."""
        if not tokens:
            return np.zeros(len(self.unit_ids), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(list(tokens)), dtype=np.float32)

    def document_frequency(self, term: str) -> int:
        """How many indexed documents hold `term` as written (0: the corpus never uses it)."""
        return document_frequency(self.retriever, term)

    @cached_property
    def part_index(self) -> bm25s.BM25 | None:
        """BM25 over the parts of each document's compound nouns, from the saved terms (None where the analyzer
        indexes no parts)."""
        is_part = getattr(self.analyzer, "is_part_term", None)
        if is_part is None or self.unit_tokens is None:
            return None
        params = self.retriever
        return _bm25([[t for t in doc if is_part(t)] for doc in self.unit_tokens], params.k1, params.b, params.method)

    def group_scores(self, groups: Sequence[tuple[str, ...]]) -> np.ndarray:
        """`term_scores` of a question's words (`core.analyzers.term_groups`). Where the analyzer indexes compounds'
        parts (`part_term`), a word scores in each document as written or, where the document does not write it, as
        a part of the document's compounds; a compound the document does not write scores the mean of its parts:
        "세탁" and "세탁소" find "세탁물", and one word of the question weighs as one word however it is matched
        (a sum of three parts would outweigh the compound written whole)."""
        part = getattr(self.analyzer, "part_term", None)
        if part is None or self.part_index is None:
            return self.term_scores([g[0] for g in groups])
        out = np.zeros(len(self.unit_ids), dtype=np.float32)
        for whole, *parts in groups:
            word = self._word_scores(whole, part)
            if parts:
                pieces = np.array([self._word_scores(p, part) for p in parts])
                word = np.where(word > 0, word, np.where((pieces > 0).all(axis=0), pieces.mean(axis=0), 0.0))
            out += word
        return out

    def _word_scores(self, word: str, part: Callable[[str], str]) -> np.ndarray:
        written = self.term_scores([word])
        index, term = self.part_index, part(word)
        in_parts = document_frequency(index, term) if index is not None else 0
        if index is None or not in_parts:
            return written
        # A part match weighs as the word does over all units, written or inside a compound: the part index alone
        # counts few units for it, and would weigh a common word ("상황" of "긴급상황실") as a rare one.
        n = len(self.unit_ids)
        scale = idf(n, in_parts + document_frequency(self.retriever, word)) / idf(n, in_parts)
        return np.where(written > 0, written, scale * np.asarray(index.get_scores([term]), dtype=np.float32))

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        groups = term_groups(self.analyzer, query)
        if not groups or not self.unit_ids:
            return []
        k = min(k, len(self.unit_ids))
        scores = self.group_scores(groups)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(self.unit_ids[i], float(scores[i])) for i in top if scores[i] > 0]


def document_frequency(retriever: bm25s.BM25, term: str) -> int:
    """How many documents hold `term` (its column in the index's token-major score matrix)."""
    at = retriever.vocab_dict.get(term)
    if at is None:
        return 0
    starts = retriever.scores["indptr"]
    return int(starts[at + 1] - starts[at])


def idf(documents: int, holding: int) -> float:
    """Lucene's BM25 idf, as bm25s computes it."""
    return math.log(1 + (documents - holding + 0.5) / (holding + 0.5))


def _bm25(tokens: list[list[str]], k1: float, b: float, method: str) -> bm25s.BM25:
    retriever = bm25s.BM25(k1=k1, b=b, method=method)
    # bm25s needs at least one token per document; an empty unit gets a placeholder token.
    retriever.index([t or [_EMPTY] for t in tokens], show_progress=False)
    return retriever


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
