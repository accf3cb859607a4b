"""Per-question retrieval signals for the extractive answerer: BM25 and dense similarity of the question (and of
its clauses) to any unit, read from the retriever's in-memory corpus stores.

Optional by design: a retriever without corpus stores (a test fake, a remote method) says so
(`KeepsCorpusStores.corpus_stores` gives None), and selection falls back to search rank and word overlap alone.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import numpy as np

from core.answer.deps import AnswerDeps
from core.answer.soft_match import SoftMatch, TextReader, reader_for, soft_match, vector_match
from core.retrieval.base import KeepsCorpusStores
from core.retrieval.fusion import scaled_to_best
from core.retrieval.stores import CorpusStores
from core.stores.shared_reads import shared_reads_for

# A question that asks two things ("What must X do, and how does Y …?") is split into its clauses:
# a cross-reference answer should cover one clause with each end of the citation.
_CLAUSE = re.compile(
    r",?\s+and\s+(?=(?:how|what|which|when|who|whether|are|is|does|do|can|must|should|under|if)\b)|\?\s*|;\s*",
    re.I,
)
MIN_CLAUSE_WORDS = 3

log = logging.getLogger("citewalk.signals")


def clauses(question: str) -> list[str]:
    return [p.strip() for p in _CLAUSE.split(question) if len(p.split()) >= MIN_CLAUSE_WORDS]


@dataclass
class Signals:
    stores: CorpusStores
    question_vector: np.ndarray
    clause_vectors: np.ndarray | None  # (clauses, dim), only when the question has two or more clauses
    dense: np.ndarray  # cosine per unit (best window)
    lexical: np.ndarray  # BM25 per unit, divided by the best BM25 in the corpus

    def _index(self, unit_id: str) -> int | None:
        return self.stores.index.get(unit_id)

    def dense_of(self, unit_id: str) -> float:
        i = self._index(unit_id)
        return float(self.dense[i]) if i is not None else 0.0

    def lexical_of(self, unit_id: str) -> float:
        i = self._index(unit_id)
        return float(self.lexical[i]) if i is not None else 0.0

    @property
    def stretch(self) -> float:
        """How much the corpus's model's cosines are stretched to be read on the scale the answer's weights were
        fitted on (Embedder.cosine_stretch)."""
        return self.stores.embedder.cosine_stretch

    @property
    def reads_tokens(self) -> bool:
        """Whether reading in context costs a model pass over the texts (token vectors), or only compares the
        vectors the corpus holds (a backend without token vectors)."""
        return self.stores.embedder.token_model is not None

    def soft_match(self, question: str, texts: dict[str, str]) -> SoftMatch | None:
        """The question's in-context match to each text (unit id → text), read by the corpus's embedding model."""
        try:
            self.stores.use_query_threads()
            embedder = self.stores.embedder
            settings = self.stores.settings
            reader = reader_for(embedder, lambda: embedder.cache_for(settings), lambda: shared_reads_for(settings, embedder.name))
            if isinstance(reader, TextReader):
                return self._stored_match(reader, texts)
            return soft_match(reader, question, texts, clauses(question))
        except Exception:  # noqa: BLE001 — like the other signals, it only sharpens the choice
            log.warning("in-context reading failed; the answer is chosen without it", exc_info=True)
            return None

    def _stored_match(self, reader: TextReader, texts: dict[str, str]) -> SoftMatch:
        """One vector per unit, the one the corpus holds (no model pass); a unit the stores lack is read."""
        asks = [self.question_vector, *(self.clause_vectors if self.clause_vectors is not None else [])]
        vectors = {u: self.vector_of(u) for u in texts}
        missing = [u for u, v in vectors.items() if v is None]
        read = dict(zip(missing, reader.read([texts[u] for u in missing])))
        return vector_match(asks, {u: v if v is not None else read[u].vectors[0] for u, v in vectors.items()})

    def vector_of(self, unit_id: str) -> np.ndarray | None:
        i = self._index(unit_id)
        if i is None:
            return None
        row = self.stores.first_rows[i]
        return self.stores.window_matrix[row] if row >= 0 else None


def signals_for(deps: AnswerDeps) -> Signals | None:
    """The question's signals over the corpus, or None when the retriever keeps no corpus stores."""
    try:
        keeper: KeepsCorpusStores = deps.retriever
        stores = keeper.corpus_stores(deps.corpus)
        if stores is None:
            return None
        texts = [deps.question, *clauses(deps.question)]
        vectors = stores.embed(texts if len(texts) >= 3 else texts[:1])
        lexical = np.asarray(stores.lexical_scores(deps.question), dtype=np.float32)
        return Signals(stores, vectors[0], vectors[1:] if len(vectors) >= 3 else None,
                       stores.dense_scores(vectors[0]), scaled_to_best(lexical))
    except Exception:  # noqa: BLE001 — signals only sharpen the choice; rank and overlap still answer
        log.warning("answer signals unavailable for corpus %s; the answer is chosen by rank and overlap",
                    deps.corpus, exc_info=True)
        return None
