"""What a card and a source view say about the date an answer applies: "as in force on D", the changes adopted
but not yet in force ("amended with effect from 2026-06-24 by …"), and a provision's version timeline.

Built from core.as_of's reading (LawAsOf, WordingRow); text only, the templates and the chat's element escape it.
"""
from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field, computed_field

from core.as_of import IN_FORCE, NOT_FOUND, NOT_YET, REPEALED, LawAsOf, WordingRow, deleted, version_source


class PendingView(BaseModel):
    date: str
    action: str
    source: str = ""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def line(self) -> str:
        return f"{self.action.capitalize()} with effect from {self.date}" + (f" by {self.source}" if self.source else "")


class DatedView(BaseModel):
    as_of: str
    status: str = IN_FORCE
    in_force_from: str | None = None
    in_force_until: str | None = None
    applies_from: str | None = None
    note: str | None = None
    pending: list[PendingView] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def line(self) -> str:
        """One line for the card and the source view: the words shown are those of this date."""
        if self.status == NOT_YET:
            start = self.applies_from or self.in_force_from
            return f"Not yet in force on {self.as_of}" + (f": applies from {start}" if start else "")
        if self.status == REPEALED:
            return f"No longer in force on {self.as_of}" + (f" (until {self.in_force_until})" if self.in_force_until else "")
        if self.status == NOT_FOUND:
            return self.note or f"No wording of this provision is known for {self.as_of}"
        since = f" (this wording from {self.in_force_from})" if self.in_force_from else ""
        return f"As in force on {self.as_of}{since}"


def dated_view(law: LawAsOf | None) -> DatedView | None:
    if law is None:
        return None
    return DatedView(as_of=law.as_of, status=law.status, in_force_from=law.in_force_from,
                     in_force_until=law.in_force_until, applies_from=law.applies_from, note=law.note,
                     pending=[PendingView(date=p.date, action=p.action, source=p.source) for p in law.pending])


class VersionView(BaseModel):
    """One wording of a provision on its timeline."""

    valid_from: str
    valid_until: str | None = None
    title: str = ""
    text: str = ""
    source: str = Field(default="", description="the version that first printed these words")
    staged: bool = False
    current: bool = Field(default=False, description="the wording in force on the date asked")
    pending: bool = Field(default=False, description="adopted but not yet in force on the date asked")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def span(self) -> str:
        until = f" until {self.valid_until}" if self.valid_until else ""
        gone = " (deleted)" if deleted(self.text) else ""
        return f"in force from {self.valid_from}{until}{gone}"


def timeline(rows: Iterable[WordingRow], day: str) -> list[VersionView]:
    """The provision's wordings oldest first, the one in force on `day` marked; none when it has only one."""
    kept = sorted((r for r in rows if not r.empty), key=lambda r: r.valid_from)
    if len(kept) < 2:
        return []
    return [VersionView(valid_from=r.valid_from, valid_until=r.valid_until, title=r.title or "", text=r.text,
                        source=version_source(r.versions[0]) if r.versions else "", staged=bool(r.staged),
                        current=r.holds(day), pending=r.valid_from > day) for r in kept]
