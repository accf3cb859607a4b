"""'Current law' of one unit, from what ingest recorded: typed amendment edges and amendment history.

- AMENDS / REPLACES edges from an amending provision to the amended unit, with the instruction's action when the
  grammar read one; only an edge resolved to this exact unit says something about it.
- metadata["amendment_history"], a JSON list from grammars that state history beside the text (Korean `<개정 …>`
  tags, Vietnamese provenance notes, UK "F47 …" notes).

`read` turns them into one CurrentLaw: in force or repealed, every event in date order, and the unit holding the
newest text. The graph query (core.stores.queries.current_law) and bench.real both call it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

from core.domain import Edge, EdgeType, LegalUnit, StoreError

INACTIVE = frozenset({"repealed", "expired", "revoked", "superseded"})
# Actions that take the unit's words out of force, and those that put new words in their place.
REMOVING = frozenset({"deleted", "repealed", "omitted", "revoked"})
NEW_TEXT = frozenset({"replaced", "substituted", "inserted", "added"})
_VI_KINDS = {"amended": "amended", "supplemented": "inserted", "repealed": "repealed", "replaced": "replaced"}
_AMENDMENT_TYPES = frozenset({"AMENDS", "REPLACES"})
_UK_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


class Incoming(BaseModel):
    """One AMENDS/REPLACES edge into the unit, with what the amending side says about itself."""

    source_id: str
    source_label: str = ""
    type: str
    action: str | None = None
    resolution: str = "exact"
    date: str | None = None  # the amending provision's (or its act's) effective date
    same_document: bool = False  # an instruction in the amended document's own file: already applied
    order: int = 0  # the amending unit's place in its document: instructions of one date apply in that order
    new_text: str | None = None  # the wording the instruction gives this unit, when it quotes one
    words: tuple[str, str] | None = None  # a phrase the instruction replaces in the unit: (old, new)


class AmendmentEvent(BaseModel):
    action: str  # amended, replaced, inserted, deleted, repealed (the grammar's word, normalised)
    date: str | None = None  # ISO when the record gives one
    by: str = ""  # the amending act or provision as written, or the amending unit's label
    source_id: str | None = None  # the amending unit, when an edge records it
    origin: str = "history"  # "edge" or "history"
    applied: bool = False  # an edge from the unit's own document: its text already shows the change
    instructed: bool = False  # the edge's grammar read an instruction verb (not an edge typed by near words)
    note: str = ""


class CurrentLaw(BaseModel):
    unit_id: str
    label: str = ""
    status: str = "in_force"  # in_force | repealed (or another inactive status the unit carries)
    repealed_by: str = ""
    repealed_on: str | None = None
    events: list[AmendmentEvent] = Field(default_factory=list)
    latest_id: str | None = None  # the unit holding the newest text (an amending provision), if not this one
    chain: list[Edge] = Field(default_factory=list)  # the stored AMENDS/REPLACES edges, oldest first
    current_text: str | None = None  # the words in force, where the amending provisions give them
    inserted: bool = False  # an amending provision inserted the unit (it did not exist before that took effect)

    @property
    def repealed(self) -> bool:
        return self.status in INACTIVE

    @property
    def changed(self) -> bool:
        return bool(self.events) or self.repealed

    def lines(self) -> list[str]:
        """The record as plain lines, repeal first: the agent's tool output and the answer's caveat."""
        head = self.label or self.unit_id
        if self.repealed:
            by = f" by {self.repealed_by}" if self.repealed_by else ""
            on = f" on {self.repealed_on}" if self.repealed_on else ""
            out = [f"{head} is REPEALED ({self.status}){by}{on}: it is no longer current law."]
        else:
            out = [f"{head} is in force" + (f"; newest text in {self.latest_id}" if self.latest_id else "") + "."]
            amended = [e for e in self.events if e.origin == "edge" and not e.applied]
            if amended:
                last = amended[-1]
                verb = "inserted" if last.action == "inserted" else "amended"
                out[0] = out[0][:-1] + f", as {verb} by {last.by}" + (f" (in force from {last.date})" if last.date else "") + "."
        for event in self.events:
            when = event.date or "undated"
            by = f" by {event.by}" if event.by else ""
            out.append(f"  {when}: {event.action}{by}")
        if not self.events and not self.repealed:
            out.append("  no recorded amendments: it is the current text.")
        if self.current_text and self.changed and not self.repealed:
            out.append(f"  current text: {self.current_text}")
        return out


def history_events(metadata: dict[str, str]) -> list[AmendmentEvent]:
    """The unit's own amendment-history records, whichever grammar wrote them, as events."""
    try:
        records = json.loads(metadata.get("amendment_history") or "[]")
    except json.JSONDecodeError:
        return []
    out: list[AmendmentEvent] = []
    for record in records if isinstance(records, list) else []:
        if not isinstance(record, dict):
            continue
        if "kinds" in record:  # Vietnamese provenance note: one event per verb of the note
            for kind in record.get("kinds") or ["amended"]:
                out.append(AmendmentEvent(action=_VI_KINDS.get(kind, kind), date=record.get("effective_date"),
                                          by=record.get("by", ""), note=record.get("by", "")))
            continue
        out.append(AmendmentEvent(action=_normal_action(record.get("action", "amended")), date=_iso(record.get("date")),
                                  by=record.get("by", ""), note=record.get("note", "")))
    return out


