"""A provision in its document, for the "See the source" view: the document's title, the headings down to the
unit, its neighbours above and below with the answer's quoted words marked, the units it cites and is cited
by, where it sits in the source file, and its history and status from current law. Read as of a date, the
units show the words in force that day (an act ingested with versions, core.answer.dated), and a provision with
several wordings has its version timeline; any two of them compare word by word (core.render.compare).

Read through core.stores.queries (parameterised Cypher); rendered by the chat's AnswerCards element (React,
text only) and by the permalink's source page (Jinja, autoescaped), so nothing here is markup.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from neo4j import Driver
from pydantic import BaseModel, Field

from core.answer.dated import dated_words
from core.as_of import WordingRow
from core.render.chain import edge_word
from core.render.compare import Comparison, compare
from core.render.dated import DatedView, VersionView, dated_view, timeline
from core.render.highlight import Quote, Segment, segments
from core.render.history import HistoryView, read_history
from core.render.source_location import SourceLocation, locate
from core.render.view import AnswerView
from core.stores.queries import LinkedUnit, UnitRecord, law_as_of, source_context, wordings

NEIGHBOURS = 3
WHOLE_DOCUMENT = 2000
# A card's view sent with the answer only up to this many characters of text (a very long provision and its
# neighbours are fetched on click instead of weighing on every answer message).
EMBED_MAX_CHARS = 60_000


class SourceUnitView(BaseModel):
    id: str
    label: str
    title: str = ""
    target: bool = False
    segments: list[Segment] = Field(default_factory=list)
    marked: bool = False


class LinkView(BaseModel):
    id: str
    label: str
    relation: str = Field(description="the edge in words: 'references', 'defines', 'amends' …")
    document_title: str = ""


class SourceView(BaseModel):
    unit_id: str
    label: str
    corpus: str = ""
    status: str = "in_force"
    document_id: str = ""
    document_title: str = ""
    ingested_at: str = ""
    headings: list[str] = Field(default_factory=list, description="the path of headings from the top down")
    units: list[SourceUnitView] = Field(default_factory=list, description="document order, the unit among them")
    hidden_above: int = 0
    hidden_below: int = 0
    cites: list[LinkView] = Field(default_factory=list)
    cited_by: list[LinkView] = Field(default_factory=list)
    location: SourceLocation = Field(default_factory=SourceLocation)
    history: HistoryView | None = None
    quotes_found: bool = Field(default=False, description="whether any quoted words were found in the units shown")
    as_of: str | None = Field(default=None, description="the date the units' words are read for (None: as stored)")
    dated: DatedView | None = Field(default=None, description="the unit's status that day and its pending changes")
    versions: list[VersionView] = Field(default_factory=list, description="the unit's wordings, when it has several")


def _heading(unit: UnitRecord) -> str:
    if unit.title and unit.label and unit.title not in unit.label:
        return f"{unit.label} {unit.title}"
    return unit.label or unit.title or unit.id


def _links(links: Sequence[LinkedUnit]) -> list[LinkView]:
    return [LinkView(id=link.id, label=link.label or link.id, relation=edge_word(link.type),
                     document_title=link.document_title) for link in links]


def read_source_view(driver: Driver, database: str, unit_id: str, quotes: Sequence[Quote] = (),
                     above: int = NEIGHBOURS, below: int = NEIGHBOURS,
                     histories: Mapping[str, HistoryView | None] | None = None,
                     as_of: str | None = None, known_dated: Mapping[str, DatedView] | None = None) -> SourceView | None:
    """None when the unit is not (or no longer) stored. Each quote marks the unit it names (the viewed one
    when it names none), so an extractive claim quoting an item under its rule's lead-in is marked there.
    `histories` holds histories already read (an answer's cards), so they are not read again, and `known_dated`
    their dated lines. `as_of`: the date (ISO) whose words the units show."""
    context = source_context(driver, database, unit_id, above, below)
    if context is None:
        return None
    unit = context.unit
    by_unit: dict[str, list[Quote]] = {}
    for quote in quotes:
        by_unit.setdefault(quote.unit_id or unit.id, []).append(quote)
    shown = [*context.above, unit, *context.below]
    dated: DatedView | None = None
    versions: list[VersionView] = []
    if as_of is not None:
        rows = wordings(driver, database, [record.id for record in shown])
        words = dated_words(as_of, rows)
        # A unit not in force that day keeps its stored words; its dated line says why.
        shown = [words.apply(record) or record for record in shown]
        dated = (known_dated or {}).get(unit.id) or dated_view(law_as_of(driver, database, unit.id, as_of, unit.label))
        versions = timeline(words.rows.get(unit.id, []), as_of)
    units = []
    for record in shown:
        parts = segments(record.text, by_unit.get(record.id, ()))
        units.append(SourceUnitView(id=record.id, label=record.label or record.id, title=record.title,
                                    target=record.id == unit.id, segments=parts, marked=any(p.mark for p in parts)))
    document = context.document
    return SourceView(
        unit_id=unit.id, label=unit.label or unit.id, corpus=unit.corpus, status=unit.status,
        document_id=unit.document_id, document_title=document.title if document else unit.document_id,
        ingested_at=document.ingested_at if document else "",
        headings=[_heading(a) for a in context.headings],
        units=units, hidden_above=context.hidden_above, hidden_below=context.hidden_below,
        cites=_links(context.cites), cited_by=_links(context.cited_by),
        location=locate(document.source_path if document else "", unit.text, context.metadata),
        history=histories[unit.id] if histories is not None and unit.id in histories else read_history(
            driver, database, unit.id, unit.text),
        quotes_found=any(u.marked for u in units), as_of=as_of, dated=dated, versions=versions,
    )


def read_comparison(driver: Driver, database: str, unit_id: str, old_from: str, new_from: str) -> Comparison | None:
    """Two of the unit's wordings, named by their dates in force, compared word by word; None when the unit has
    no wording in force from either date."""
    rows = [WordingRow(**r) for r in wordings(driver, database, [unit_id]).get(unit_id, [])]
    by_start = {r.valid_from: r for r in rows if not r.empty}
    old, new = by_start.get(old_from), by_start.get(new_from)
    if old is None or new is None:
        return None
    if old.valid_from > new.valid_from:
        old, new = new, old
    return compare(unit_id, old.valid_from, old.text, new.valid_from, new.text, old.title or "", new.title or "")


def card_sources(driver: Driver, database: str, view: AnswerView) -> dict[str, SourceView]:
    """The source view of each of an answer's rule cards as a click would read it, read with the answer so the
    first click on a card needs no request; views longer than EMBED_MAX_CHARS are left to the click."""
    quotes = answer_quotes(view)
    histories = {card.unit_id: card.history for card in view.cards}
    known = {card.unit_id: card.dated for card in view.cards if card.dated is not None}
    found: dict[str, SourceView] = {}
    for card in view.cards:
        source = read_source_view(driver, database, card.unit_id, quotes, histories=histories, as_of=view.as_of,
                                  known_dated=known)
        if source is not None and sum(len(s.text) for u in source.units for s in u.segments) <= EMBED_MAX_CHARS:
            found[card.unit_id] = source
    return found


def answer_quotes(view: AnswerView) -> list[Quote]:
    """Every claim of an answer as a quote of the unit it quotes (a sub-unit, or its rule's own unit)."""
    return [Quote(text=claim.text, span=claim.span, unit_id=claim.unit_id or card.unit_id)
            for card in view.cards for claim in card.claims]
