"""Guards against a benchmark that asks the same thing many times: near-duplicate questions and hub units."""
from __future__ import annotations

from collections import Counter

from core.lexical import tokenize


class DiversityGuard:
    def __init__(self, max_unit_uses: int = 3, max_similarity: float = 0.85) -> None:
        self.max_unit_uses = max_unit_uses
        self.max_similarity = max_similarity
        self.unit_uses: Counter[str] = Counter()
        self.evidence_sets: set[frozenset[str]] = set()
        self.questions: list[set[str]] = []

    def path_allowed(self, units: list[str]) -> str | None:
        """Why this path would repeat earlier items (None when it would not)."""
        if frozenset(units) in self.evidence_sets:
            return "same evidence as an earlier item"
        # Inferred DEFINES make a few definitions hubs; without a cap they would be in most items.
        overused = [u for u in units if self.unit_uses[u] >= self.max_unit_uses]
        return f"unit used {self.max_unit_uses} times already: {overused[0]}" if overused else None

    def near_duplicate(self, question: str) -> bool:
        """Token-set Jaccard against every kept question; templates make wording collisions likely."""
        terms = set(tokenize(question))
        return any(len(terms & seen) / max(1, len(terms | seen)) >= self.max_similarity for seen in self.questions)

    def keep(self, units: list[str], question: str) -> None:
        self.unit_uses.update(units)
        self.evidence_sets.add(frozenset(units))
        self.questions.append(set(tokenize(question)))
