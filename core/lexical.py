"""The lexical (BM25) index over a corpus's units, saved next to the other stores."""
from __future__ import annotations

import json
import re
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

from ingest.normalize import normalize_text

# Dotted/bracketed numbers ("3.8.1", "164.508(a)(2)") stay whole: splitting them on dots loses the
# strongest lexical signal a citation-bearing question has.
_TOKEN = re.compile(r"\d+(?:\.\d+)*[a-z]?(?:\([0-9a-z]{1,4}\))*|[a-z][a-z0-9']*")
_STOPWORDS = frozenset(
    "a an and are as at be by for from has have if in into is it its of on or such that the their then there "
    "these they this to was were which will with shall may must not any all each other under than".split()
)
_STEMMER = Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    words = _TOKEN.findall(normalize_text(text).lower())
    kept = [w for w in words if w not in _STOPWORDS]
    return [w if w[0].isdigit() else _STEMMER.stemWord(w) for w in kept]


def unit_search_text(label: str, title: str, text: str) -> str:
    return f"{label} {title}\n{text}".strip()


class LexicalIndex:
    def __init__(self, retriever: bm25s.BM25, unit_ids: list[str]) -> None:
        self.retriever = retriever
        self.unit_ids = unit_ids

    @classmethod
    def build(cls, unit_ids: list[str], texts: list[str], k1: float = 1.2, b: float = 0.75,
              method: str = "lucene") -> "LexicalIndex":
        retriever = bm25s.BM25(k1=k1, b=b, method=method)
        # bm25s needs at least one token per document; an empty unit gets a placeholder token.
        retriever.index([tokenize(t) or ["_empty_"] for t in texts], show_progress=False)
        return cls(retriever, unit_ids)

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.retriever.save(str(path / "bm25"))
        tmp = path / "unit_ids.json.tmp"
        tmp.write_text(json.dumps(self.unit_ids))
        tmp.replace(path / "unit_ids.json")

    @classmethod
    def load(cls, path: Path) -> "LexicalIndex":
        ids_file = path / "unit_ids.json"
        if not ids_file.exists():
            raise FileNotFoundError(f"no lexical index at {path}: run `python -m ingest` for this corpus first")
        return cls(bm25s.BM25.load(str(path / "bm25")), json.loads(ids_file.read_text()))

    def scores(self, query: str) -> np.ndarray:
        """BM25 of every indexed document, in index order (zeros when the query has no searchable word)."""
        tokens = tokenize(query)
        if not tokens:
            return np.zeros(len(self.unit_ids), dtype=np.float32)
        return np.asarray(self.retriever.get_scores(tokens), dtype=np.float32)

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        tokens = tokenize(query)
        if not tokens or not self.unit_ids:
            return []
        k = min(k, len(self.unit_ids))
        scores = self.retriever.get_scores(tokens)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(self.unit_ids[i], float(scores[i])) for i in top if scores[i] > 0]
