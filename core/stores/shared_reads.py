"""Token vectors of provisions, read by the model in one chat worker and shared with the other workers of a data dir.

A provision read in context costs ~0.1 s of a core, most of a new question's cost, and every worker serves the same
corpora. Workers started by core.serve keep reads in one SQLite file per model; a worker about to read a provision
another is reading waits for it (a claim, at most `CLAIM_WAIT_S`). An optimisation only: a store that cannot be
read or written is logged once and ignored.
"""
from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from core.settings import Settings
from core.stores.embedding_cache import model_identity

log = logging.getLogger("citewalk.shared_reads")
SQLITE_TIMEOUT_S = 5.0
LOOKUP_BATCH = 500  # below SQLite's bound-parameter limit
# A claim is a promise to write the read soon; one older than this was left by a worker that died mid-read.
CLAIM_WAIT_S = 10.0
POLL_S = 0.02
# ~150–400 KiB a provision (MiniLM: up to 256 pieces × 384 floats): a few thousand provisions, oldest out first.
MAX_BYTES = 768 * 2**20

Read = tuple[tuple[str, ...], np.ndarray]  # word pieces, and their unit-length vectors (pieces × dim)


class SharedReads:
    """One model's token vectors by text digest, shared by the processes that open the same file."""

    def __init__(self, path: Path, max_bytes: int = MAX_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.owner = uuid.uuid4().hex  # this process's claims (a pid can be reused by a later worker)
        self._failed = False
        self._made = False  # folder, tables and journal mode set up (once per process: a waiting worker polls)

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        if not self._made:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.closing(sqlite3.connect(self.path, timeout=SQLITE_TIMEOUT_S)) as db, db:
            if not self._made:
                db.execute("PRAGMA journal_mode=WAL")  # kept by the file
                db.execute("CREATE TABLE IF NOT EXISTS reads (digest BLOB PRIMARY KEY, pieces TEXT NOT NULL, "
                           "vectors BLOB NOT NULL, dim INTEGER NOT NULL, bytes INTEGER NOT NULL)")
                db.execute("CREATE TABLE IF NOT EXISTS claims (digest BLOB PRIMARY KEY, owner TEXT NOT NULL, "
                           "since REAL NOT NULL)")
                self._made = True
            yield db

    def _broken(self, exc: Exception) -> None:
        if not self._failed:
            log.warning("shared token reads at %s unusable (%s); this worker reads every text itself", self.path, exc)
        self._failed = True

    def get(self, digests: Iterable[bytes]) -> dict[bytes, Read]:
        """The reads the file holds, of these digests."""
        wanted = list(dict.fromkeys(digests))
        if not wanted or self._failed:
            return {}
        found: dict[bytes, Read] = {}
        try:
            with self._db() as db:
                for start in range(0, len(wanted), LOOKUP_BATCH):
                    batch = wanted[start:start + LOOKUP_BATCH]
                    marks = ",".join("?" * len(batch))
                    rows = db.execute(f"SELECT digest, pieces, vectors, dim FROM reads WHERE digest IN ({marks})", batch)
                    for digest, pieces, blob, dim in rows:
                        vectors = np.frombuffer(blob, dtype=np.float32).reshape(-1, dim).copy()
                        found[bytes(digest)] = (tuple(json.loads(pieces)), vectors)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._broken(exc)
            return {}
        return found

    def claim(self, digests: Iterable[bytes], limit: int | None = None) -> list[bytes]:
        """Of these digests, in order, up to `limit` that this process is now to read: not read yet, and not being
        read by another process (a claim older than CLAIM_WAIT_S is taken over). None: every other process is
        reading all of them."""
        wanted = list(dict.fromkeys(digests))
        if not wanted or self._failed:
            return wanted[:limit]
        now = time.time()
        mine: list[bytes] = []
        try:
            with self._db() as db:
                db.execute("DELETE FROM claims WHERE since < ?", (now - CLAIM_WAIT_S,))
                for digest in wanted:
                    if limit is not None and len(mine) >= limit:
                        break
                    took = db.execute("INSERT OR IGNORE INTO claims (digest, owner, since) SELECT ?, ?, ? "
                                      "WHERE NOT EXISTS (SELECT 1 FROM reads WHERE digest = ?)",
                                      (digest, self.owner, now, digest))
                    if took.rowcount == 1:
                        mine.append(digest)
        except (sqlite3.Error, OSError) as exc:
            self._broken(exc)
            return wanted[:limit]
        return mine

    def put(self, reads: dict[bytes, Read]) -> None:
        """Keeps these reads and ends this process's claims on them; the oldest reads go past `max_bytes`."""
        if not reads or self._failed:
            return
        rows = [(d, json.dumps(pieces), np.ascontiguousarray(v, dtype=np.float32).tobytes(), int(v.shape[1]),
                 int(v.nbytes)) for d, (pieces, v) in reads.items()]
        try:
            with self._db() as db:
                db.executemany("INSERT OR REPLACE INTO reads (digest, pieces, vectors, dim, bytes) VALUES (?, ?, ?, ?, ?)", rows)
                db.executemany("DELETE FROM claims WHERE digest = ? AND owner = ?", [(d, self.owner) for d in reads])
                total = db.execute("SELECT COALESCE(SUM(bytes), 0) FROM reads").fetchone()[0]
                if total > self.max_bytes:
                    self._trim(db, total)
        except (sqlite3.Error, OSError) as exc:
            self._broken(exc)

    def _trim(self, db: sqlite3.Connection, total: int) -> None:
        over = total - self.max_bytes
        for rowid, size in db.execute("SELECT rowid, bytes FROM reads ORDER BY rowid").fetchall():
            if over <= 0:
                break
            db.execute("DELETE FROM reads WHERE rowid = ?", (rowid,))
            over -= size

    def release(self, digests: Iterable[bytes]) -> None:
        """Ends this process's claims on reads it failed: the others waiting read them themselves."""
        if self._failed:
            return
        try:
            with self._db() as db:
                db.executemany("DELETE FROM claims WHERE digest = ? AND owner = ?", [(d, self.owner) for d in digests])
        except (sqlite3.Error, OSError) as exc:
            self._broken(exc)

    def wait_for(self, digests: list[bytes], deadline_s: float = CLAIM_WAIT_S) -> dict[bytes, Read]:
        """The first of these reads that other processes deliver: waits until one arrives, none is claimed any
        more (given up), or the deadline passes."""
        until = time.monotonic() + deadline_s
        while not self._failed:
            found = self.get(digests)
            if found or time.monotonic() >= until or not self._claimed_elsewhere(digests):
                return found
            time.sleep(POLL_S)
        return {}

    def _claimed_elsewhere(self, digests: list[bytes]) -> bool:
        try:
            with self._db() as db:
                marks = ",".join("?" * len(digests))
                return db.execute(f"SELECT 1 FROM claims WHERE digest IN ({marks}) AND owner != ? LIMIT 1",
                                  [*digests, self.owner]).fetchone() is not None
        except (sqlite3.Error, OSError) as exc:
            self._broken(exc)
            return False


_STORES: dict[tuple[Path, str], SharedReads] = {}
_STORES_LOCK = threading.Lock()


def shared_reads_for(settings: Settings, model: str) -> SharedReads | None:
    """The store of this model's reads in `Settings.shared_reads_dir` (workers started by core.serve have one),
    else None. One object per file per process: its claims are the process's."""
    if settings.shared_reads_dir is None:
        return None
    with _STORES_LOCK:
        key = (settings.shared_reads_dir, model)
        store = _STORES.get(key)
        if store is None:  # naming the file walks the model's files: once per process
            store = _STORES[key] = SharedReads(settings.shared_reads_dir / f"{model_identity(model)}.sqlite")
        return store
