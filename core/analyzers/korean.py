"""The Korean analyzer: Kiwi morphemes, so "의료기관을" and "의료기관의" both index "의료"+"기관".

Particles (J*), endings (E*) and punctuation are dropped; nouns, verb/adjective stems, roots,
numbers and foreign words are kept. Verb stems are marked ("정하/V") so they never collide with a noun.
"""
from __future__ import annotations

import threading
import unicodedata

from core.domain import normalize_text

_KEEP = ("NNG", "NNP", "NNB", "NR", "NP", "XR", "SL", "SH", "SN", "MAG")
# What a reader checks a provision for: common and proper nouns, roots, foreign words and hanja; not pronouns (NP),
# dependent nouns (NNB: 것, 수, 거), numerals, adverbs or verbs.
_NAMED = ("NNG", "NNP", "XR", "SL", "SH")
_STEMS = ("VV", "VA")
_DROP_NOUNS = frozenset({"것", "수", "등", "때", "중", "바"})

_kiwi = None
_lock = threading.Lock()


def _tokenizer():
    global _kiwi
    with _lock:
        if _kiwi is None:
            from kiwipiepy import Kiwi

            _kiwi = Kiwi()
        return _kiwi


class KoreanAnalyzer:
    name = "ko-kiwi"

    def tokenize(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFC", normalize_text(text))
        if not text.strip():
            return []
        out: list[str] = []
        for token in _tokenizer().tokenize(text):
            tag = token.tag.split("-")[0]  # Kiwi marks irregular stems "VV-R"
            if tag in _STEMS:
                out.append(f"{token.form}/V")
            elif tag.startswith(_KEEP) and token.form not in _DROP_NOUNS:
                out.append(token.form.lower())
        return out


def nouns_as_written(text: str) -> list[str]:
    """The text's nouns as written, without their particles or endings: "진료기록을 떼려고" → ["진료기록"] (morphemes
    written together are one word: a reader looks for "진료기록", not "진료" and "기록")."""
    text = unicodedata.normalize("NFC", normalize_text(text))
    if not text.strip():
        return []
    out: list[str] = []
    end = -1
    for token in _tokenizer().tokenize(text):
        if not token.tag.startswith(_NAMED):
            end = -1
            continue
        if token.start == end and out:
            out[-1] += text[token.start:token.start + token.len]
        else:
            out.append(text[token.start:token.start + token.len])
        end = token.start + token.len
    return out
