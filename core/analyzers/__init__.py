"""Lexical analyzers: text → BM25 terms, one per language, chosen per corpus and stored with its index.

The language is detected from the units' script at index time (script.py; override: `lexical_analyzer`), and the
analyzer's name is saved with the index so questions are cut into terms as the units were. A question is scored
word by word (`term_groups`): a term, or, for "ko-kiwi+parts", the term followed by its compound's parts.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from core.analyzers.english import tokenize as english_tokens
from core.analyzers.korean import PARTS, KoreanAnalyzer
from core.analyzers.script import detect_language
from core.analyzers.vietnamese import SEGMENTERS, VietnameseAnalyzer

AUTO = "auto"
DEFAULT_BY_LANGUAGE = {"en": "en", "vi": "vi-pyvi", "ko": "ko-kiwi"}


class Analyzer(Protocol):
    name: str

    def tokenize(self, text: str) -> list[str]: ...


def term_groups(analyzer: Analyzer, text: str) -> list[tuple[str, ...]]:
    """A question's words as terms: each word's term, then the parts it is also indexed by (none but Korean's)."""
    groups = getattr(analyzer, "groups", None)
    return groups(text) if groups is not None else [(term,) for term in analyzer.tokenize(text)]


class EnglishAnalyzer:
    name = "en"

    def tokenize(self, text: str) -> list[str]:
        return english_tokens(text)


def analyzer_names() -> list[str]:
    return ["en", "ko-kiwi", "ko-kiwi" + PARTS, *(f"vi-{s}" for s in SEGMENTERS)]


def get_analyzer(name: str) -> Analyzer:
    """An analyzer by its stored name ("en", "vi-pyvi", "vi-underthesea/words", "ko-kiwi+parts", …) or a language
    code. "ko-kiwi" (compounds whole) still reads the indexes saved with it."""
    name = DEFAULT_BY_LANGUAGE.get(name, name)
    if name == "en":
        return EnglishAnalyzer()
    if name in ("ko-kiwi", "ko-kiwi" + PARTS):
        return KoreanAnalyzer(parts=name.endswith(PARTS))
    if name.startswith("vi-"):
        return VietnameseAnalyzer.from_name(name)
    raise ValueError(f"unknown lexical analyzer {name!r}: use {AUTO}, en, vi, ko or one of {', '.join(analyzer_names())}"
                     " (a Vietnamese one may add /words, /syllables, /bigrams, /syllables+bigrams)")


def language_of(analyzer_name: str) -> str:
    """The language an analyzer was chosen for ("vi-pyvi/words" → "vi"); an index without one is English."""
    return analyzer_name.split("-", 1)[0] if analyzer_name.startswith(("vi-", "ko-")) else "en"


def choose_analyzer(setting: str, texts: Iterable[str]) -> Analyzer:
    """The setting's analyzer, or the detected language's default when the setting is `auto`."""
    return get_analyzer(detect_language(texts) if setting == AUTO else setting)
