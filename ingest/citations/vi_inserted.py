"""Provisions an amending instruction inserts ("Bổ sung Điều 15a như sau: “Điều 15a. …”", "Bổ sung khoản 3 vào
Điều 7 như sau: “3. …”") become units of the AMENDED act, so that its current law holds them.

The new unit hangs where the amended act would print it: an article beside the article it follows (in the
same chapter or section), a clause or point inside the unit named after "vào". Its text is the quoted new
wording; its metadata names the inserting provision and the date its act takes effect. Nothing is inserted
when the act is not in this parse, the instruction quotes no wording, or the act already has a unit at that
address (the instruction then keeps its edge to the unit it names).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from core.current_law import amending_date, own_part
from core.domain import Document, LegalUnit, UnitType
from ingest.citations.vi_amendments import Action, Instruction
from ingest.parsers.generic.keys import Segment, unit_key
from ingest.parsers.generic.structure import quoted_provision_units

_TYPES = {"art": UnitType.ARTICLE, "cl": UnitType.CLAUSE, "pt": UnitType.POINT}
_WORDS = {"art": "Điều", "cl": "khoản", "pt": "điểm"}
_HEADING = re.compile(r"\s{0,3}Điều\s{1,3}\w{1,6}\s{0,3}[.:]?\s{0,3}(?P<title>[^\n]{0,200})")
_ID_JUNK = re.compile(r"[^\w.]+")


class Inserter:
    """Adds inserted units to the documents of one parse; `slug_of(document)` is the document's key slug."""

    def __init__(self, documents: list[Document], slug_of: Callable[[Document], str]) -> None:
        self.slug_of = {d.id: slug_of(d) for d in documents}
        self.documents = {d.id: d for d in documents}
        self.by_key: dict[str, LegalUnit] = {}
        for document in documents:
            for unit in document.units:
                for key in unit.keys:
                    self.by_key.setdefault(key, unit)

    def insert(self, instruction: Instruction, amending: LegalUnit, amended: Document) -> LegalUnit | None:
        """The unit the instruction inserts into `amended`, added to it; None when it inserts none here."""
        new = instruction.new
        if instruction.action is not Action.ADD or not new or new[-1][0] not in _TYPES or not instruction.new_text.strip():
            return None
        slug = self.slug_of[amended.id]
        key = unit_key(slug, new)
        if key in self.by_key:
            return None
        parent = self._parent(slug, new, amended)
        if parent is None:
            return None
        kind, number = new[-1]
        root = amended.units[0]
        label = f"{root.label} {_WORDS['art']} {number}" if kind == "art" else f"{parent.label} {_WORDS[kind]} {number}"
        text = own_part(instruction.new_text, label.lower(), 1)
        heading = _HEADING.match(text) if kind == "art" else None
        metadata = {"inserted_by": amending.label, "inserted_by_id": amending.id, "inserted_by_document": amending.document_id}
        source = self.documents.get(amending.document_id)
        date = amending_date(amending.metadata, source.units[0].metadata if source is not None and source.units else {})
        if date:
            metadata["effective_date"] = date
        units = self._article_units(text, amended, slug, parent) if kind == "art" else []
        if not units or units[0].keys != [key]:
            units = [LegalUnit(id=self._free_id(amended, f"{parent.id}/{kind}-{_ID_JUNK.sub('-', number.lower()).strip('-')}"),
                               corpus=amended.corpus, document_id=amended.id, type=_TYPES[kind], label=label,
                               title=heading.group("title").strip() if heading else "", text=text, parent_id=parent.id)]
        for unit in units:
            unit.tier, unit.keys = root.tier, unit.keys or [key]
            unit.metadata.update(metadata)
            for own in unit.keys:
                self.by_key.setdefault(own, unit)
        place(amended, units, self._after(slug, instruction, new, parent))
        return units[0]

    def _article_units(self, text: str, amended: Document, slug: str, parent: LegalUnit) -> list[LegalUnit]:
        """An inserted article as the act's own would be: its heading unit, its clauses and points below it."""
        root = amended.units[0]
        units = quoted_provision_units(text, root.metadata.get("grammar", ""), amended.corpus, amended.id, slug, root.label)
        taken = {u.id for u in amended.units}
        if not units or units[0].type is not UnitType.ARTICLE or any(
                u.parent_id == amended.id for u in units[1:]) or any(u.id.replace(amended.id, parent.id, 1) in taken for u in units):
            return []  # one article and what is under it, or the quotation is kept as one unit
        for unit in units:
            unit.id = unit.id.replace(amended.id, parent.id, 1)
            unit.parent_id = (unit.parent_id or amended.id).replace(amended.id, parent.id, 1)
        return units

    def _parent(self, slug: str, new: tuple[Segment, ...], amended: Document) -> LegalUnit | None:
        if len(new) > 1:  # a clause or point goes into the unit above it, which must exist
            return self.by_key.get(unit_key(slug, new[:-1]))
        # An article sits beside the one whose number it extends (Điều 15a beside Điều 15), else under the act.
        anchor = self.by_key.get(extended_key(unit_key(slug, new)) or "")
        by_id = {u.id: u for u in amended.units}
        return by_id.get(anchor.parent_id or "") if anchor is not None else amended.units[0]

    def _after(self, slug: str, instruction: Instruction, new: tuple[Segment, ...], parent: LegalUnit) -> LegalUnit:
        """The unit whose subtree the new one follows: the one named after "vào sau" / the one it extends, else
        the parent (the new unit then closes it)."""
        for path in instruction.targets:
            named = self.by_key.get(unit_key(slug, path))
            if named is not None and named.id != parent.id and len(path) == len(new):
                return named
        return self.by_key.get(extended_key(unit_key(slug, new)) or "", parent) if len(new) == 1 else parent

    @staticmethod
    def _free_id(amended: Document, wanted: str) -> str:
        taken = {u.id for u in amended.units}
        candidate, copy = wanted, 1
        while candidate in taken:
            copy += 1
            candidate = f"{wanted}~{copy}"
        return candidate


