"""One question against one corpus: its vectors and corpus-wide scores, computed once and shared."""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cached_property
from typing import Literal

import numpy as np

from core.retrieval.base import Provenance, RetrievalRequest
from core.retrieval.channels import lexical_share_for
from core.retrieval.fusion import fuse_scores, top_indices
from core.retrieval.language import embedder_reads, lexical_share
from core.retrieval.statement import answer_split, with_stem
from core.retrieval.stores import CorpusStores

# Questions embedded beside their BM25 (Query.start_embedding): a few at once, as many as the chat answers together.
_EMBEDDERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="citewalk-embed")


class Query:
    def __init__(self, stores: CorpusStores, request: RetrievalRequest) -> None:
        self.stores = stores
        self.request = request
        self.timings: dict[str, float] = {}
        self.degraded: list[str] = []
        self._embedding: Future[tuple[np.ndarray, float]] | None = None

    def timed(self, stage: str, started: float) -> None:
        self.timings[stage] = self.timings.get(stage, 0.0) + (time.perf_counter() - started) * 1000

    @cached_property
    def mask(self) -> np.ndarray:
        return self.stores.allowed_mask(self.request.filters)

    def start_embedding(self) -> None:
        """Embed the question in a worker thread while this one scores its BM25 views; `vector` waits for it. The
        models let go of the GIL while they compute (e5's C engine through ctypes, torch), so on two cores the
        embedding and the segmenter overlap; the vector is the one embedding it here gives."""
        if self._embedding is None and "vector" not in self.__dict__:
            running = threading.Event()
            self._embedding = _EMBEDDERS.submit(self._embed, running)
            # A segmenter (Kiwi) keeps the GIL while it cuts: the worker must be on its way into the model first, or
            # it would start only once the cut is done.
            running.wait()

    def _embed(self, running: threading.Event | None = None) -> tuple[np.ndarray, float]:
        if running is not None:
            running.set()
        started = time.perf_counter()
        vector: np.ndarray = self.stores.embed([self.request.question])[0]
        return vector, (time.perf_counter() - started) * 1000

    @cached_property
    def vector(self) -> np.ndarray:
        if self._embedding is None:
            vector, ms = self._embed()
        else:
            started = time.perf_counter()
            vector, ms = self._embedding.result()
            self.timed("embed wait", started)  # what the embedding still cost once the BM25 side was done
        self.timings["embed"] = self.timings.get("embed", 0.0) + ms
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

    def fused(self, lexical_weight: float | None, lexical: np.ndarray | None = None,
              dense: np.ndarray | None = None) -> np.ndarray:
        """`fuse_scores` of this question's BM25 and cosine (units filtered out count as cosine −1); BM25 alone
        when the embedder cannot read the corpus's language (language.py). `lexical_weight` None: BM25's share is
        weighed for this question by the fitted channel model (channels.py)."""
        lexical = self.lexical if lexical is None else lexical
        dense = np.where(self.mask, self.dense if dense is None else dense, -1.0)
        return fuse_scores(lexical, dense, self.lexical_share(lexical_weight, lexical, dense))

    def lexical_share(self, lexical_weight: float | None, lexical: np.ndarray, dense: np.ndarray) -> float:
        """BM25's share of the fused score: the given one (e5's own on an e5 corpus), the fitted model's for this
        question when None is given (the configured one where no model was fitted for the corpus's embedding
        backend), and `unread_lexical_weight` wherever the embedder cannot read the language."""
        stores, config = self.stores, self.stores.config
        analyzer, backend = stores.lexical.analyzer.name, stores.embedder.backend
        if lexical_weight is None and embedder_reads(stores.settings, analyzer, backend):
            started = time.perf_counter()
            share = lexical_share_for(stores, self.request.question, np.where(self.mask, lexical, -np.inf),
                                      np.where(self.mask, dense, -np.inf))
            self.timed("channel weights", started)
            if share is not None:
                return share
        fixed = config.lexical_weight if lexical_weight is None else lexical_weight
        return lexical_share(stores.settings, analyzer, fixed, config.unread_lexical_weight, backend,
                             config.e5_lexical_weight)

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