def read(unit_id: str, label: str, status: str, metadata: dict[str, str], incoming: Iterable[Incoming],
         chain: list[Edge] | None = None, text: str = "") -> CurrentLaw:
    """Everything recorded about one unit's amendments, as its current-law record (`text`: the unit's own
    words, from which the current text is built)."""
    events = history_events(metadata)
    exact = sorted((e for e in incoming if e.resolution == "exact"), key=dated_order)
    for edge in exact:
        events.append(AmendmentEvent(action=edge_action(edge), date=edge.date, by=edge.source_label or edge.source_id,
                                     source_id=edge.source_id, origin="edge", applied=edge.same_document,
                                     instructed=edge.action is not None))
    events = _merged(events)
    law = CurrentLaw(unit_id=unit_id, label=label, status=status if status in INACTIVE else "in_force",
                     events=events, chain=list(chain or []))
    # The grammars that write history beside the text already decided the unit's status (a Vietnamese
    # "có nội dung bị bãi bỏ" removes part of an article, not the article). An amending act's instruction
    # resolved to this very unit ("paragraph 6 is deleted") repeals it unless a later one gives it new words;
    # one inside the unit's own (consolidated) document was applied already, and the text says what stands.
    edge_removals = [e for e in events if e.origin == "edge" and not e.applied and e.action in REMOVING]
    if edge_removals and not any(e.action in NEW_TEXT and (e.date or "") > (edge_removals[-1].date or "") for e in events):
        law.status = law.status if law.repealed else "repealed"
    removals = [e for e in events if e.action in REMOVING]
    if law.repealed and removals:
        law.repealed_by, law.repealed_on = removals[-1].by, removals[-1].date
    if not law.repealed:
        # The amending unit whose words now stand: the end of the chain of text-giving edges (which may be amended too).
        law.latest_id = law.chain[-1].source if law.chain else None
        _newest_first_hop(law, exact)
        law.current_text = current_text(text, exact)
        _own_insertion(law, metadata, text)
    return law


def _own_insertion(law: CurrentLaw, metadata: dict[str, str], text: str) -> None:
    """A unit an amending provision inserted (ingest.citations.vi_inserted) holds that provision's words: its own
    text stands until a later instruction changes it, and the insertion is its history, not newer words."""
    by = metadata.get("inserted_by_id")
    law.inserted = any(e.source_id == by for e in law.events if e.origin == "edge")
    later = [e for e in law.events if e.origin == "edge" and e.source_id != by and not e.applied]
    if law.inserted and not later:  # its words (an article's own, its clauses in units below it) are the quotation's
        law.latest_id, law.chain, law.current_text = None, [], None
    if law.current_text is not None and " ".join(law.current_text.split()) == " ".join(text.split()):
        law.current_text = None


