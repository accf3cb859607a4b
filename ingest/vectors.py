"""The vector side of an ingest: plan → embed → write to Chroma, as a pipeline that runs beside the graph writes.

Planning reads, per document, which windows Chroma already holds (by the hash of model and text) and deletes the
ones no unit makes any more; what is left to embed is embedded in chunks of `EMBED_CHUNK` windows as soon as a
chunk fills (the model's threads release the interpreter lock, so the graph writes and the Chroma writes go on
meanwhile), and a writer thread upserts the chunks' vectors into Chroma in batches of `WRITE_BATCH` while the next
chunk is embedded. A run killed part way keeps every batch already written; the next run embeds only the windows
Chroma lacks, and the embedding cache gives back the vectors of texts embedded before.
"""
from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.domain import Document
from core.embeddings import Embedder
from core.stores.chroma_store import ChromaUnitWriter, text_hash
from core.stores.embedding_cache import EmbeddingCache
from ingest.progress import Progress
from ingest.reading import own_text, vector_plan

# Windows per model call from the pipeline: small enough that the progress line and the writer move every few
# seconds, large enough that sorting by length inside a chunk keeps padding low.
EMBED_CHUNK = 1024
# Vectors per Chroma write: one transaction and one index update per batch (split further if Chroma takes fewer).
WRITE_BATCH = 8192


@dataclass
class Pending:
    """Windows planned and not yet embedded, in document order."""

    ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    docs: list[str] = field(default_factory=list)
    meta: list[dict[str, Any]] = field(default_factory=list)

    def take(self, n: int) -> Pending:
        taken = Pending(self.ids[:n], self.texts[:n], self.docs[:n], self.meta[:n])
        del self.ids[:n], self.texts[:n], self.docs[:n], self.meta[:n]
        return taken


class DocumentsDone:
    """Which documents have all their vectors written: the progress line counts their units then."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self._ends: deque[tuple[int, int]] = deque()  # (windows planned up to the document's end, its units)
        self._written = 0
        self._lock = threading.Lock()

    def planned(self, windows_so_far: int, units: int) -> None:
        with self._lock:
            self._ends.append((windows_so_far, units))
        self._advance()

    def written(self, windows: int) -> None:
        with self._lock:
            self._written += windows
        self._advance()

    def _advance(self) -> None:
        units = 0
        with self._lock:
            while self._ends and self._ends[0][0] <= self._written:
                units += self._ends.popleft()[1]
        if self.progress is not None:
            self.progress.advance(units)


def plan_document(document: Document, writer: ChromaUnitWriter, embedder: Embedder, corpus: str,
                  pending: Pending) -> None:
    existing = writer.existing(document.id)
    wanted: set[str] = set()
    for unit, window in vector_plan(document, embedder):
        wanted.add(window.vector_id)
        # The model is in the digest: a corpus re-indexed by another model gets all its vectors anew.
        digest = text_hash(f"{embedder.name}\n{window.text}")
        if existing.get(window.vector_id) == digest:
            continue
        pending.ids.append(window.vector_id)
        pending.texts.append(window.text)
        # The stored document is the unit's own text (an article-reading backend embeds its article's).
        pending.docs.append(own_text(unit) if embedder.reads_articles else window.text)
        pending.meta.append({
            "unit_id": unit.id, "document_id": document.id, "corpus": corpus, "type": unit.type.value,
            "status": unit.metadata.get("status", "in_force"), "window": window.index, "text_hash": digest,
            "backend": embedder.backend, "embedder": embedder.name,
        })
    stale = [vid for vid in existing if vid not in wanted]
    if stale:
        writer.delete(stale)


class VectorWriter:
    """Upserts embedded chunks into Chroma from its own thread, in batches of `WRITE_BATCH`."""

    def __init__(self, writer: ChromaUnitWriter, done: DocumentsDone) -> None:
        self.writer = writer
        self.done = done
        self.error: BaseException | None = None
        self._queue: queue.Queue[tuple[Pending, np.ndarray] | None] = queue.Queue(maxsize=4)
        self._thread = threading.Thread(target=self._run, name="chroma-writer", daemon=True)
        self._thread.start()

    def put(self, chunk: Pending, vectors: np.ndarray) -> None:
        self._queue.put((chunk, vectors))

    def finish(self) -> None:
        self._queue.put(None)
        self._thread.join()
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        batch: list[tuple[Pending, np.ndarray]] = []
        while (item := self._queue.get()) is not None:
            if self.error is not None:
                continue  # drained, so the embedding side never blocks on a writer that failed
            batch.append(item)
            if sum(len(c.ids) for c, _ in batch) >= WRITE_BATCH:
                self._write(batch)
                batch = []
        if batch and self.error is None:
            self._write(batch)

    def _write(self, batch: list[tuple[Pending, np.ndarray]]) -> None:
        try:
            ids = [i for c, _ in batch for i in c.ids]
            self.writer.upsert(ids, np.concatenate([v for _, v in batch]), [m for c, _ in batch for m in c.meta],
                               [d for c, _ in batch for d in c.docs])
            self.done.written(len(ids))
        except BaseException as exc:  # handed to the embedding side, which raises it
            self.error = exc


def _chunks(documents: list[Document], writer: ChromaUnitWriter, embedder: Embedder, corpus: str,
            done: DocumentsDone) -> Iterator[Pending]:
    pending = Pending()
    planned = 0
    for document in documents:
        before = len(pending.ids)
        plan_document(document, writer, embedder, corpus, pending)
        planned += len(pending.ids) - before
        done.planned(planned, len(document.units))
        while len(pending.ids) >= EMBED_CHUNK:
            yield pending.take(EMBED_CHUNK)
    if pending.ids:
        yield pending


def write_vectors(documents: list[Document], chroma, embedder: Embedder, corpus: str,
                  progress: Progress | None = None, cache: EmbeddingCache | None = None,
                  stop: threading.Event | None = None) -> int:
    """Embed and write every window Chroma lacks; the number embedded. `stop` set (the graph side failed) ends it
    after the chunk under way."""
    writer = ChromaUnitWriter(chroma, corpus)
    done = DocumentsDone(progress)
    vectors = VectorWriter(writer, done)
    embedded = 0
    try:
        for chunk in _chunks(documents, writer, embedder, corpus, done):
            if vectors.error is not None or (stop is not None and stop.is_set()):
                break
            vectors.put(chunk, embedder.embed(chunk.texts, cache=cache))
            embedded += len(chunk.ids)
    finally:
        vectors.finish()
    return embedded
