"""A provision's versions for the source view: the timeline of its wordings, the one in force on the date asked,
the changes pending then, and a word-level comparison of two wordings side by side (law.go.kr's 신구조문대비표).

Read from the dated wordings (core.as_of over core.stores.queries.wordings); words are compared with difflib's
SequenceMatcher over whitespace-separated words, so a changed particle or number shows as one word removed and
one added in its place.
"""
from __future__ import annotations

from difflib import SequenceMatcher
from typing import Literal

from neo4j import Driver
from pydantic import BaseModel, Field

from core.as_of import LawAsOf, PendingChange, WordingRow, from_wordings, version_source
from core.stores.queries import UnitRecord, wordings


class VersionView(BaseModel):
    valid_from: str
    valid_until: str | None = None
    source: str = ""
    text: str
    in_force: bool = Field(default=False, description="the wording in force on the date asked")


class DiffPart(BaseModel):
    kind: Literal["same", "removed", "added"]
    text: str


class Comparison(BaseModel):
    """Two wordings side by side: the old column holds same + removed words, the new column same + added."""

    old_from: str
    new_from: str
    old: list[DiffPart] = Field(default_factory=list)
    new: list[DiffPart] = Field(default_factory=list)


class VersionsView(BaseModel):
    as_of: str
    status: str
    versions: list[VersionView] = Field(default_factory=list)
    pending: list[PendingChange] = Field(default_factory=list)
    comparison: Comparison | None = None


def compare(old: str, new: str, old_from: str = "", new_from: str = "") -> Comparison:
    a, b = old.split(), new.split()
    out = Comparison(old_from=old_from, new_from=new_from)
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.old.append(DiffPart(kind="same", text=" ".join(a[i1:i2])))
            out.new.append(DiffPart(kind="same", text=" ".join(b[j1:j2])))
            continue
        if i2 > i1:
            out.old.append(DiffPart(kind="removed", text=" ".join(a[i1:i2])))
        if j2 > j1:
            out.new.append(DiffPart(kind="added", text=" ".join(b[j1:j2])))
    return out


def versions_view(rows: list[WordingRow], law: LawAsOf, compare_with: str | None = None) -> VersionsView:
    """The timeline, and the comparison of the wording in force on `law.as_of` with the one in force on
    `compare_with` (default: the wording before it; none when it has none)."""
    shown = sorted((r for r in rows if not r.empty), key=lambda r: r.valid_from)
    views = [VersionView(valid_from=r.valid_from, valid_until=r.valid_until, text=r.text, in_force=r.holds(law.as_of),
                         source=version_source(r.versions[0]) if r.versions else "") for r in shown]
    out = VersionsView(as_of=law.as_of, status=law.status, versions=views, pending=law.pending)
    current = next((n for n, r in enumerate(shown) if r.holds(law.as_of)), None)
    other = next((n for n, r in enumerate(shown) if compare_with and r.holds(compare_with)), None)
    if other is None and current is not None and current > 0 and not compare_with:
        other = current - 1
    if current is not None and other is not None and other != current:
        old, new = sorted((shown[other], shown[current]), key=lambda r: r.valid_from)
        out.comparison = compare(old.text, new.text, old.valid_from, new.valid_from)
    return out


def read_versions_view(driver: Driver, database: str, unit_id: str, label: str, day: str,
                       compare_with: str | None = None) -> VersionsView | None:
    """None for a unit of an act without versions."""
    rows = [WordingRow(**r) for r in wordings(driver, database, [unit_id]).get(unit_id, [])]
    if not rows:
        return None
    return versions_view(rows, from_wordings(label, unit_id, rows, day), compare_with)


def units_as_of(driver: Driver, database: str, units: list[UnitRecord], day: str) -> list[UnitRecord]:
    """The units' words in force on `day` (a unit not in force then says so instead of words it did not have);
    units of acts without versions as stored."""
    stored = wordings(driver, database, [u.id for u in units])
    out: list[UnitRecord] = []
    for unit in units:
        rows = stored.get(unit.id)
        if not rows:
            out.append(unit)
            continue
        law = from_wordings(unit.label, unit.id, [WordingRow(**r) for r in rows], day)
        text = law.text if law.text is not None else f"(not in force on {day}: {law.status.replace('_', ' ')})"
        out.append(unit.model_copy(update={"text": text, "status": law.status}))
    return out


def pending_lines(driver: Driver, database: str, labels: dict[str, str], day: str) -> dict[str, list[str]]:
    """For each unit (id → label) with changes adopted but not yet in force on `day`, one line per change:
    "Amended with effect from 2026-06-24 by version in force 2026-06-24 (no. 21237, …)"."""
    stored = wordings(driver, database, list(labels))
    out: dict[str, list[str]] = {}
    for unit_id, rows in stored.items():
        law = from_wordings(labels[unit_id], unit_id, [WordingRow(**r) for r in rows], day)
        lines = [f"{p.action.capitalize()} with effect from {p.date}" + (f" by {p.source}" if p.source else "")
                 for p in law.pending]
        if lines:
            out[unit_id] = lines
    return out
