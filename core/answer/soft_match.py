"""How much of a question a provision's text answers, read in context by the embedding model.

Each content word piece of the question is matched to its closest word piece of the text, both read inside their
own sentences (late interaction over token vectors): it catches paraphrase and says which part of the question each
text answers. Reading costs a model pass, so only shortlisted units are read, and token vectors are kept
(`TokenCache`, bounded in bytes). A backend without token vectors (e5) matches one vector per text instead
(`vector_match`: question query vector against the corpus's passage vectors).
"""
from __future__ import annotations

import hashlib
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from core.answer.terms import terms_of
from core.embeddings import Embedder
from core.stores.embedding_cache import EmbeddingCache
from core.stores.shared_reads import SharedReads

READ_BATCH = 4
# Token vectors kept per model: ~150–400 KiB a provision (MiniLM, up to 256 pieces × 384 floats), so ~250–400
# provisions; what the answer path holds between questions stays bounded whatever the traffic.
TOKEN_CACHE_BYTES = 96 * 2**20
# How long an answer waits for another's model pass over a text both need before reading it itself.
SHARED_READ_WAIT_S = 10.0


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


class TokenCache:
    """Token vectors of texts already read, by text; the least recently used go once `max_bytes` is passed.
    Shared by the answers running at once in worker threads, hence the lock."""

    def __init__(self, max_bytes: int = TOKEN_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._items: OrderedDict[bytes, TokenVectors] = OrderedDict()
        self._reading: dict[bytes, threading.Event] = {}  # texts some answer is passing through the model now
        self._lock = threading.Lock()

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()

    @staticmethod
    def _size(vectors: TokenVectors) -> int:
        return vectors.vectors.nbytes + sum(len(p) + 56 for p in vectors.pieces)  # 56: a short str's overhead

    def __len__(self) -> int:
        return len(self._items)

    def get(self, text: str) -> TokenVectors | None:
        key = self.key(text)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def claim(self, texts: list[str]) -> tuple[list[str], list[threading.Event]]:
        """Of texts the cache lacks, those this caller is to read (now marked as being read) and the reads of
        the others already under way in other answers: many users asking one new question at once read each
        of its provisions once, the others wait for that read instead of repeating it."""
        mine: list[str] = []
        theirs: list[threading.Event] = []
        with self._lock:
            for text in texts:
                key = self.key(text)
                if key in self._items:
                    continue
                if key in self._reading:
                    theirs.append(self._reading[key])
                else:
                    self._reading[key] = threading.Event()
                    mine.append(text)
        return mine, theirs

    def release(self, texts: list[str]) -> None:
        """Ends the claimed reads (done or failed): whoever waits on them looks in the cache again."""
        with self._lock:
            for text in texts:
                done = self._reading.pop(self.key(text), None)
                if done is not None:
                    done.set()

    def put(self, text: str, vectors: TokenVectors) -> None:
        key, size = self.key(text), self._size(vectors)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.nbytes -= self._size(old)
            self._items[key] = vectors
            self.nbytes += size
            while self.nbytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.nbytes -= self._size(dropped)


# One cache per loaded model, dropped with it (a model never reads from another's cache).
_TOKEN_CACHES: weakref.WeakKeyDictionary[Any, TokenCache] = weakref.WeakKeyDictionary()
_TOKEN_CACHES_LOCK = threading.Lock()
# Model passes at once per process, one per core it may run on (a pass runs one torch thread): answers that arrive
# together then finish one after another instead of all at the end, and a worker claims a text to share only when
# its pass over it starts (TokenReader._read_shared).
_PASSES = threading.BoundedSemaphore(max(1, len(os.sched_getaffinity(0))))


def token_cache_for(model: Any) -> TokenCache:
    with _TOKEN_CACHES_LOCK:
        cache = _TOKEN_CACHES.get(model)
        if cache is None:
            cache = _TOKEN_CACHES[model] = TokenCache()
        return cache


class Reader(Protocol):
    def read_asks(self, asks: list[str]) -> list[np.ndarray]:
        """Per question (or clause), the rows its match is averaged over."""
        ...

    def read(self, texts: list[str]) -> list[TokenVectors]: ...


class TokenReader:
    """Token vectors of texts from a sentence-transformers model (special tokens and punctuation left out)."""

    def __init__(self, model: Any, cache: TokenCache | None = None,
                 questions: Callable[[list[str]], list[tuple[list[int], np.ndarray]] | None] | None = None,
                 shared: SharedReads | None = None) -> None:
        self.model = model
        self.cache = cache
        self.shared = shared  # what the other workers of the data dir read (core.stores.shared_reads)
        self.questions = questions  # token vectors of questions the search and signals passed through the model
        self.tokenizer = model.tokenizer
        self._special = set(getattr(self.tokenizer, "all_special_ids", []) or [])

    def read(self, texts: list[str]) -> list[TokenVectors]:
        """Texts' token vectors, from the cache where they were read before."""
        if self.cache is None:
            return self._encode(texts)
        distinct = list(dict.fromkeys(texts))
        found = self._cached(distinct)
        mine, theirs = self.cache.claim([t for t in distinct if t not in found])
        try:
            found |= self._read_shared(mine)
        finally:
            self.cache.release(mine)
        for read in theirs:
            read.wait(SHARED_READ_WAIT_S)
        # What another answer read is in the cache now; one it failed, or one already pushed out, is read here.
        found |= self._cached([t for t in distinct if t not in found])
        found |= self._read_and_keep([t for t in distinct if t not in found])
        return [found[t] for t in texts]

    def _cached(self, texts: list[str]) -> dict[str, TokenVectors]:
        assert self.cache is not None
        return {t: v for t in texts if (v := self.cache.get(t)) is not None}

    def _read_shared(self, texts: list[str]) -> dict[str, TokenVectors]:
        """Texts this process is to read: what another worker read or is reading, else a model pass here. A worker
        claims a few texts at a time, holding its model pass, so two workers that need the same texts at once
        read different ones and each takes the other's."""
        if self.shared is None or not texts:
            return self._read_and_keep(texts)
        keys = {t: TokenCache.key(t) for t in texts}
        found: dict[str, TokenVectors] = {}
        while pending := [t for t in texts if t not in found]:
            found |= self._kept(pending, keys, self.shared.get(keys[t] for t in pending))
            if not (pending := [t for t in pending if t not in found]):
                break
            with _PASSES:
                claimed = set(self.shared.claim([keys[t] for t in pending], limit=READ_BATCH))
                mine = [t for t in pending if keys[t] in claimed]
                try:
                    read = self._keep(mine, self._pass(mine))
                except BaseException:
                    self.shared.release(keys[t] for t in mine)
                    raise
            self.shared.put({keys[t]: (v.pieces, v.vectors) for t, v in read.items()})
            found |= read
            if not mine:  # every one left is being read by another worker: take the first it delivers
                found |= self._kept(pending, keys, self.shared.wait_for([keys[t] for t in pending]))
        return found

    def _kept(self, texts: list[str], keys: dict[str, bytes], shared: dict[bytes, tuple[tuple[str, ...], np.ndarray]]
              ) -> dict[str, TokenVectors]:
        found = [t for t in texts if keys[t] in shared]
        return self._keep(found, [TokenVectors(*shared[keys[t]]) for t in found])

    def _read_and_keep(self, texts: list[str]) -> dict[str, TokenVectors]:
        return self._keep(texts, self._encode(texts))

    def _keep(self, texts: list[str], vectors: list[TokenVectors]) -> dict[str, TokenVectors]:
        assert self.cache is not None
        read = dict(zip(texts, vectors))
        for text, one in read.items():
            self.cache.put(text, one)
        return read

    def read_asks(self, asks: list[str]) -> list[np.ndarray]:
        # Questions are not kept here (they rarely come back word for word, and would only push provisions out),
        # but the search embedded them a moment ago with the same model and kept what that pass gave.
        known = self.questions(asks) if self.questions is not None else None
        rows = [self._vectors(*k) for k in known] if known is not None else self._encode(asks)
        return [r.vectors[content_mask(r.pieces)] for r in rows]

    def _encode(self, texts: list[str]) -> list[TokenVectors]:
        with _PASSES:
            return self._pass(texts)

    def _pass(self, texts: list[str]) -> list[TokenVectors]:
        """The model's pass over the texts; the caller holds one of the process's passes (_PASSES)."""
        import torch

        if not texts:
            return []
        with torch.inference_mode():
            # Small batches: a batch pads every text to its longest, and provision lengths vary widely.
            outputs = self.model.encode(texts, output_value=None, convert_to_numpy=False, batch_size=READ_BATCH)
        return [self._vectors(out["input_ids"].tolist(), out["token_embeddings"].float().numpy()) for out in outputs]

    def _vectors(self, ids: list[int], vectors: np.ndarray) -> TokenVectors:
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


def reader_for(embedder: Embedder, cache: Callable[[], EmbeddingCache | None] = lambda: None,
               shared: Callable[[], SharedReads | None] = lambda: None) -> Reader:
    """Token vectors where the backend gives them (sentence-transformers; with what the other workers read, when
    they share), else one vector per text (with the document-vector cache, opened only then: naming it walks the
    model's files)."""
    if embedder.token_model is not None:
        return TokenReader(embedder.token_model, token_cache_for(embedder.token_model), embedder.question_tokens,
                           shared())
    return TextReader(embedder, cache())


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
