"""The English analyzer: words lower-cased, stop words dropped, Snowball-stemmed; numbers kept whole."""
from __future__ import annotations

import re

import Stemmer

from core.domain import normalize_text

# Dotted/bracketed numbers ("3.8.1", "164.508(a)(2)") stay whole: splitting them on dots loses the
# strongest lexical signal a citation-bearing question has.
_TOKEN = re.compile(r"\d+(?:\.\d+)*[a-z]?(?:\([0-9a-z]{1,4}\))*|[a-z][a-z0-9']*")
_STOPWORDS = frozenset(
    "a an and are as at be by for from has have if in into is it its of on or such that the their then there "
    "these they this to was were which will with shall may must not any all each other under than".split()
)
_STEMMER = Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    words = _TOKEN.findall(normalize_text(text).lower())
    kept = [w for w in words if w not in _STOPWORDS]
    return [w if w[0].isdigit() else _STEMMER.stemWord(w) for w in kept]
