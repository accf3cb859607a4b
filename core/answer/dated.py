"""An answer as of a date: every unit the run records carries the words in force on that date.

The act's versions are indexed once per unit (ingest.versions: the words in force when it was ingested), so the
search ranks units, not copies; what the run reads and quotes is the unit's wording of the date asked
(core.as_of), and a unit not in force that day (not yet, or no longer) is not evidence. Units of acts without
versions pass unchanged.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.as_of import IN_FORCE, PendingChange, WordingRow, from_wordings
from core.stores.queries import UnitRecord


@dataclass(frozen=True)
class DatedWords:
    day: str
    rows: Mapping[str, list[WordingRow]] = field(default_factory=dict)

    def apply(self, unit: UnitRecord) -> UnitRecord | None:
        """The unit as it read on the day; None when it was not in force then."""
        rows = self.rows.get(unit.id)
        if not rows:
            return unit
        law = from_wordings(unit.label, unit.id, rows, self.day)
        if law.status != IN_FORCE or law.text is None:
            return None
        current = next((r for r in rows if r.holds(self.day) and not r.empty), None)
        title = current.title if current is not None and current.title else unit.title
        return unit.model_copy(update={"text": law.text, "title": title})

    def pending(self, unit_id: str, label: str) -> list[PendingChange]:
        rows = self.rows.get(unit_id)
        return from_wordings(label, unit_id, rows, self.day).pending if rows else []


def dated_words(day: str, stored: Mapping[str, list[dict[str, Any]]]) -> DatedWords:
    """From core.stores.queries.versioned_units."""
    return DatedWords(day, {unit: [WordingRow(**r) for r in rows] for unit, rows in stored.items()})

