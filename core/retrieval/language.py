"""Whether the corpus's embedder can read its language, which decides if and how much its cosine joins the fused score.

The packaged sentence-transformers model (all-MiniLM-L6-v2) is English-only and its uncased BERT tokenizer strips
accents: "Bộ Y tế", "bố y tê" and "bổ ý tệ" become the same tokens, and Hangul falls apart into jamo. On such a
corpus its cosine only adds noise to BM25 (ALQAC: dense alone 0.816 top-10 against BM25 0.947), so the default
method's first stage is BM25 there. A corpus indexed by e5 (core.embeddings: the default for Korean and
Vietnamese) is read, and fused with its own weight (`e5_lexical_weight`, tuned on those dev sets). A model set
with CITEWALK_EMBEDDING_MODEL was chosen by the user for the corpus, so it is trusted to read it.
"""
from __future__ import annotations

from core.analyzers import language_of
from core.embeddings import E5, PACKAGED_MODEL_LANGUAGES, SENTENCE_TRANSFORMERS
from core.settings import Settings


def embedder_reads(settings: Settings, analyzer_name: str, backend: str = SENTENCE_TRANSFORMERS) -> bool:
    """True when the corpus's embedder is meant for the language of the corpus indexed with `analyzer_name`."""
    return backend == E5 or bool(settings.embedding_model) or language_of(analyzer_name) in PACKAGED_MODEL_LANGUAGES


def lexical_share(settings: Settings, analyzer_name: str, lexical_weight: float, unread_weight: float = 1.0,
                  backend: str = SENTENCE_TRANSFORMERS, e5_weight: float | None = None) -> float:
    """The BM25 share of the score fusion: `e5_weight` for an e5-indexed corpus, the configured one where the
    embedder reads the corpus, or `unread_weight` (all of it by default) where it cannot."""
    if backend == E5 and e5_weight is not None:
        return e5_weight
    return lexical_weight if embedder_reads(settings, analyzer_name, backend) else unread_weight