def _newest_first_hop(law: CurrentLaw, incoming: list[Incoming]) -> None:
    """Of two amending acts that each gave the unit new words, the one in force later stands: the stored chain
    (the longest) may start at the older one."""
    giving = [e for e in incoming if e.date and not e.same_document and gives_text(e.action, e.resolution, e.same_document)
              and e.action is not None]
    if not giving or not law.chain:
        return
    newest = max(giving, key=dated_order)
    first = next((e for e in giving if e.source_id == law.chain[0].source), None)
    if first is not None and (first.date or "") < (newest.date or ""):
        law.chain = [Edge(source=newest.source_id, type=newest.type, target=law.unit_id)]
        law.latest_id = newest.source_id


def current_text(text: str, incoming: Iterable[Incoming]) -> str | None:
    """The unit's words after every instruction that gives wording, in date order: a quoted new text replaces
    them, a replaced phrase is replaced in them. None when no instruction gives wording."""
    changed, words = False, text
    for edge in sorted(incoming, key=dated_order):
        if edge.same_document:
            continue
        if edge.new_text:
            words, changed = edge.new_text, True
        elif edge.words and holds(words, edge.words[0]):
            # The phrase may wrap across the unit's lines as printed; the new words are literal (backslashes escaped).
            old, new = edge.words
            words, changed = _phrase(old).sub(new.replace("\\", "\\\\"), words), True
    return words if changed else None


def _phrase(words: str) -> re.Pattern[str]:
    return re.compile(r"\s+".join(re.escape(w) for w in words.split()))


def holds(text: str, phrase: str) -> bool:
    """Whether the unit's words hold the phrase, however its lines wrap."""
    return bool(phrase.split()) and _phrase(phrase).search(text) is not None


# The edge a phrase replacement throughout an act makes: to the act itself ("thay thế cụm từ A bằng B tại Thông tư số …").
ACT_WIDE = "words replaced"


def act_wide(direct: list[Incoming], to_act: Iterable[Incoming], text: str) -> list[Incoming]:
    """Phrase replacements made throughout the unit's act that reach it: those whose phrase its words hold (the
    wording was read for this unit, so a provision the instruction excepts gets none), unless the same provision
    also amends the unit by name."""
    named = {e.source_id for e in direct}
    return [e for e in to_act if e.source_id not in named and e.words and holds(text, e.words[0])]


_TARGET_WORDS = re.compile(r"(điểm|khoản|Điều|Mục|Chương|Phụ lục|Mẫu số)\s+(\S+)")


