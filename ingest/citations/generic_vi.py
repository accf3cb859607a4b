"""Vietnamese amending documents inside the generic finder: instructions (vi_amendments.py) → typed Mentions.

Each named target becomes one AMENDS / REPLACES mention from the amending item to the target provision of
the amended act (an External named by act and provision when that act is not ingested). An instruction
whose target the ingested act does not have keeps a REFERENCES mention with its raw words, and a warning
for the ingest report. The instructions are also recorded on their unit (metadata "instructions": action,
act, targets, replaced words, the quoted new text), so the new wording travels with the amending provision.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from core.current_law import ACT_WIDE
from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.citations.generic_refs import Ref, Target, ref_keys
from ingest.citations.vi_acts import ActRef, StatedActs
from ingest.citations.vi_amendments import Action, Context, Instruction, document_context, provision_paths, read_unit
from ingest.citations.vi_inserted import Inserter
from ingest.models import Mention
from ingest.parsers.generic.keys import Segment, number_name_keys, unit_key

_WORDS = {"pt": "điểm", "cl": "khoản", "art": "Điều", "sec": "Mục", "ch": "Chương", "annex": "Phụ lục", "form": "Mẫu số"}


def provision_label(path: tuple[Segment, ...]) -> str:
    """(("art","7"),("cl","2")) → "khoản 2 Điều 7", the way the instruction writes it."""
    return " ".join(f"{_WORDS.get(k, k)} {v}" for k, v in reversed(path))


def _edge(instruction: Instruction) -> tuple[EdgeType, str]:
    action, part = instruction.action, instruction.part
    if action is Action.REPEAL and part in ("words", "title"):
        return EdgeType.AMENDS, f"{part} repealed"
    if action is Action.REPEAL:
        return EdgeType.REPLACES, "repealed"
    if action is Action.REPLACE:
        return EdgeType.REPLACES, "replaced"
    if action is Action.REPLACE_WORDS:
        return EdgeType.AMENDS, ACT_WIDE  # to the act itself when no provision is named (core.current_law.act_wide)
    if action is Action.ADD:
        return EdgeType.AMENDS, "inserted"
    # "Sửa đổi … như sau: “…”" gives the provision's whole new wording.
    return EdgeType.AMENDS, "replaced" if instruction.new_text and part is None else "amended"


class AmendingInstructions:
    """Reads every Vietnamese (non-codified) document's instructions once, for the finder to emit."""

    def __init__(self, documents: list[Document], slug_of: Callable[[Document], str],
                 named: Callable[[list[str]], Target]) -> None:
        self.by_unit: dict[str, list[Instruction]] = {}
        self.warnings: list[str] = []
        units: dict[str, LegalUnit] = {}
        for document in documents:
            root = document.units[0] if document.units else None
            if root is None or root.metadata.get("grammar") != "vi" or root.metadata.get("doc_type") == "codification":
                continue
            self._read(document, root)
            units.update((u.id, u) for u in document.units if u.id in self.by_unit)
        self._insert(documents, slug_of, named, units)
        self.keys: dict[str, str] = {}
        for document in documents:
            for unit in document.units:
                for key in unit.keys:
                    self.keys.setdefault(key, unit.id)
        for unit_id, found in self.by_unit.items():
            # Recorded on the amending item: its quoted new text belongs to the targets, not to its own structure.
            units[unit_id].metadata["instructions"] = json.dumps([_record(i) for i in found], ensure_ascii=False)

    def _insert(self, documents: list[Document], slug_of: Callable[[Document], str], named: Callable[[list[str]], Target],
                units: dict[str, LegalUnit]) -> None:
        """Provisions the instructions insert become units of the amended act (vi_inserted), and the instruction's
        target is the new unit rather than the one it goes after."""
        inserter = Inserter(documents, slug_of)
        by_slug = {slug_of(d): d for d in documents}
        for unit_id, found in self.by_unit.items():
            for instruction in found:
                if instruction.action is not Action.ADD or instruction.act is None or instruction.new is None:
                    continue
                slug = named(instruction.act.keys()).slug
                amended = by_slug.get(slug) if slug is not None else None
                if amended is not None and inserter.insert(instruction, units[unit_id], amended) is not None:
                    # The units added beside it ("khoản 17 và khoản 18") amend the unit they go into.
                    instruction.targets = list(dict.fromkeys([instruction.new, *(m[:-1] for m in instruction.more_new if m[:-1])]))

    def _read(self, document: Document, root: LegalUnit) -> None:
        number = root.metadata.get("number")
        own = ActRef("", number) if number else None
        # The numbers the document gives the acts it names by title ("Luật điện lực số 28/2004/QH11" in the preamble).
        stated = StatedActs("\n".join(u.text for u in document.units))
        doc_act = document_context(root, stated)
        if doc_act is not None and doc_act.same_number(own):
            doc_act = None
        contexts: dict[str, Context] = {root.id: Context(act=doc_act)}
        for unit in document.units[1:]:
            above = contexts.get(unit.parent_id or "", Context())
            # An article starts afresh from the act its chapter names ("Chương I. SỬA ĐỔI … CỦA NGHỊ ĐỊNH SỐ 87/2009/NĐ-CP"
            # in a decree that amends several), else the act the title names.
            inherited = Context(act=above.act or doc_act) if unit.type is UnitType.ARTICLE else above
            reading = read_unit(unit, inherited, own, stated)
            contexts[unit.id] = reading.context
            found = [i for i in reading.instructions if i.act is not None and (i.targets or not i.umbrella)]
            if found:
                self.by_unit[unit.id] = found

    def mentions(self, unit: LegalUnit, named: Callable[[list[str]], Target], label: str) -> list[Mention]:
        out: list[Mention] = []
        for instruction in self.by_unit.get(unit.id, []):
            act = instruction.act
            assert act is not None
            target = named(act.keys())
            if target.slug is not None and any(k.startswith(f"gen:{target.slug}:") for k in unit.keys):
                # A title that finds the amending act itself ("Luật Điện ảnh" in the Luật Điện ảnh that replaces an
                # older one) names another act of that title, not ingested here.
                target = Target(None, external=act.keys()[0], named=True)
            edge_type, action = _edge(instruction)
            if not instruction.targets and not instruction.umbrella:
                self.warnings.append(f"{label}: the instruction “{instruction.raw[:120]}” names a provision whose article "
                                     "is not written and not given by the item above it; no edge")
            for path in instruction.targets:
                keys = ref_keys(Ref(target, (path,)))
                name = f"{act.name()}, {provision_label(path)}" if path else act.name()
                typed_as: EdgeType = edge_type
                # An addition that made no unit of its own (a form not quoted, an act not in this parse) amends the
                # unit it goes into or after: that unit keeps its words.
                typed_action: str | None = "amended" if instruction.action is Action.ADD and path != instruction.new else action
                if target.slug is not None and path and unit_key(target.slug, path) not in self.keys:
                    typed_as, typed_action = EdgeType.REFERENCES, None
                    self.warnings.append(f"{label}: the instruction “{instruction.raw[:120]}” names {provision_label(path)} of "
                                         f"{act.name()}, which has no such provision; kept as a reference, not an amendment")
                out.append(Mention(source_id=unit.id, text=instruction.raw, start=instruction.start, end=instruction.end,
                                   keys=keys, edge_type=typed_as, typed=True, name=name, action=typed_action))
        return out

    def footnote_mentions(self, unit: LegalUnit, named: Callable[[list[str]], Target]) -> list[Mention]:
        """A consolidated unit's footnote names the provision that amended it ("khoản 1 Điều 8 Thông tư số
        50/2017/TT-BYT"): when that act is ingested, the same AMENDS its own instruction makes, from the amending
        provision to this unit (the footnote itself is history, never an edge from here)."""
        out: list[Mention] = []
        for record in footnote_records(unit):
            target = named(number_name_keys(None, record["act"]))
            if target.slug is None:
                continue
            path = provision_path(record["by"])
            source = next((self.keys[k] for k in ref_keys(Ref(target, (path,))) if k in self.keys), None) if path else None
            if source is None:
                continue
            action = {"amended": "amended", "inserted": "inserted", "repealed": "repealed", "replaced": "replaced"}[record["action"]]
            out.append(Mention(source_id=source, text=record["by"], start=0, end=0, keys=[f"unit:{unit.id}"],
                               edge_type=EdgeType.REPLACES if action in ("repealed", "replaced") else EdgeType.AMENDS,
                               typed=True, action=action))
        return out

    def spans(self, unit_id: str) -> list[tuple[int, int]]:
        return [(i.start, i.end) for i in self.by_unit.get(unit_id, [])]


def footnote_records(unit: LegalUnit) -> list[dict[str, str]]:
    """The unit's consolidated-text footnote records (vi_consolidated: marker, action, by, act)."""
    try:
        records = json.loads(unit.metadata.get("amendment_history") or "[]")
    except json.JSONDecodeError:
        return []
    return [r for r in records if isinstance(r, dict) and {"marker", "act", "by", "action"} <= r.keys()] if isinstance(records, list) else []


def provision_path(written: str) -> tuple[Segment, ...]:
    """"khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT" → (("art","8"),("cl","1"))."""
    paths = provision_paths(written)
    return paths[0] if paths else ()


def _record(instruction: Instruction) -> dict:
    record: dict = {"action": instruction.action.value, "act": instruction.act.name() if instruction.act else None,
                    "targets": [provision_label(p) or "(whole act)" for p in instruction.targets]}
    for name in ("part", "words_from", "words_to", "new_text"):
        if getattr(instruction, name):
            record[name] = getattr(instruction, name)
    if instruction.new:
        record["new"] = provision_label(instruction.new)
    if instruction.excepted:
        record["except"] = [provision_label(p) for p in instruction.excepted]
    return record
