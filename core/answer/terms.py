"""The words an extractive answer matches a question by, in any script.

English text goes through the lexical index's tokenizer (stop words dropped, stemmed, "3.8.1" kept whole).
Words in other scripts (Vietnamese syllables, Korean) are kept as written, lower-cased: the English
tokenizer would cut "người" into pieces that match unrelated words.
"""
from __future__ import annotations

import re
from functools import lru_cache

from core.domain import normalize_text
from core.lexical import tokenize

# Words that ask rather than say: no provision contains them, so they would look like the rarest terms.
_QUESTION_WORDS = frozenset(tokenize(
    "what which who whom whose when where why how can could does do did should would is are was were has have"))
_WORD = re.compile(r"\d+(?:\.\d+)*[a-z]?(?:\([0-9a-z]{1,4}\))*|[^\W\d_][\w']*")


@lru_cache(maxsize=65536)
def _term(word: str) -> tuple[str, ...]:
    return tuple(tokenize(word)) if word.isascii() else (word,)


def terms_of(text: str) -> list[str]:
    if text.isascii():
        return [t for t in tokenize(text) if t not in _QUESTION_WORDS]
    return [t for word in _WORD.findall(normalize_text(text).lower()) for t in _term(word) if t not in _QUESTION_WORDS]
