"""The Chroma side: one collection per corpus, vector ids = unit ids (extra windows `<id>#w<n>`)."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from core.domain import StoreError
from core.settings import Settings

if TYPE_CHECKING:  # types only: chromadb itself is imported where a client is opened, as before
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection
    from chromadb.api.types import Metadata


class VectorStoreError(StoreError):
    pass


def collection_name(corpus: str) -> str:
    # Chroma names allow [a-zA-Z0-9._-], 3–512 chars, starting and ending alphanumeric.
    safe = "".join(c if c.isalnum() or c in "._-" else "-" for c in corpus).strip("._-") or "corpus"
    return f"citewalk-{safe}"


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def client(settings: Settings) -> ClientAPI:
    import chromadb

    try:
        if settings.chroma_host:
            return chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port)
        settings.chroma_path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(settings.chroma_path))
    except Exception as exc:
        where = (
            f"the Chroma server at {settings.chroma_host}:{settings.chroma_port} (CHROMA_HOST/CHROMA_PORT)"
            if settings.chroma_host
            else f"the Chroma directory {settings.chroma_path} (CITEWALK_DATA_DIR)"
        )
        fix = ("check that the server runs and the setting is right" if settings.chroma_host else
               "point CITEWALK_DATA_DIR at a writable folder, or move the damaged folder away and re-run ingest")
        raise VectorStoreError(f"cannot open {where}: {exc}; {fix}") from exc


def collection(chroma: ClientAPI, corpus: str, create: bool = True) -> Collection:
    name = collection_name(corpus)
    if create:
        return chroma.get_or_create_collection(name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}})
    return chroma.get_collection(name, embedding_function=None)


class ChromaUnitWriter:
    """Idempotent per-document upserts; only windows whose text changed are re-embedded."""

    def __init__(self, chroma: ClientAPI, corpus: str) -> None:
        self.collection = collection(chroma, corpus)
        # As many vectors per call as the client takes: each call is one transaction and one index update.
        self.batch = max(1, int(chroma.get_max_batch_size()))

    def existing(self, document_id: str) -> dict[str, str]:
        got = self.collection.get(where={"document_id": document_id}, include=["metadatas"])
        return {vid: str((meta or {}).get("text_hash", "")) for vid, meta in zip(got["ids"], got["metadatas"] or [])}

    def delete(self, ids: Sequence[str]) -> None:
        for start in range(0, len(ids), 5000):
            self.collection.delete(ids=list(ids[start : start + 5000]))

    def upsert(self, ids: list[str], vectors: np.ndarray, metadatas: list[dict[str, Any]], documents: list[str]) -> None:
        for start in range(0, len(ids), self.batch):
            end = start + self.batch
            self.collection.upsert(
                ids=ids[start:end],
                embeddings=vectors[start:end].tolist(),
                metadatas=cast("list[Metadata]", metadatas[start:end]),
                documents=documents[start:end],
            )
