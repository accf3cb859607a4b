"""One question against one corpus: its vectors and corpus-wide scores, computed once and shared."""
from __future__ import annotations

import time
from functools import cached_property
from typing import Literal

import numpy as np

from core.retrieval.base import Provenance, RetrievalRequest
from core.retrieval.fusion import fuse_scores, top_indices
from core.retrieval.language import lexical_share
from core.retrieval.statement import answer_split, with_stem
from core.retrieval.stores import CorpusStores


class Query:
    def __init__(self, stores: CorpusStores, request: RetrievalRequest) -> None:
        self.stores = stores
        self.request = request
        self.timings: dict[str, float] = {}
        self.degraded: list[str] = []

    def timed(self, stage: str, started: float) -> None:
        self.timings[stage] = self.timings.get(stage, 0.0) + (time.perf_counter() - started) * 1000

    @cached_property
    def mask(self) -> np.ndarray:
        return self.stores.allowed_mask(self.request.filters)

    @cached_property
    def vector(self) -> np.ndarray:
        started = time.perf_counter()
        vector: np.ndarray = self.stores.embed([self.request.question])[0]
        self.timed("embed", started)
        return vector

    @cached_property
    def dense(self) -> np.ndarray:
        return self.stores.dense_scores(self.vector)

    @cached_property
    def lexical(self) -> np.ndarray:
        started = time.perf_counter()
        scores = self.stores.lexical_scores(self.request.question)
        self.timed("lexical", started)
        return scores

    @cached_property
    def context_lexical(self) -> np.ndarray:
        """BM25 over text + ancestor headings (the default method's lexical view); a "… ? Trả lời: …"
        statement's stem is weighted in (statement.py)."""
        started = time.perf_counter()
        scores = self.stores.context_lexical_scores(self.request.question)
        split = answer_split(self.request.question)
        share = self.stores.config.stem_share
        if split is not None and share > 0:
            scores = with_stem(scores, self.stores.context_lexical_scores(split[0]), share)
        self.timed("lexical", started)
        return scores

    def fused(self, lexical_weight: float, lexical: np.ndarray | None = None, dense: np.ndarray | None = None) -> np.ndarray:
        """`fuse_scores` of this question's BM25 and cosine (units filtered out count as cosine −1); BM25 alone
        when the embedder cannot read the corpus's language (language.py)."""
        lexical = self.lexical if lexical is None else lexical
        config = self.stores.config
        weight = lexical_share(self.stores.settings, self.stores.lexical.analyzer.name, lexical_weight,
                               config.unread_lexical_weight, self.stores.embedder.backend, config.e5_lexical_weight)
        dense = self.dense if dense is None else dense
        return fuse_scores(lexical, np.where(self.mask, dense, -1.0), weight)

    def first_stage_provenance(self, pool: int) -> dict[str, list[Provenance]]:
        """Which flat lists a unit came from, with its rank there: the 'why' of a first-stage hit."""
        out: dict[str, list[Provenance]] = {}
        kinds: tuple[tuple[Literal["lexical", "dense"], np.ndarray], ...] = (("lexical", self.lexical), ("dense", self.dense))
        for kind, scores in kinds:
            for rank, i in enumerate(top_indices(scores, pool, self.mask), start=1):
                if kind == "lexical" and scores[i] <= 0:
                    break
                out.setdefault(self.stores.unit_ids[i], []).append(
                    Provenance(kind=kind, rank=rank, score=float(scores[i])))
        return out