def instruction_wording(source_metadata: dict[str, str], target_label: str) -> tuple[str | None, tuple[str, str] | None]:
    """What an amending provision's recorded instructions (metadata "instructions", Vietnamese grammar) give
    the unit labelled `target_label`: its quoted new text (the part of it for this unit when one quotation holds
    several), and a replaced phrase (old, new). An instruction naming the unit comes before one for the whole act
    ("thay thế cụm từ A bằng B tại Thông tư …, trừ … khoản 4 Điều 7; thay thế cụm từ “cơ quan A” bằng … tại khoản 3
    Điều 8"), and a whole-act instruction passes over the provisions it excepts."""
    try:
        records = json.loads(source_metadata.get("instructions") or "[]")
    except json.JSONDecodeError:
        return None, None
    label = " ".join(target_label.split()).lower()
    named, whole = [], []
    for record in records if isinstance(records, list) else []:
        targets = record.get("targets") or []
        if any(label.endswith(_label_form(t)) for t in targets if t != "(whole act)"):
            named.append(record)
        elif "(whole act)" in targets and not any(label.endswith(_label_form(t)) for t in record.get("except") or []):
            whole.append(record)
    for record in [*named, *whole]:
        targets = record.get("targets") or []
        if record.get("words_from") and record.get("words_to") is not None and record.get("action") == "replace_words":
            return None, (record["words_from"], record["words_to"])
        if not record.get("new_text"):
            continue
        if record.get("new") and not label.endswith(_label_form(record["new"])):
            continue  # the quotation is a new unit's (Điều 15a), not the words of the unit it goes after
        if not record.get("part"):
            return own_part(record["new_text"], label, len(targets)), None
        # "Sửa đổi, bổ sung tên Điều và khoản 7 Điều 39 như sau: “Điều 39. … 7. …”": the clause's own paragraph.
        numbered = _numbered_part(_unquoted(record["new_text"]), label) if record.get("part") == "title" and len(targets) > 1 else None
        if numbered is not None:
            return numbered, None
    return None, None


def _label_form(target: str) -> str:
    """'khoản 1 Điều 38' → 'điều 38 khoản 1': how a unit label ends."""
    return " ".join(f"{w} {n}" for w, n in reversed(_TARGET_WORDS.findall(target))).lower()


def own_part(new_text: str, label: str, targets: int) -> str:
    """One quotation for several targets ("khoản 1 và khoản 3 Điều 4 như sau: “1. … 3. …”"): the paragraph that
    starts with this unit's own number, up to the next one of the same kind."""
    text = _unquoted(new_text)
    if targets <= 1:
        return text
    return _numbered_part(text, label) or text


_CLOSING = re.compile(r"\s*[”\"]\s*[.;,]?\s*$")


def _unquoted(new_text: str) -> str:
    """The quotation's words: without its marks and the instruction's punctuation after the closing one
    ("…hoạt động.”" keeps the provision's own full stop, "…Chương trình”." drops the instruction's)."""
    return _CLOSING.sub("", new_text.strip().lstrip("“\"")).strip()


def _numbered_part(text: str, label: str) -> str | None:
    """The paragraph of `text` that starts with the number of the clause or point `label` ends with; None when none does."""
    last = label.rsplit(" ", 2)
    kind, number = (last[-2], last[-1]) if len(last) >= 2 else ("", "")
    mark = {"khoản": rf"{re.escape(number)}\.", "điểm": rf"{re.escape(number)}\)"}.get(kind)
    if mark is None:
        return None
    lines = text.splitlines()
    start = next((n for n, line in enumerate(lines) if re.match(rf"[“\"]?{mark}\s", line.strip())), None)
    if start is None:
        return None
    sibling = r"\d{1,3}\.\s" if kind == "khoản" else r"[a-zđ]\)\s"
    end = next((n for n in range(start + 1, len(lines)) if re.match(sibling, lines[n].strip())), len(lines))
    return _unquoted("\n".join(lines[start:end]))


def _merged(events: list[AmendmentEvent]) -> list[AmendmentEvent]:
    """Date order (undated last). A history record and an edge of the same action and date are one
    amendment (a Korean `삭제 <2025.6.20>` tag and the 부칙 instruction of that date that deleted the
    unit), named by the edge; two edges or two records stay two."""
    kept: list[AmendmentEvent] = []
    for event in events:
        twin = next((n for n, k in enumerate(kept) if event.date and k.date == event.date
                     and k.action == event.action and k.origin != event.origin), None)
        if twin is None:
            kept.append(event)
        elif event.origin == "edge":
            kept[twin] = event.model_copy(update={"note": kept[twin].note})
    # A history record before an edge of the same date; records, and edges, of one date as they came (edges in
    # `dated_order`, sorted by `read`).
    return sorted(kept, key=lambda e: (e.date is None, e.date or "", e.origin != "history"))


