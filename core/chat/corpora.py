"""The corpus picker's choices (shown only when there is a choice): the corpus registry's, default first."""
from __future__ import annotations

from core.settings import Settings
from core.stores.corpora import answerable_corpora


def ordered_corpora(corpora: list[str], default: str) -> list[str]:
    """The configured default first, so it is the picker's initial value."""
    return sorted(corpora, key=lambda c: (c != default, c))


def picker_corpora(settings: Settings) -> list[str]:
    """What the chat offers; the configured default alone before anything is ingested."""
    return ordered_corpora(answerable_corpora(settings) or [settings.default_corpus], settings.default_corpus)
