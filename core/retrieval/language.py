"""Whether the corpus's embedder can read its language, which decides if and how much its cosine joins the fused score.

The packaged MiniLM is English-only (its uncased tokenizer strips Vietnamese tones and cuts Hangul into jamo), so on
such a corpus its cosine only adds noise and the first stage is BM25. An e5 corpus is fused with its own weight
(`e5_lexical_weight`); a model the user set with CITEWALK_EMBEDDING_MODEL is trusted to read it.
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