def dated_order(edge: Incoming) -> tuple[bool, str, int, str]:
    """Amending edges oldest first (undated last); those of one date in the order their amending provisions are
    written, then by id: the graph returns edges in no fixed order, and two readers of the same edges (the parse,
    the graph) must apply them alike."""
    return edge.date is None, edge.date or "", edge.order, edge.source_id


def gives_text(action: str | None, resolution: str | None, same_document: bool = False) -> bool:
    """Whether an AMENDS/REPLACES edge hands the unit new words: a replacing or inserting instruction resolved to
    this very unit from another document (one inside the amended file, a Korean 부칙, is already applied), or any
    edge of a grammar that records no action (ADGM's figures were measured with those chains)."""
    if action is None:
        return True
    return _normal_action(action) in NEW_TEXT and (resolution or "exact") == "exact" and not same_document


def longest_chain(unit_id: str, into: dict[str, list[tuple[str, str, str | None, str | None, bool]]],
                  max_hops: int = 10) -> list[Edge]:
    """The longest text-giving chain into a unit, oldest first, over in-memory edges
    (target → [(source, type, action, resolution, same_document)]); the walk core.stores.queries runs in Cypher.
    Of chains of one length, the one whose amending units' ids, from the unit outwards, sort last
    (`chain_order`, the same tie-break as the Cypher's): otherwise the walk's order would pick it."""
    best: list[Edge] = []
    stack: list[tuple[str, list[Edge]]] = [(unit_id, [])]
    while stack:
        node, path = stack.pop()
        if chain_order(path) > chain_order(best):
            best = path
        if len(path) >= max_hops:
            continue
        seen = {e.source for e in path} | {unit_id}
        for source, edge_type, action, resolution, same_document in into.get(node, []):
            if source not in seen and gives_text(action, resolution, same_document):
                stack.append((source, [*path, Edge(source=source, type=edge_type, target=node)]))
    return best


def chain_order(chain: list[Edge]) -> tuple[int, list[str]]:
    return len(chain), [e.source for e in chain]


def _normal_action(word: str) -> str:
    word = (word or "amended").lower()
    return {"substituted": "replaced", "added": "inserted", "omitted": "deleted", "revoked": "repealed"}.get(word, word)


def edge_action(edge: Incoming) -> str:
    """The action an amending edge records, normalised; an untyped edge amends (REPLACES: replaces)."""
    return _normal_action(edge.action or ("replaced" if edge.type == "REPLACES" else "amended"))


def _iso(date: str | None) -> str | None:
    """ISO dates pass; the UK notes' "31.12.2020" becomes "2020-12-31"."""
    if not date:
        return None
    match = _UK_DATE.fullmatch(date.strip())
    if match:
        d, m, y = match.groups()
        return f"{int(y):04d}-{int(m):02d}-{int(d):02d}"
    return date


def amending_date(own: dict[str, str], document: dict[str, str]) -> str | None:
    """When an amending provision speaks: its own effective date, the date its act was promulgated (a
    Korean 부칙 <제35597호,2025.6.20>), else the date its document applies from where the act states one
    later than its entry into force (an EU act's "It shall apply from …"), else its document's effective date."""
    for date in (own.get("effective_date"), own.get("promulgated"), document.get("applies_from"),
                 document.get("effective_date")):
        if date and date[:1].isdigit():
            return date
    return None


