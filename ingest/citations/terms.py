"""Uses of a defined term → DEFINES edges to the unit that defines it (inferred, not written citations).

Word n-grams are looked up in a dict rather than matched with one huge regex alternation: linear in
the text and immune to backtracking, whatever the number of terms.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.models import Mention

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_MAX_TERM_WORDS = 6
# Quoted EU-style terms run longer ("ICT third-party service provider established in a third country").
_MAX_QUOTED_TERM_WORDS = 12


class DefinedTermFinder:
    def __init__(self, documents: Iterable[Document]) -> None:
        # Multi-word terms match in any case ("covered entity"); a one-word term only when written
        # Capitalised, because lower-case single words ("payment") are mostly ordinary English.
        self._terms: dict[tuple[str, ...], str] = {}
        self._key_of: dict[str, tuple[str, ...]] = {}
        # Terms their definition marks as used in any case (EU "‘controller’ means"), plurals included.
        # They hold "for the purposes of this Regulation": in their own act and the acts made under it
        # (a delegated act "supplementing Regulation X" uses X's terms), not in other acts of the corpus.
        self._any_case: set[str] = set()
        self._scoped: dict[str, dict[tuple[str, ...], str]] = {}
        self._scopes: dict[str, list[str]] = {}
        self._longest = 1
        documents = list(documents)
        for document in documents:
            parent = document.units[0].metadata.get("supplements") if document.units else None
            self._scopes[document.id] = [document.id, *(d.id for d in documents if parent and parent in d.names)]
            for unit in document.units:
                term = unit.metadata.get("term") if unit.type is UnitType.DEFINITION else None
                if not term:
                    continue
                words = tuple(w.lower() for w in _WORD.findall(term))
                any_case = unit.metadata.get("term_case") == "any"
                if not words or len(words) > (_MAX_QUOTED_TERM_WORDS if any_case else _MAX_TERM_WORDS):
                    continue
                self._longest = max(self._longest, len(words))
                if any_case:
                    self._any_case.add(unit.id)
                    scoped = self._scoped.setdefault(document.id, {})
                    scoped.setdefault(words, unit.id)
                    scoped.setdefault((*words[:-1], _plural(words[-1])), unit.id)
                else:
                    self._terms.setdefault(words, unit.id)

    def __len__(self) -> int:
        return len(self._terms) + sum(len(s) for s in self._scoped.values())

    def _lookup(self, words: tuple[str, ...], scopes: list[str]) -> str | None:
        for scope in scopes:
            target = self._scoped.get(scope, {}).get(words)
            if target is not None:
                return target
        return self._terms.get(words)

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        if not len(self) or unit.type is UnitType.DEFINITION:
            return []
        scopes = self._scopes.get(document.id, [document.id])
        words = list(_WORD.finditer(unit.text))
        lowered = [w.group(0).lower() for w in words]
        found: dict[str, Mention] = {}
        i = 0
        while i < len(words):
            match_len = 0
            for n in range(min(self._longest, len(words) - i), 0, -1):
                target = self._lookup(tuple(lowered[i : i + n]), scopes)
                if target is None:
                    continue
                if n == 1 and not words[i].group(0)[0].isupper() and target not in self._any_case:
                    continue
                if target != unit.id and target not in found:
                    start, end = words[i].start(), words[i + n - 1].end()
                    found[target] = Mention(
                        source_id=unit.id,
                        text=unit.text[start:end],
                        start=start,
                        end=end,
                        keys=[],
                        edge_type=EdgeType.DEFINES,
                        inferred=True,
                    )
                    found[target].keys.append(f"unit:{target}")
                match_len = n
                break
            i += max(match_len, 1)
        return list(found.values())


def _plural(word: str) -> str:
    """'controller' → 'controllers', 'entity' → 'entities', 'process' → 'processes' (regular English)."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"
