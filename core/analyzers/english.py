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
# The pronoun "I" of a user's question ("I live in Spain", "can I refuse") lower-cases to the "i" of every point
# "(i)" and of "Annex I", so it matched every unit with a roman-numbered list. A capital I standing alone is the
# pronoun unless brackets or a heading word ("Chapter I", "Annex I") make it a number.
_LONE_I = re.compile(r"(?<![\w(])I(?:['’][a-z]{1,2})?(?![\w)])")
_NUMBERED_BY = re.compile(
    r"(?:annex|appendix|article|book|chapter|division|part|schedule|section|subpart|subtitle|title|tier|volume)\W*$",
    re.IGNORECASE)


def without_pronoun_i(text: str) -> str:
    if "I" not in text:
        return text
    return _LONE_I.sub(lambda m: m.group(0) if _NUMBERED_BY.search(text, max(0, m.start() - 16), m.start()) else " ",
                       text)


def tokenize(text: str) -> list[str]:
    words = _TOKEN.findall(without_pronoun_i(normalize_text(text)).lower())
    kept = [w for w in words if w not in _STOPWORDS]
    return [w if w[0].isdigit() else _STEMMER.stemWord(w) for w in kept]
