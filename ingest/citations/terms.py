"""Uses of a defined term → DEFINES edges to the unit that defines it (inferred, not written citations).

Word n-grams are looked up in a dict rather than matched with one huge regex alternation: linear in
the text and immune to backtracking, whatever the number of terms.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from ingest.models import Document, EdgeType, LegalUnit, Mention, UnitType

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
        self._any_case: set[str] = set()
        self._longest = 1
        for document in documents:
            for unit in document.units:
                term = unit.metadata.get("term") if unit.type is UnitType.DEFINITION else None
                if not term:
                    continue
                words = tuple(w.lower() for w in _WORD.findall(term))
                any_case = unit.metadata.get("term_case") == "any"
                if not words or len(words) > (_MAX_QUOTED_TERM_WORDS if any_case else _MAX_TERM_WORDS):
                    continue
                self._longest = max(self._longest, len(words))
                self._terms.setdefault(words, unit.id)
                if any_case:
                    self._any_case.add(unit.id)
                    self._terms.setdefault((*words[:-1], _plural(words[-1])), unit.id)

    def __len__(self) -> int:
        return len(self._terms)

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        if not self._terms or unit.type is UnitType.DEFINITION:
            return []
        words = list(_WORD.finditer(unit.text))
        lowered = [w.group(0).lower() for w in words]
        found: dict[str, Mention] = {}
        i = 0
        while i < len(words):
            match_len = 0
            for n in range(min(self._longest, len(words) - i), 0, -1):
                target = self._terms.get(tuple(lowered[i : i + n]))
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
