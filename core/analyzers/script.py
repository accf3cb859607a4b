"""The one language detector: 'ko', 'vi' or 'en' from the script of a text, for ingest, the lexical analyzer, the
embedding backend and the short answer, so a document is never parsed as one language and indexed as another.

Shares, not presence: Korean when Hangul is a tenth of the letters, Vietnamese when Vietnamese-only letters are a
fiftieth, else English; a statute quoting a few foreign terms keeps its language.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

HANGUL = re.compile("[\uac00-\ud7a3]")
# Letters only Vietnamese uses among Latin scripts (đ, ơ, ư, and tone-marked vowels).
VIETNAMESE = re.compile("[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.I)
_LETTER = re.compile(r"[^\W\d_]")
SAMPLE_LETTERS = 400_000
KOREAN_SHARE = 0.1
VIETNAMESE_SHARE = 0.02


def detect_language(texts: Iterable[str]) -> str:
    """'ko', 'vi' or 'en' for a set of texts (a corpus's units, a document's lines), read up to SAMPLE_LETTERS."""
    letters = hangul = vietnamese = 0
    for text in texts:
        letters += len(_LETTER.findall(text))
        hangul += len(HANGUL.findall(text))
        vietnamese += len(VIETNAMESE.findall(text))
        if letters >= SAMPLE_LETTERS:
            break
    if not letters:
        return "en"
    if hangul >= KOREAN_SHARE * letters:
        return "ko"
    return "vi" if vietnamese >= VIETNAMESE_SHARE * letters else "en"


def language_of_text(text: str) -> str:
    """The language of one text (a question, an answer's quotes)."""
    return detect_language([text])
