"""How much of a question a provision's text answers, read in context by the embedding model.

Every content word piece of the question is matched to its closest word piece of the text, both as the model
reads them inside their own sentences (late interaction over the model's token vectors). Unlike exact-term
cover it catches paraphrase ("ask for a full review" ~ "may be referred … for a full merits review"), and unlike
one vector per text it says *which* part of the question each text answers: what choosing between two
provisions around the same rule needs. Reading a text costs a pass of the model over it, so selection reads
only the units of its shortlisted candidates.

A backend that gives no token vectors (e5, which reads Korean and Vietnamese) is read one vector per text: the
question as one query vector, each unit as the passage vector the corpus already holds for it (`vector_match`;
`TextReader` reads a text the stores lack, through the embedding cache), and the match is their cosine: coarser,
but in the corpus's language rather than the English model's noise, and at no model pass per question.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from core.answer.terms import terms_of
from core.embeddings import Embedder
from core.stores.embedding_cache import EmbeddingCache

READ_BATCH = 4


@dataclass(frozen=True)
class TokenVectors:
    pieces: tuple[str, ...]
    vectors: np.ndarray  # (pieces, dim), unit length


def _continues_word(piece: str) -> bool:
    return piece.startswith("##")  # WordPiece marks a piece inside a word; other tokenizers leave words whole here


def content_mask(pieces: tuple[str, ...]) -> np.ndarray:
    """Pieces of the words an answer must match (terms_of keeps them), so "what" and "the" weigh nothing."""
    keep = np.zeros(len(pieces), dtype=bool)
    start = 0
    for end in range(1, len(pieces) + 1):
        if end < len(pieces) and _continues_word(pieces[end]):
            continue
        word = "".join(p.removeprefix("##") for p in pieces[start:end])
        keep[start:end] = bool(terms_of(word))
        start = end
    return keep if keep.any() else np.ones(len(pieces), dtype=bool)


class Reader(Protocol):
    def read_asks(self, asks: list[str]) -> list[np.ndarray]:
        """Per question (or clause), the rows its match is averaged over."""
        ...

    def read(self, texts: list[str]) -> list[TokenVectors]: ...


class TokenReader:
    """Token vectors of texts from a sentence-transformers model (special tokens and punctuation left out)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.tokenizer = model.tokenizer
        self._special = set(getattr(self.tokenizer, "all_special_ids", []) or [])

    def read(self, texts: list[str]) -> list[TokenVectors]:
        import torch

        if not texts:
            return []
        with torch.inference_mode():
            # Small batches: a batch pads every text to its longest, and provision lengths vary widely.
            outputs = self.model.encode(texts, output_value=None, convert_to_numpy=False, batch_size=READ_BATCH)
        return [self._vectors(out) for out in outputs]

    def read_asks(self, asks: list[str]) -> list[np.ndarray]:
        return [r.vectors[content_mask(r.pieces)] for r in self.read(asks)]

    def _vectors(self, out: dict[str, Any]) -> TokenVectors:
        ids = out["input_ids"].tolist()
        vectors = out["token_embeddings"].float().numpy()
        pieces = self.tokenizer.convert_ids_to_tokens(ids)
        keep = [i for i, (t, p) in enumerate(zip(ids, pieces))
                if t not in self._special and any(ch.isalnum() for ch in p)]
        if not keep:
            keep = list(range(len(ids)))
        kept = vectors[keep]
        kept /= np.maximum(np.linalg.norm(kept, axis=1, keepdims=True), 1e-9)
        return TokenVectors(tuple(pieces[i] for i in keep), kept)


class TextReader:
    """One vector per text from a backend without token vectors: questions as queries, texts as passages."""

    def __init__(self, embedder: Embedder, cache: EmbeddingCache | None = None, chars: int = 700) -> None:
        self.embedder = embedder
        self.cache = cache
        self.chars = chars

    def read_asks(self, asks: list[str]) -> list[np.ndarray]:
        return [row[None, :] for row in self.embedder.embed_queries(asks)] if asks else []

    def read(self, texts: list[str]) -> list[TokenVectors]:
        cut = [t.strip()[: self.chars] or "-" for t in texts]
        vectors = self.embedder.embed(cut, cache=self.cache) if cut else np.zeros((0, self.embedder.dimension))
        return [TokenVectors((text,), vector[None, :]) for text, vector in zip(cut, vectors)]


def reader_for(embedder: Embedder, cache: EmbeddingCache | None = None) -> Reader:
    """Token vectors where the backend gives them (sentence-transformers), else one vector per text."""
    return TokenReader(embedder.token_model) if embedder.token_model is not None else TextReader(embedder, cache)


@dataclass
class SoftMatch:
    """Per unit, the best cosine of every content piece of the question to any piece of the unit's text, and the
    mean of that per clause of a question that asks two things (each clause read on its own)."""

    best: dict[str, np.ndarray]
    clause_cover: dict[str, list[float]] = field(default_factory=dict)

    def cover(self, *units: str) -> float:
        """Mean over the question's content pieces of their best match in any of the units (0–1)."""
        rows = [self.best[u] for u in units if u in self.best]
        return float(np.max(rows, axis=0).mean()) if rows else 0.0

    def split(self, *units: str) -> float:
        """How well the units answer one clause each: for two units the best assignment of two different clauses,
        for one unit its mean over the clauses; a one-clause question has nothing to split (its cover)."""
        rows = [self.clause_cover.get(u, []) for u in units]
        if not all(rows) or len(rows) > 2:
            return self.cover(*units)
        if len(rows) == 1:
            return float(np.mean(rows[0]))
        a, b = rows
        return max((a[i] + b[j]) / 2 for i in range(len(a)) for j in range(len(b)) if i != j)


def vector_match(asks: list[np.ndarray], vectors: dict[str, np.ndarray]) -> SoftMatch:
    """The match read from one vector per question (then per clause, when there are two or more) and per unit."""
    clauses = asks[1:] if len(asks) >= 3 else []
    return SoftMatch({u: np.array([float(v @ asks[0])]) for u, v in vectors.items()},
                     {u: [float(v @ c) for c in clauses] for u, v in vectors.items()})


def soft_match(reader: Reader, question: str, texts: dict[str, str],
               question_clauses: list[str] | None = None) -> SoftMatch:
    """Read the question, its clauses (two or more, else none) and every text; `texts` maps unit id → the text
    the unit is matched by."""
    ids = list(texts)
    asks = [question, *(question_clauses or [])] if len(question_clauses or []) >= 2 else [question]
    queries = reader.read_asks(asks)
    best, by_clause = {}, {}
    for u, tv in zip(ids, reader.read([texts[u] for u in ids])):
        best[u] = (queries[0] @ tv.vectors.T).max(axis=1)
        by_clause[u] = [float((q @ tv.vectors.T).max(axis=1).mean()) for q in queries[1:]]
    return SoftMatch(best, by_clause)
