"""Provisions an EU amending act inserts ("In Article 6 of Regulation (EU) 2016/1011, the following paragraph is
added: ‘6. …’", "the following Article 27a is inserted: ‘Article 27a …’") become units of the AMENDED act when it is
in the same parse, so that its law as of a date holds them: not yet in force before the amending act's date, in
force with the quoted words from it.

The new unit hangs under the unit above it in the amended act (the article for a paragraph, the act for an
article), after that unit's own subtree. Its text is the quotation alone (core.quoted_words); its metadata names
the inserting provision and the date the amending act's provisions take effect. Nothing is inserted when the
amended act is not in this parse, the instruction quotes nothing, the act already has a unit at that address, or
the unit above it is missing (the instruction keeps its edge to the address).
"""
from __future__ import annotations

from collections.abc import Callable

from core.current_law import amending_date
from core.domain import Document, LegalUnit, UnitType
from core.quoted_words import quoted_words
from ingest.citations.eu_amendments import Amending, quoted_spans, read_unit
from ingest.citations.eu_refs import Act
from ingest.citations.vi_inserted import place
from ingest.parsers.generic.keys import Segment, unit_key

_TYPES = {"art": UnitType.ARTICLE, "cl": UnitType.CLAUSE, "pt": UnitType.POINT}


def insert_quoted(amending: list[Document], documents: list[Document], slug_of_document: dict[str, str],
                  slug_of_act: Callable[[Act], str | None]) -> int:
    """Adds the units the instructions of the EU acts `amending` insert into `documents`; returns how many."""
    by_slug = {slug_of_document[d.id]: d for d in documents if d.id in slug_of_document}
    by_key = {k: u for d in documents for u in d.units for k in u.keys}
    added = 0
    for document in amending:
        contexts: dict[str, Amending] = {}
        root_meta = document.units[0].metadata if document.units else {}
        for unit in document.units:
            context = contexts.get(unit.parent_id or "", Amending())
            reading = read_unit(unit.text, context, quoted_spans(unit.text))
            contexts[unit.id] = reading.context
            for instruction in reading.instructions:
                if instruction.action != "inserted" or len(instruction.paths) != 1 or instruction.act is None:
                    continue
                slug = slug_of_act(instruction.act)
                amended = by_slug.get(slug or "")
                if amended is None or amended.id == document.id:
                    continue
                new = _new_unit(unit, instruction.paths[0], amended, slug or "", by_key,
                                amending_date(unit.metadata, root_meta))
                if new is not None:
                    by_key.update((k, new) for k in new.keys)
                    added += 1
    return added


def _new_unit(amending: LegalUnit, path: tuple[Segment, ...], amended: Document, slug: str,
              by_key: dict[str, LegalUnit], date: str | None) -> LegalUnit | None:
    if not path or path[-1][0] not in _TYPES:
        return None
    key = unit_key(slug, path)
    parent = by_key.get(unit_key(slug, path[:-1])) if len(path) > 1 else amended.units[0]
    if key in by_key or parent is None or parent.document_id != amended.id:
        return None
    kind, number = path[-1]
    label = f"{amended.units[0].label}, Article {number}" if kind == "art" else f"{parent.label}({number})"
    text = quoted_words(amending.text, label)
    if not text or text == amending.text:
        return None  # the instruction quotes no words for it
    taken = {u.id for u in amended.units}
    unit_id, copy = f"{parent.id}/{kind}-{number.lower()}", 1
    while unit_id in taken:
        copy += 1
        unit_id = f"{parent.id}/{kind}-{number.lower()}~{copy}"
    metadata = {"inserted_by": amending.label, "inserted_by_id": amending.id, "inserted_by_document": amending.document_id}
    if date:
        metadata["effective_date"] = date
    unit = LegalUnit(id=unit_id, corpus=amended.corpus, document_id=amended.id, type=_TYPES[kind], label=label,
                     text=text, parent_id=parent.id, keys=[key], metadata=metadata, tier=amended.units[0].tier)
    place(amended, [unit], parent)
    return unit
