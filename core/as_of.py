"""One provision as the law stood on a date: its words, status, history and the changes still to come.

Two records date a provision's words, and one reading serves both:
- dated wordings: the versions of one act ingested as one (ingest.versions), each of a unit's distinct words
  with the interval [valid_from, valid_until) it held in force, a staged start (부칙 "다만, …") included;
- amendment edges (core.current_law): an amending provision's instruction with its date in force. Its new words
  (a quoted text, a replaced phrase, the amending unit's own words) stand from that date; before it the unit's
  own words do. An insertion dated later means the unit did not exist yet; a repeal, that it no longer does.

A change adopted but not yet in force on the date is `pending`: a version promulgated on or before the date
that takes force after it, or an amending instruction dated after it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pydantic import BaseModel, Field

from core.current_law import INACTIVE, NEW_TEXT, REMOVING, CurrentLaw, Incoming, current_text, dated_order, edge_action

IN_FORCE, NOT_YET, REPEALED, NOT_FOUND = "in_force", "not_yet_in_force", "repealed", "not_found"
# A Korean consolidated text prints a deleted provision as "제5조의3 삭제 <2011.8.4>" / "③ 삭제 <…>".
_DELETED = re.compile(r"^\s*(?:제\s?\d+\s?조(?:의\s?\d+)?|[①-⑳]|\d{1,3}\.)?\s*(?:\([^)]{0,40}\))?\s*삭제\s*(?:<[^>]{0,80}>)?\s*$")


class WordingRow(BaseModel):
    """A stored dated wording (core.stores.queries.WORDING_FIELDS)."""

    unit_id: str
    valid_from: str
    valid_until: str | None = None
    text: str = ""
    title: str | None = ""
    versions: list[str] = Field(default_factory=list)
    staged: bool | None = False

    @property
    def empty(self) -> bool:
        return self.valid_until is not None and self.valid_until <= self.valid_from

    def holds(self, day: str) -> bool:
        return self.valid_from <= day and (self.valid_until is None or day < self.valid_until)


class LawEvent(BaseModel):
    date: str | None = None
    action: str
    source: str = ""  # the amending provision or version that made the change


class PendingChange(BaseModel):
    date: str
    action: str
    source: str = ""
    text: str | None = None  # the words that will stand, where known


class LawAsOf(BaseModel):
    label: str
    unit_id: str | None = None
    as_of: str
    status: str
    text: str | None = None
    in_force_from: str | None = None
    in_force_until: str | None = None
    events: list[LawEvent] = Field(default_factory=list)
    pending: list[PendingChange] = Field(default_factory=list)
    applies_from: str | None = None  # a staged start the act itself gives this provision's words
    note: str | None = None


def deleted(text: str) -> bool:
    return bool(_DELETED.match(" ".join(text.split())))


def version_source(version_id: str) -> str:
    """"2026-04-02|2025-04-01|20887" → "version in force 2026-04-02 (no. 20887, promulgated 2025-04-01)"."""
    effective, promulgated, number = (version_id.split("|") + ["", ""])[:3]
    said = ", ".join(p for p in (f"no. {number}" if number else "", f"promulgated {promulgated}" if promulgated else "") if p)
    return f"version in force {effective}" + (f" ({said})" if said else "")


def from_wordings(label: str, unit_id: str, rows: Iterable[WordingRow], day: str, act_start: str | None = None) -> LawAsOf:
    """The unit's words on `day` from its dated wordings (a versioned act whose earliest version ingested is in
    force from `act_start`: before it, what the act said is not known here)."""
    rows = sorted((r for r in rows if not r.empty), key=lambda r: r.valid_from)
    out = LawAsOf(label=label, unit_id=unit_id, as_of=day, status=NOT_FOUND)
    if act_start is not None and day < act_start:
        out.note = f"no version of the act in force on {day} is ingested; the earliest is in force from {act_start}"
        out.pending = [PendingChange(date=r.valid_from, action="in force", source=version_source(r.versions[0]),
                                     text=r.text) for r in rows[:1] if r.versions and _promulgated_by(r, day)]
        return out
    previous: WordingRow | None = None
    for row in rows:
        source = version_source(row.versions[0]) if row.versions else "the version in force before it"
        action = "in force" if previous is None else ("deleted" if deleted(row.text) else "amended")
        if previous is not None and previous.valid_until != row.valid_from:
            action = "reinserted"
        if row.valid_from <= day:
            out.events.append(LawEvent(date=row.valid_from, action=action + (" (staged start)" if row.staged else ""),
                                       source=source))
        elif _promulgated_by(row, day):
            out.pending.append(PendingChange(date=row.valid_from, action=action, source=source, text=row.text))
        previous = row
    current = next((r for r in rows if r.holds(day)), None)
    if current is not None:
        out.text, out.in_force_from, out.in_force_until = current.text, current.valid_from, current.valid_until
        out.status = REPEALED if deleted(current.text) else IN_FORCE
        if current.staged:
            out.applies_from = current.valid_from
    elif rows and day < rows[0].valid_from:
        out.status, out.in_force_from = NOT_YET, rows[0].valid_from
        staged = next((r for r in rows if r.staged), None)
        out.applies_from = staged.valid_from if staged is not None else None
    elif rows:
        ended = [r for r in rows if r.valid_until is not None and r.valid_until <= day]
        out.status, out.in_force_until = REPEALED, (ended[-1].valid_until if ended else None)
    # Words the act's own addenda start later than the act are "not yet applicable" on the earlier dates.
    later = next((p for p in out.pending if any(r.staged and r.valid_from == p.date for r in rows)), None)
    if later is not None and out.applies_from is None:
        out.applies_from = later.date
    return out


def _promulgated_by(row: WordingRow, day: str) -> bool:
    """Adopted on or before `day`: a version promulgated by then (a later one was not yet known)."""
    promulgated = [v.split("|")[1] or v.split("|")[0] for v in row.versions if v.count("|") >= 2]
    return not promulgated or min(promulgated) <= day


def from_edges(law: CurrentLaw, label: str, text: str, status: str, incoming: list[Incoming], day: str,
               words_of: Callable[[str], str | None] | None = None, inserted_by: str | None = None) -> LawAsOf:
    """The unit's words on `day` from amendment edges with dates (an amending act beside the act it amends).

    `words_of(unit_id)` reads an amending unit's own words: where the instruction quotes none for this unit
    ("Article 5 is replaced by the following" resolved to the amending article), those stand for it."""
    out = LawAsOf(label=label, unit_id=law.unit_id, as_of=day, status=IN_FORCE, text=text)
    # In `dated_order`: the graph hands the edges over in no fixed order, and the last removal, the newest words and
    # the pending changes below are read from this order.
    outside = sorted((e for e in incoming if not e.same_document and e.resolution == "exact"), key=dated_order)
    applied = [e for e in outside if not e.date or e.date <= day]
    later = [e for e in outside if e.date and e.date > day]
    for event in law.events:
        if event.date and event.date > day and not event.applied and event.origin == "edge":
            continue
        if event.date is None or event.date <= day:
            out.events.append(LawEvent(date=event.date, action=event.action, source=event.by))
    for edge in later:
        action = edge_action(edge)
        words = edge.new_text or (words_of(edge.source_id) if words_of and action in NEW_TEXT and not edge.words else None)
        if edge.words and not edge.new_text:
            words = current_text(text, [edge])
        out.pending.append(PendingChange(date=edge.date or "", action=action, source=edge.source_label or edge.source_id,
                                         text=words))
    # Before its insertion the unit was not there; before a dated repeal it was.
    insertion = next((e for e in outside if inserted_by and e.source_id == inserted_by), None)
    if insertion is not None and insertion.date and insertion.date > day:
        out.status, out.text, out.in_force_from = NOT_YET, None, insertion.date
        return out
    removals = [e for e in applied if edge_action(e) in REMOVING]
    giving = [e for e in applied if edge_action(e) in NEW_TEXT or e.words or e.new_text]
    if removals and not any((g.date or "") > (removals[-1].date or "") for g in giving):
        out.status, out.in_force_until = REPEALED, removals[-1].date
        return out
    if status in INACTIVE and not later:
        out.status = REPEALED
        return out
    words = current_text(text, applied)
    if words is None and giving and words_of is not None:
        newest = max(giving, key=lambda e: e.date or "")
        if newest.action is not None and edge_action(newest) in NEW_TEXT and newest.source_id != inserted_by:
            words = words_of(newest.source_id)
    out.text = words if words is not None else text
    dated = [e.date for e in giving if e.date]
    out.in_force_from = max(dated) if dated else (insertion.date if insertion is not None else None)
    nxt = [p.date for p in out.pending if p.date]
    out.in_force_until = min(nxt) if nxt else None
    return out
