"""The provision a cited rule points to, when the question names what that provision says.

A rule often applies to a case another provision defines by number ("… based on point (e) or (f) of Article
6(1)") while the user names the case in words ("legitimate interests"). A provision the chosen rule cites outside
its own article is cited beside it when it holds a phrase of the question (two adjacent content words) that the
rule, its headings and sub-units lack and that few units of the evidence hold. `_Fitter.referenced` does the same
for a period or sum the rule names only by number.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from core.answer.terms import terms_of
from core.domain import EdgeType
from core.retrieval.articles import article_id
from core.retrieval.stores import CorpusStores
from core.stores.queries import UnitRecord

Phrase = tuple[str, str]
_WORD = re.compile(r"[^\W_][\w'’-]*")

# A phrase held by more than this share of the evidence (and by more than one unit) is the corpus's everyday wording.
RARE_SHARE = 0.25


def same_stem(term: str, word: str) -> bool:
    """The same word, or one of its stem family ("modifi" of "modify" and "modif" of "modification": the stemmer
    cuts them apart)."""
    return term == word or (len(term) >= 4 and len(word) >= 4 and (word.startswith(term) or term.startswith(word)))


@lru_cache(maxsize=65536)
def _word_terms(word: str) -> tuple[str, ...]:
    return tuple(terms_of(word))


def phrases(text: str) -> set[Phrase]:
    """The terms of adjacent words of a text. In English a function word parts them ("interests and personal" is no
    phrase); the other languages' terms are read in order (their analyzers split and join words themselves)."""
    if not text.isascii():
        ordered = terms_of(text)
        return set(zip(ordered, ordered[1:]))
    out: set[Phrase] = set()
    last: str | None = None
    for word in _WORD.findall(text.lower()):
        terms = _word_terms(word)
        if terms and last is not None:
            out.add((last, terms[0]))
        last = terms[-1] if terms else None
    return out


def holds(phrase: Phrase, held: set[Phrase]) -> bool:
    return phrase in held or any(same_stem(phrase[0], a) and same_stem(phrase[1], b) for a, b in held)


def asked_phrases(question: str, content: set[str], rule: Iterable[str], evidence: Iterable[str]) -> set[Phrase]:
    """The question's phrases of two content terms that the rule's texts (the rule, its headings, its sub-units) do
    not hold and at most RARE_SHARE of the evidence texts hold."""
    asked = {p for p in phrases(question) if p[0] in content and p[1] in content}
    if not asked:
        return set()
    own: set[Phrase] = set()
    for text in rule:
        own |= phrases(text)
    asked = {p for p in asked if not holds(p, own)}
    if not asked:
        return set()
    docs = [phrases(text) for text in evidence if text]
    most = max(1, RARE_SHARE * len(docs))
    return {p for p in asked if sum(1 for d in docs if holds(p, d)) <= most}


def cited(stores: CorpusStores, unit_id: str) -> list[str]:
    """The provisions the unit cites (its own REFERENCES edges, held with the stores)."""
    if stores.edges is None:
        return []
    return [e.target for e in stores.edges.edges_of(unit_id)
            if e.source == unit_id and e.type == EdgeType.REFERENCES and e.target in stores.units]


def cited_elsewhere(stores: CorpusStores, unit_id: str) -> list[str]:
    """The provisions the unit cites outside its own article."""
    home = article_id(stores.units, unit_id)
    return list(dict.fromkeys(t for t in cited(stores, unit_id) if article_id(stores.units, t) != home))


def naming(asked: set[Phrase], candidates: Iterable[UnitRecord]) -> list[tuple[int, UnitRecord]]:
    """Each candidate holding any asked phrase, with how many it holds."""
    out = []
    for unit in candidates:
        held = phrases(unit.text)
        found = sum(1 for p in asked if holds(p, held))
        if found:
            out.append((found, unit))
    return out
