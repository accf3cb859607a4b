"""Whether the embedder can read a corpus's language, which decides if its cosine joins the fused score.

The packaged embedder (all-MiniLM-L6-v2) is English-only and its uncased BERT tokenizer strips accents:
"Bộ Y tế", "bố y tê" and "bổ ý tệ" become the same tokens, and Hangul falls apart into jamo. On such a
corpus its cosine only adds noise to BM25 (ALQAC: dense alone 0.816 top-10 against BM25 0.947), so the
default method's first stage is BM25 there. A model set with CITEWALK_EMBEDDING_MODEL was chosen by the
user for the corpus, so it is trusted to read it.
"""
from __future__ import annotations

from core.analyzers import language_of
from core.settings import Settings

PACKAGED_EMBEDDER_LANGUAGES = frozenset({"en"})


def embedder_reads(settings: Settings, analyzer_name: str) -> bool:
    """True when the configured embedder is meant for the language of the corpus indexed with `analyzer_name`."""
    return bool(settings.embedding_model) or language_of(analyzer_name) in PACKAGED_EMBEDDER_LANGUAGES


def lexical_share(settings: Settings, analyzer_name: str, lexical_weight: float, unread_weight: float = 1.0) -> float:
    """The BM25 share of the score fusion: the configured one, or `unread_weight` (all of it by default) when
    the embedder cannot read the corpus."""
    return lexical_weight if embedder_reads(settings, analyzer_name) else unread_weight
