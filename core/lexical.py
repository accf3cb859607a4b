"""The lexical (BM25) index over a corpus's units, saved next to the other stores.

The analyzer that cut the units into terms is saved with the index (analyzer.json) and cuts every
question for it; an index saved before analyzers existed is English.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import bm25s
import numpy as np

from core.analyzers import Analyzer, EnglishAnalyzer, get_analyzer
from core.analyzers.english import tokenize
from core.domain import StoreError

__all__ = ["LexicalIndex", "tokenize", "unit_search_text"]

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

    def __getstate__(self) -> dict[str, object]:
        # The analyzer travels by its name (a segmenter holds caches and models that do not pickle), as it is saved.
        return {**self.__dict__, "analyzer": self.analyzer.name}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.analyzer = get_analyzer(str(state["analyzer"]))

    @classmethod
    def build(cls, unit_ids: list[str], texts: list[str], k1: float = 1.2, b: float = 0.75,
              method: str = "lucene", analyzer: Analyzer | None = None) -> LexicalIndex:
        analyzer = analyzer or EnglishAnalyzer()
        return cls.from_tokens(unit_ids, [analyzer.tokenize(t) for t in texts], k1, b, method, analyzer)

    @classmethod
    def from_tokens(cls, unit_ids: list[str], tokens: list[list[str]], k1: float = 1.2, b: float = 0.75,
                    method: str = "lucene", analyzer: Analyzer | None = None) -> LexicalIndex:
        retriever = bm25s.BM25(k1=k1, b=b, method=method)
        # bm25s needs at least one token per document; an empty unit gets a placeholder token.
        retriever.index([t or [_EMPTY] for t in tokens], show_progress=False)
        analyzer = analyzer or EnglishAnalyzer()
        keep = tokens if analyzer.name != "en" else None
        return cls(retriever, unit_ids, analyzer, keep)

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
    def load(cls, path: Path) -> LexicalIndex:
        ids_file = path / "unit_ids.json"
        if not ids_file.exists():
            raise StoreError(f"no lexical index at {path}: run `python -m ingest` for this corpus first")
        meta = path / "analyzer.json"
        analyzer = get_analyzer(json.loads(meta.read_text())["name"]) if meta.exists() else EnglishAnalyzer()
        tokens_file = path / "unit_tokens.json"
        tokens = json.loads(tokens_file.read_text()) if tokens_file.exists() else None
        return cls(bm25s.BM25.load(str(path / "bm25")), json.loads(ids_file.read_text()), analyzer, tokens)

    def tokens_of(self) -> dict[str, list[str]] | None:
        """unit id → its indexed terms, when they were kept."""
        return None if self.unit_tokens is None else dict(zip(self.unit_ids, self.unit_tokens))

    def scores(self, query: str) -> np.ndarray:
        """BM25 of every indexed document, in index order (zeros when the query has no searchable word)."""
        return self.term_scores(self.analyzer.tokenize(query))

    def term_scores(self, tokens: Sequence[str]) -> np.ndarray:
        """`scores` of a query this index's analyzer has cut already."""
        if not tokens:
            return np.zeros(len(self.unit_ids), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(list(tokens)), dtype=np.float32)

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        tokens = self.analyzer.tokenize(query)
        if not tokens or not self.unit_ids:
            return []
        k = min(k, len(self.unit_ids))
        scores = self.retriever.get_scores(tokens)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(self.unit_ids[i], float(scores[i])) for i in top if scores[i] > 0]


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
