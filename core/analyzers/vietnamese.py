"""Vietnamese analyzers: words are runs of syllables ("viên chức", "bảo hiểm y tế"), so BM25 over
space-split syllables matches "viên" in every unrelated "nhân viên". A word segmenter joins them.

Two segmenters are offered (pyvi's CRF, underthesea's) plus the segmenter-free syllable baseline;
bench/results/lexical_alqac2023_train.json compares them on the ALQAC statements. Each word is also indexed by its
syllables, so a question the segmenter splits differently from the article still matches.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from core.domain import normalize_text

_WORD = re.compile(r"[^\W_]+(?:_[^\W_]+)*")
# Function words that carry no topic: particles, prepositions, conjunctions, classifiers.
STOPWORDS = frozenset(
    "của và các là có được trong cho với theo này đó những một thì mà khi do về từ tại bị đã sẽ "
    "đến hoặc như ra vào lên cũng nếu để nào đây mọi cùng vẫn rằng thuộc".split()
)


def _segment_pyvi(text: str) -> str:
    from pyvi import ViTokenizer

    return ViTokenizer.tokenize(text)


def _segment_underthesea(text: str) -> str:
    from underthesea import word_tokenize

    return " ".join(word_tokenize(line, format="text") for line in text.splitlines() if line.strip())


SEGMENTERS: dict[str, Callable[[str], str] | None] = {
    "pyvi": _segment_pyvi,
    "underthesea": _segment_underthesea,
    "syllable": None,  # no segmenter: syllables only
}


def prepare(text: str) -> str:
    # NFC first: the same word arrives composed or decomposed depending on the source's converter.
    return unicodedata.normalize("NFC", normalize_text(text))


def words(text: str) -> list[str]:
    """The text's words as the default segmenter (pyvi) cuts them, as written, syllables joined by a space:
    "Công ty chúng tôi" → ["Công ty", "chúng tôi"]."""
    segmented = _segment_pyvi(prepare(text)) if text.strip() else ""
    return [w.replace("_", " ") for w in _WORD.findall(segmented)]


FEATURES = ("syllables", "bigrams")
# Measured best on the ALQAC statements (bench/results/lexical_alqac2023_train.json): words and
# adjacent-word pairs; adding syllables brought back the "nhân viên" noise segmentation removes.
DEFAULT_FEATURES = ("bigrams",)


def terms(segmented: str, features: tuple[str, ...] = DEFAULT_FEATURES) -> list[str]:
    """Lower-cased words of a segmented text ("quy_định"), stop words out; optionally each word's
    syllables, and each pair of adjacent words ("bộ+y_tế"), which tells "Bộ Y tế" from "Bộ" … "y tế"."""
    words = [w for w in _WORD.findall(segmented.lower()) if w not in STOPWORDS]
    out: list[str] = []
    for word in words:
        out.append(word)
        if "syllables" in features and "_" in word:
            out.extend(s for s in word.split("_") if s not in STOPWORDS)
    if "bigrams" in features:
        out.extend(f"{a}+{b}" for a, b in zip(words, words[1:]))
    return out


class VietnameseAnalyzer:
    """Named "vi-<segmenter>" with the default features, "vi-<segmenter>/words" with none,
    "vi-<segmenter>/syllables+bigrams" and so on."""

    def __init__(self, segmenter: str, features: tuple[str, ...] = DEFAULT_FEATURES) -> None:
        if segmenter not in SEGMENTERS:
            raise ValueError(f"unknown Vietnamese segmenter {segmenter!r}: use one of {', '.join(SEGMENTERS)}")
        unknown = set(features) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown Vietnamese analyzer feature(s) {sorted(unknown)}: use {', '.join(FEATURES)}")
        self.segmenter = segmenter
        self.features = tuple(f for f in FEATURES if f in features)
        suffix = "" if self.features == DEFAULT_FEATURES else "/" + ("+".join(self.features) or "words")
        self.name = f"vi-{segmenter}{suffix}"
        self._segment = SEGMENTERS[segmenter]
        self._cached = lru_cache(maxsize=4096)(self._tokenize)

    @classmethod
    def from_name(cls, name: str) -> VietnameseAnalyzer:
        segmenter, _, spec = name.removeprefix("vi-").partition("/")
        features = DEFAULT_FEATURES if not spec else tuple(f for f in spec.split("+") if f != "words")
        return cls(segmenter, features)

    def _tokenize(self, text: str) -> tuple[str, ...]:
        text = prepare(text)
        segmented = self._segment(text) if self._segment and text.strip() else text
        return tuple(terms(segmented, self.features))

    def tokenize(self, text: str) -> list[str]:
        # Headings repeat across thousands of units' context texts: short texts are memoised.
        return list(self._cached(text) if len(text) <= 300 else self._tokenize(text))
