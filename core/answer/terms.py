"""The words an extractive answer matches a question by, in any script.

English goes through the lexical index's tokenizer (stop words dropped, stemmed, "3.8.1" kept whole). Vietnamese
syllables are kept as written, lower-cased (the English tokenizer would cut or stem them: "hay" → "hai"). Korean is
cut into morphemes by the corpus's Korean analyzer, since a noun and its particle are written as one word.
"""
from __future__ import annotations

import re
from functools import lru_cache

from core.analyzers.english import without_pronoun_i
from core.analyzers.korean import KoreanAnalyzer
from core.analyzers.script import detect_language
from core.domain import normalize_text
from core.lexical import tokenize

# Words that ask rather than say: no provision contains them, so they would look like the rarest terms.
_QUESTION_WORDS = frozenset(tokenize(
    "what which who whom whose when where why how can could does do did should would is are was were has have"))
# The same for Korean, as the analyzer writes them: interrogatives, "I" / "we", and the verbs a question is phrased with
# ("되나요", "하나요", "있나요", "어떻게").
_KOREAN_QUESTION_WORDS = frozenset("무엇 어디 누구 언제 얼마 왜 저 우리 어떻/V 어떠/V 이렇/V 되/V 하/V 있/V".split())
# The same for Vietnamese, as syllables: "I" / "we" / "myself" and the interrogatives a typed question ends with ("gì",
# "nào", "ai", "bao nhiêu", "mấy"). Absent from statutes or rare there ("không ai được cản trở"), they weighed as
# the question's rarest terms and drew the choice to any provision that happened to hold one.
# Not "bao" ("bao gồm"), "sao" ("bản sao"), "chưa" ("chưa thành niên"), "không": statutes use them as content.
_VIETNAMESE_QUESTION_WORDS = frozenset("tôi chúng mình gì nào ai đâu nhiêu mấy ạ nhé nhỉ hả".split())
_KOREAN = KoreanAnalyzer()
_WORD = re.compile(r"\d+(?:\.\d+)*[a-z]?(?:\([0-9a-z]{1,4}\))*|[^\W\d_][\w']*")


@lru_cache(maxsize=65536)
def _term(word: str) -> tuple[str, ...]:
    return tuple(tokenize(word)) if word.isascii() else (word,)


@lru_cache(maxsize=16384)
def _korean_terms(text: str) -> tuple[str, ...]:
    return tuple(t for t in _KOREAN.tokenize(text) if t not in _KOREAN_QUESTION_WORDS)


def terms_of(text: str) -> list[str]:
    if text.isascii():
        return [t for t in tokenize(text) if t not in _QUESTION_WORDS]
    language = detect_language([text])
    if language == "ko":
        return list(_korean_terms(text))
    if language == "vi":
        return [t for t in _WORD.findall(normalize_text(text).lower()) if t not in _VIETNAMESE_QUESTION_WORDS]
    words = _WORD.findall(without_pronoun_i(normalize_text(text)).lower())
    return [t for word in words for t in _term(word) if t not in _QUESTION_WORDS]