def extended_key(key: str) -> str | None:
    """The address a lettered number extends ("…:art:15a" → "…:art:15"); None when the number has no letter."""
    match = re.fullmatch(r"(?P<head>.*:)(?P<num>\d+)[a-zđ]{1,2}", key)
    return f"{match['head']}{match['num']}" if match else None


def keep_stored(documents: list[Document], stored: list[LegalUnit]) -> int:
    """Units another document inserted into these (read back from the store, `stored` in reading order) go back into
    a run that re-reads the amended act without its amender: the amender's edges into them stay. A unit whose
    address the act now has itself, or whose parent it no longer has, is left out. Returns how many were kept."""
    by_id = {d.id: d for d in documents}
    kept = 0
    for unit in stored:
        document = by_id.get(unit.document_id)
        if document is None:
            continue
        present = {u.id: u for u in document.units}
        by_key = {k: u for u in document.units for k in u.keys}
        parent = present.get(unit.parent_id or "")
        if parent is None or unit.id in present or set(unit.keys) & by_key.keys():
            continue
        extends = by_key.get(extended_key(unit.keys[0]) or "") if unit.keys else None
        place(document, [unit], extends if extends is not None and extends.parent_id == parent.id else parent)
        kept += 1
    return kept


def place(amended: Document, new: list[LegalUnit], after: LegalUnit) -> None:
    """Into the document's reading order: after `after` and everything under it, and after units inserted
    there before (Điều 15b after the Điều 15a inserted by the item above)."""
    units = amended.units
    index = next(n for n, u in enumerate(units) if u.id == after.id)
    inside = {after.id}
    position = index + 1
    while position < len(units) and (units[position].parent_id in inside or "inserted_by" in units[position].metadata
                                     and units[position].parent_id in {after.parent_id, new[0].parent_id}):
        inside.add(units[position].id)
        position += 1
    units[position:position] = new
    for order, each in enumerate(units):
        each.order = order