class ParsedLaw:
    """Current law of every unit of one parse (ingest.graph.CorpusGraph), read before it is stored: real-file
    checks and tests read current law of the documents they parse without a running Neo4j. The amending
    edges are grouped once, so reading every unit of a large act stays linear."""

    def __init__(self, units: dict[str, LegalUnit], edges: Iterable[Edge]) -> None:
        self.units = units
        self.into: dict[str, list[tuple[str, str, str | None, str | None, bool]]] = {}
        for edge in edges:
            edge_type = EdgeType(edge.type).value
            if edge_type not in _AMENDMENT_TYPES:
                continue
            source, target = units.get(edge.source), units.get(edge.target)
            same = source is not None and target is not None and source.document_id == target.document_id
            self.into.setdefault(edge.target, []).append((edge.source, edge_type, edge.action, edge.resolution, same))

    def read(self, unit_id: str) -> CurrentLaw:
        unit = self.units[unit_id]
        incoming = [self._incoming(unit, *edge) for edge in self.into.get(unit_id, ())]
        if unit.document_id != unit_id:
            to_act = [self._incoming(unit, *e) for e in self.into.get(unit.document_id, ()) if e[2] == ACT_WIDE]
            incoming += act_wide(incoming, to_act, unit.text)
        return read(unit_id, unit.label, unit.metadata.get("status", "in_force"), unit.metadata, incoming,
                    longest_chain(unit_id, self.into), unit.text)


    def _incoming(self, unit: LegalUnit, source_id: str, edge_type: str, action: str | None, resolution: str | None,
                  same_document: bool) -> Incoming:
        """One amending edge as the unit reads it: the amending side's date and the wording it gives this unit."""
        source = self.units.get(source_id)
        root = self.units.get(source.document_id) if source is not None else None
        date = amending_date(source.metadata if source else {}, root.metadata if root else {})
        new_text, words = instruction_wording(source.metadata if source else {}, unit.label)
        return Incoming(source_id=source_id, source_label=source.label if source else source_id, type=edge_type,
                        action=action, resolution=resolution or "exact", date=date, same_document=same_document,
                        new_text=new_text, words=words, order=source.order if source else 0)


def caveats(graph, unit_ids: Iterable[str]) -> list[str]:
    """What an answer quoting these units must say about current law: a repeal, or newer words in an
    amending act. Plain history (a Korean <개정> date) is no caveat. `graph` is a GraphReader; a graph
    that cannot answer gives no caveat (the answer's graph-down notice says so already)."""
    out: list[str] = []
    for unit_id in unit_ids:
        try:
            law = graph.current_law(unit_id)
        except StoreError:  # the caveat is extra; the answer stands without it
            return out
        if law is None:
            continue
        if law.repealed:
            out.append(law.lines()[0])
        elif law.latest_id and law.chain:
            # Only an instruction's own words: ADGM's untyped "are replaced by" pairs join two in-force rules.
            first = next((e for e in law.events if e.source_id == law.chain[0].source), None)
            if first is None or not first.instructed:
                continue
            newest = next((e for e in law.events if e.source_id == law.latest_id), None)
            name = newest.by if newest else law.latest_id
            out.append(f"{law.label or unit_id} has newer words: {name}{_in_force(newest)} replaced or added to them; "
                       f"quote that text as current law.{_current(law)}")
        elif law.current_text:
            # A replaced phrase gives no unit of its own: the words in force are the unit's with the phrase changed.
            last = next((e for e in reversed(law.events) if e.origin == "edge" and e.instructed and not e.applied), None)
            if last is not None:
                out.append(f"{law.label or unit_id} is in force as amended by {last.by}{_in_force(last)}.{_current(law)}")
        elif law.inserted:
            # A provision an amending act inserted did not exist before that act took effect.
            inserted = next((e for e in law.events if e.origin == "edge" and e.action == "inserted" and not e.applied), None)
            if inserted is not None:
                out.append(f"{law.label or unit_id} was inserted by {inserted.by}{_in_force(inserted)}.")
    return out


def _in_force(event: AmendmentEvent | None) -> str:
    return f" (in force from {event.date})" if event is not None and event.date else ""


def _current(law: CurrentLaw, limit: int = 600) -> str:
    if not law.current_text:
        return ""
    text = " ".join(law.current_text.split())
    # A long text is cut at a word, and says so: the caveat must not read as if the law ended mid-word.
    shown = text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
    return f" Current text: “{shown}”"
