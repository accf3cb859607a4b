"""A unit's history and status as shown on its rule card and in its source view (from core.current_law)."""
from __future__ import annotations

from collections.abc import Mapping

from neo4j import Driver
from pydantic import BaseModel, Field, computed_field

from core.current_law import CurrentLaw
from core.stores.queries import current_law, fetch_units


class HistoryEventView(BaseModel):
    action: str
    date: str | None = None
    by: str = ""
    source_id: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def line(self) -> str:
        return (self.action.capitalize() + (f" by {self.by}" if self.by else "")
                + (f", in force {self.date}" if self.date else ""))


class HistoryView(BaseModel):
    status: str = "in_force"
    repealed: bool = False
    repealed_by: str = ""
    repealed_on: str | None = None
    events: list[HistoryEventView] = Field(default_factory=list)
    latest_id: str | None = Field(default=None, description="the amending unit whose words now stand for this one")
    latest_label: str = ""
    current_text: str = Field(default="", description="the newest words, when they differ from the quoted unit's")
    current_by: str = Field(default="", description="the amending provision that gave the current words")
    current_from: str | None = Field(default=None, description="when that provision took effect")
    inserted: bool = Field(default=False, description="an amending provision inserted the unit")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def current_heading(self) -> str:
        """What the current words are headed with, beside the original: who gave them and since when."""
        if self.current_by:
            return f"Current text, as amended by {self.current_by}" + (f" (in force from {self.current_from})" if self.current_from else "")
        return f"Current text ({self.latest_label or self.latest_id})"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def headline(self) -> str:
        """One line for the card: repealed/superseded first, then newer words, then plain history."""
        if self.repealed:
            by = f" by {self.repealed_by}" if self.repealed_by else ""
            on = f" on {self.repealed_on}" if self.repealed_on else ""
            return f"{self.status.replace('_', ' ').capitalize()}{by}{on}: this text is no longer current law."
        if self.current_text and self.current_by:
            since = f" (in force from {self.current_from})" if self.current_from else ""
            return f"Amended by {self.current_by}{since}: the text quoted is the original; the current words follow."
        if self.current_text:
            return f"Superseded: the current words are in {self.latest_label or self.latest_id}."
        if self.inserted and self.events:
            first = self.events[0]
            since = f" (in force from {first.date})" if first.date else ""
            return f"Inserted by {first.by}{since}; the text shown is current."
        if self.events:
            return f"Amended {len(self.events)} time{'s' if len(self.events) > 1 else ''}; the text shown is current."
        return ""


def history_view(law: CurrentLaw | None, latest_texts: Mapping[str, tuple[str, str]] | None = None,
                 quoted_text: str = "") -> HistoryView | None:
    """None when nothing was ever recorded about the unit; `latest_texts` maps a unit id to (label, text)."""
    if law is None or not law.changed and not law.latest_id:
        return None
    label, text = (latest_texts or {}).get(law.latest_id or "", ("", ""))
    by, since = "", None
    if law.current_text and not law.repealed:
        # The words in force as the instructions give them (the quoted new wording, or the unit's own with a phrase
        # replaced), rather than the whole amending provision that holds them.
        giving = next((e for e in reversed(law.events) if e.origin == "edge" and not e.applied), None)
        text = law.current_text
        by, since = (giving.by, giving.date) if giving is not None else ("", None)
    differs = bool(text) and " ".join(text.split()) != " ".join(quoted_text.split())
    return HistoryView(
        status=law.status, repealed=law.repealed, repealed_by=law.repealed_by, repealed_on=law.repealed_on,
        events=[HistoryEventView(action=e.action, date=e.date, by=e.by, source_id=e.source_id) for e in law.events],
        latest_id=law.latest_id, latest_label=label, current_text=text if differs else "",
        current_by=by if differs else "", current_from=since if differs else None, inserted=law.inserted,
    )


def read_history(driver: Driver, database: str, unit_id: str, quoted_text: str) -> HistoryView | None:
    """The unit's history from the graph, with the newest words when an amending provision holds them."""
    law = current_law(driver, database, unit_id)
    latest: dict[str, tuple[str, str]] = {}
    if law is not None and law.latest_id:
        found = fetch_units(driver, database, [law.latest_id]).get(law.latest_id)
        if found is not None:
            latest[found.id] = (found.label, found.text)
    return history_view(law, latest, quoted_text)
