"""Vietnamese gazette checks: amending documents (Thông tư / Nghị định) as the Công báo prints them.

Scored on `corpora/real/vi-amendments/gold_amendments.json` as its README says:
- every gold instruction matched by an AMENDS/REPLACES edge from the same amending article and khoản (the
  điểm may be omitted) to the same target document, at the exact provision or within one level of it
  (parent or child on the same path); recall per chain, within one level and exact;
- precision over the amending documents' AMENDS/REPLACES edges, de-duplicated on (source, target): an edge is
  right when it matches a gold item or comes from an umbrella line into that umbrella's scope;
- edges landing in a document other than the amended one (the amending document itself, an External);
- VBHN footnotes: each amendment footnote is a history entry of the consolidated unit naming the amender's
  provision, and no AMENDS/REPLACES edge leaves a consolidated text;
- gazette noise: no unit holds a page header or a digital-signature line, and every document's own
  articles run in sequence (a wrapped "Điều 16," line or an annex template's "Điều 1" breaks it);
- current law on the real chains, read by core.current_law (the record the chat's graph query gives): each
  gold instruction on an article, clause or point gives its target an event from the instructing provision,
  dated when its act takes effect, and the words in force (the quoted wording, the phrase replaced, the
  inserted unit's own text) or the repeal; and how many units two or more amending documents changed.

Paths are read from the units' address keys (gen:<doc>:art:7:cl:2), so the check speaks the parser's
addresses but decides with the gold's own fields.
"""
from __future__ import annotations

import json
import re
from collections import Counter

from bench.real.checks import Check
from core.current_law import CurrentLaw, ParsedLaw, holds
from core.domain import LegalUnit
from core.retrieval.expansion import AMENDMENT_TYPES
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph
from ingest.parsers.generic.keys import path_of_key

AREA = "vi"
FOLDER = "corpora/real/vi-amendments"
Path_ = tuple[tuple[str, str], ...]

_PAGE_HEADER = re.compile(r"CÔNG\s?BÁO\s?/\s?Số")
_SIGNATURE = re.compile(r"^\s*(?:Người ký|Ký bởi|Thời gian ký|Ngày ký|Email)\s?:", re.M)
_NEW_PROVISION = re.compile(r"(?:(?P<art>Điều)|(?P<cl>khoản)|(?P<form>Mẫu số))\s+(?P<num>\w+)")
_ARTICLE_NUM = re.compile(r"(\d+)([a-zđ]?)$")


def run(settings: Settings) -> list[Check]:
    folder = settings.shared / FOLDER
    gold_path = folder / "gold_amendments.json"
    if not gold_path.exists():
        return [Check(area=AREA, name="vi-amendments material", value="missing", target=str(folder), ok=False)]
    gold = json.loads(gold_path.read_text(encoding="utf-8"))
    graph = build_graph(sorted(folder.glob("*.txt")), "vi-gazette", "generic")
    return gazette_checks(graph, gold)


def gazette_checks(graph: CorpusGraph, gold: dict) -> list[Check]:
    view = _View(graph)
    return [*_instruction_checks(view, gold), *_vbhn_checks(view, gold), *_noise_checks(view), *_current_law_checks(view, gold)]


class _View:
    """Units by id with their document stem and address path."""

    def __init__(self, graph: CorpusGraph) -> None:
        self.graph = graph
        self.units: dict[str, LegalUnit] = {u.id: u for d in graph.documents for u in d.units}
        self.stem = {u.id: u.document_id.rsplit("/", 1)[-1] for u in self.units.values()}
        self.path: dict[str, Path_] = {}
        for uid, unit in self.units.items():
            own = next((k for k in unit.keys if k.startswith("gen:")), None)
            self.path[uid] = tuple(path_of_key(own)) if own else ()
        self.by_path = {(self.stem[uid], p): uid for uid, p in reversed(list(self.path.items()))}

    def parent_path(self, uid: str) -> Path_ | None:
        parent = self.units[uid].parent_id
        return self.path.get(parent) if parent else None

    def part(self, uid: str, segment: str) -> str | None:
        return dict(self.path[uid]).get(segment)


def _gold_path(item: dict, prefix: str = "target_") -> Path_:
    def parts(*names: tuple[str, str]) -> Path_:
        return tuple((segment, str(item[prefix + name])) for segment, name in names if item.get(prefix + name))

    if item.get(prefix + "form") or item.get(prefix + "annex"):
        return parts(("annex", "annex"), ("form", "form"))
    if item.get(prefix + "section") or (item.get(prefix + "chapter") and not item.get(prefix + "article")):
        return parts(("ch", "chapter"), ("sec", "section"))
    return parts(("art", "article"), ("cl", "clause"), ("pt", "point"))


def _new_path(item: dict, target: Path_) -> Path_ | None:
    match = _NEW_PROVISION.match(item.get("new_provision") or "")
    if match is None:
        return None
    if match["art"]:
        return (("art", match["num"]),)
    if match["cl"]:
        return (*target, ("cl", match["num"]))
    return (*target[:1], ("form", match["num"]))


def _target_level(view: _View, uid: str, item: dict) -> str | None:
    """'exact', 'near' (within one level) or None, for an edge to unit `uid` against a gold item."""
    if view.stem.get(uid) != item["target_doc"]:
        return None
    path, goal = view.path[uid], _gold_path(item)
    if not goal:  # a document-wide instruction: the document or any article of it
        return "exact" if not path or (len(path) == 1 and path[0][0] == "art") else None
    new = _new_path(item, goal) if item["action"] == "add" else None
    if path == goal or (new is not None and path == new):
        return "exact"
    if view.parent_path(uid) == goal or (new is not None and view.parent_path(uid) == new):
        return "near"
    gold_unit = view.by_path.get((item["target_doc"], goal))
    if gold_unit is not None and view.parent_path(gold_unit) == path:
        return "near"
    if gold_unit is None and path == goal[:-1]:
        return "near"
    return None


def _source_ok(view: _View, uid: str, doc: str, article: str, item: str | None, point: str | None) -> bool:
    if view.stem.get(uid) != doc:
        return False
    parts = dict(view.path[uid])
    return (parts.get("art") == article and parts.get("cl") == item
            and (parts.get("pt") is None or parts.get("pt") == point))


def _amending_edges(view: _View, docs: set[str]) -> list[tuple[str, str, str | None]]:
    seen: dict[tuple[str, str], str | None] = {}
    for edge in view.graph.edges:
        if edge.type in AMENDMENT_TYPES and view.stem.get(edge.source) in docs:
            seen.setdefault((edge.source, edge.target), edge.action)
    return [(s, t, a) for (s, t), a in seen.items()]


def _instruction_checks(view: _View, gold: dict) -> list[Check]:
    items = gold["items"]
    docs = {i["amending_doc"] for i in items}
    target_of = {c["amending_doc"]: c["target_doc"] for c in gold["chains"]}
    edges = _amending_edges(view, docs)
    per_chain: dict[str, Counter[str]] = {}
    misses: list[str] = []
    matched_edges: set[tuple[str, str]] = set()
    for item in items:
        best = None
        for source, target, _ in edges:
            if target not in view.units or not _source_ok(view, source, item["amending_doc"], item["amending_article"],
                                                          item["amending_item"], item["amending_point"]):
                continue
            level = _target_level(view, target, item)
            if level is not None:
                matched_edges.add((source, target))
                best = "exact" if level == "exact" or best == "exact" else "near"
        counts = per_chain.setdefault(item["chain"], Counter())
        counts["items"] += 1
        counts["near"] += best is not None
        counts["exact"] += best == "exact"
        if best != "exact" and len(misses) < 25:
            misses.append(f"{item['id']}{'' if best else ' (none)'} {item['quote'][:50]}")
    umbrella_ok = {(s, t) for s, t, _ in edges if (s, t) not in matched_edges and _umbrella_edge(view, s, t, gold)}
    wrong_doc = [(s, t) for s, t, _ in edges if view.stem.get(t) != target_of.get(view.stem[s])]
    correct = len(matched_edges) + len(umbrella_ok)
    total = sum(c["items"] for c in per_chain.values())
    near = sum(c["near"] for c in per_chain.values())
    exact = sum(c["exact"] for c in per_chain.values())
    wrong = [f"{view.units[s].label} → {view.units[t].label if t in view.units else t}"
             for s, t, _ in edges if (s, t) not in matched_edges and (s, t) not in umbrella_ok]
    chains = {k: {"items": c["items"], "near": c["near"], "exact": c["exact"]} for k, c in sorted(per_chain.items())}
    actions = Counter(a or "none" for _, _, a in edges)
    precision = round(correct / len(edges), 4) if edges else 0.0
    return [
        Check(area=AREA, name="gazette instructions → edges, recall within one level", value=round(near / total, 4),
              target=">= 0.95", ok=near / total >= 0.95, detail={"chains": chains, "misses": misses}),
        Check(area=AREA, name="gazette instructions → edges, recall at the exact level", value=round(exact / total, 4),
              target=">= 0.85", ok=exact / total >= 0.85),
        Check(area=AREA, name="gazette amending edges precision", value=precision, target=">= 0.95",
              ok=bool(edges) and precision >= 0.95,
              detail={"edges": len(edges), "correct": correct, "umbrella": len(umbrella_ok), "actions": dict(actions),
                      "wrong": wrong[:25]}),
        Check(area=AREA, name="gazette amending edges outside the amended document", value=len(wrong_doc), target="= 0",
              ok=not wrong_doc, detail={"examples": [f"{view.units[s].label} → {t}" for s, t in wrong_doc[:10]]}),
    ]


def _umbrella_edge(view: _View, source: str, target: str, gold: dict) -> bool:
    items = {i["id"]: i for i in gold["items"]}
    for line in gold["umbrella_lines"]:
        if not _source_ok(view, source, line["amending_doc"], line["amending_article"], line["amending_item"],
                          line["amending_point"]) and not (view.part(source, "pt") and _source_ok(
                view, source, line["amending_doc"], line["amending_article"], line["amending_item"], None)):
            continue
        covered = [items[i] for i in line["covers"] if i in items]
        if not covered or target not in view.units or view.stem[target] != covered[0]["target_doc"]:
            continue
        path = view.path[target]
        if any(_gold_path(i)[: len(path)] == path or _target_level(view, target, i) for i in covered):
            return True
    return False


def _vbhn_checks(view: _View, gold: dict) -> list[Check]:
    footnotes = [f for f in gold["vbhn_footnotes"] if f["kind"] == "amendment"]
    vbhn_docs = {f["vbhn"] for f in gold["vbhn_footnotes"]}
    found, misses = 0, []
    for note in footnotes:
        act = re.search(r"\d+/\d{4}/[\w-]+", note["amended_by"]).group(0)  # type: ignore[union-attr]
        provision = re.findall(r"(Điều|khoản|điểm) (\w+)", note["amended_by"])
        hit = False
        for uid, unit in view.units.items():
            if view.stem[uid] != note["vbhn"]:
                continue
            for entry in _history(unit):
                written = entry.get("by", "")
                if (str(entry.get("marker")) == str(note["footnote"]) and act in written
                        and all(re.search(rf"{w}\s+{n}(?!\w)", written, re.I) for w, n in provision)
                        and _anchor_ok(view, uid, note)):
                    hit = True
        found += hit
        if not hit:
            misses.append(f"{note['vbhn'][-5:]} footnote {note['footnote']}")
    # An edge from the consolidated text to the act its footnotes name as the amender points the wrong way (the
    # text's own effect clause repealing an older act is an instruction and points the right way).
    amenders = {re.search(r"\d+/\d{4}/[\w-]+", f["amended_by"]).group(0) for f in footnotes}  # type: ignore[union-attr]
    externals = {x.id: x.raw for x in view.graph.externals}
    numbers = {uid: u.metadata.get("number", "") for uid, u in view.units.items()}
    backwards = [e for e in view.graph.edges if e.type in AMENDMENT_TYPES and view.stem.get(e.source) in vbhn_docs
                 and any(a in externals.get(e.target, "") or a in numbers.get(e.target, "") for a in amenders)]
    return [
        Check(area=AREA, name="VBHN amendment footnotes → history entries with the right amender",
              value=f"{found}/{len(footnotes)}", target="all", ok=found == len(footnotes), detail={"misses": misses}),
        Check(area=AREA, name="VBHN AMENDS/REPLACES edges from the consolidated text to its amender (wrong direction)",
              value=len(backwards), target="= 0", ok=not backwards,
              detail={"examples": [f"{view.units[e.source].label} → {e.target}" for e in backwards[:5]]}),
    ]


def _history(unit: LegalUnit) -> list[dict]:
    try:
        records = json.loads(unit.metadata.get("amendment_history") or "[]")
    except json.JSONDecodeError:
        return []
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _anchor_ok(view: _View, uid: str, note: dict) -> bool:
    if note.get("anchor_article"):
        goal = _gold_path(note, "anchor_")
        path = view.path[uid]
        return path == goal or path == goal[:-1] or view.parent_path(uid) == goal
    # A table row of an annex: the unit holding it sits in an annex.
    node: LegalUnit | None = view.units[uid]
    while node is not None:
        if node.type == "annex":
            return True
        node = view.units.get(node.parent_id or "")
    return False


def _noise_checks(view: _View) -> list[Check]:
    headers = [u.label for u in view.units.values() if _PAGE_HEADER.search(u.text)]
    signatures = [u.label for u in view.units.values() if _SIGNATURE.search(u.text)]
    out_of_sequence: list[str] = []
    for document in view.graph.documents:
        previous: tuple[int, str] | None = None
        for unit in document.units:
            if unit.type != "article":
                continue
            match = _ARTICLE_NUM.search(dict(view.path[unit.id]).get("art", ""))
            if match is None:
                continue
            number = (int(match.group(1)), match.group(2))
            # Each article is the next number, or the same number with a letter (Điều 15a after Điều 15).
            if previous is not None and not (number[0] == previous[0] + 1 and not number[1]
                                             or number[0] == previous[0] and number[1] > previous[1]):
                out_of_sequence.append(unit.label)
            previous = number
    return [
        Check(area=AREA, name="gazette units holding a page header / a signature line",
              value=f"{len(headers)}/{len(signatures)}", target="0/0", ok=not headers and not signatures,
              detail={"headers": headers[:8], "signatures": signatures[:8]}),
        Check(area=AREA, name="gazette articles out of sequence (wrapped lines, annex templates, quoted text)",
              value=len(out_of_sequence), target="= 0", ok=not out_of_sequence, detail={"examples": out_of_sequence[:12]}),
    ]



def _current_law_checks(view: _View, gold: dict) -> list[Check]:
    """Each gold instruction on an article, clause or point, read back as its target's current law."""
    laws = ParsedLaw(view.units, view.graph.edges)
    roots = {view.stem[d.id]: d.units[0] for d in view.graph.documents if d.units}
    checked, right = 0, 0
    misses: list[str] = []
    for item in gold["items"]:
        goal = _gold_path(item)
        if not goal or goal[0][0] != "art" or item["target_part"] not in (None, "words"):
            continue  # titles, Mục headings, annexes and forms carry no words of their own here
        new = _new_path(item, goal) if item["action"] == "add" else None
        target = view.by_path.get((item["target_doc"], new or goal))
        checked += 1
        problem = "no such unit" if target is None else _law_problem(view, laws.read(target), item, roots[item["amending_doc"]])
        right += problem is None
        if problem is not None and len(misses) < 20:
            misses.append(f"{item['id']}: {problem}")
    act_wide, reached, missed = _act_wide(view, laws, gold)
    # Several amending documents on one unit: every amending/repealing edge into it, by the amending document.
    amenders: dict[str, set[str]] = {}
    for edge in view.graph.edges:
        if edge.type in AMENDMENT_TYPES and edge.target in view.units and edge.source in view.units:
            amenders.setdefault(edge.target, set()).add(view.units[edge.source].document_id)
    several = sorted(view.units[t].label for t, docs in amenders.items() if len(docs) > 1)
    return [
        Check(area=AREA, name="current law of the gold targets (event, date in force, words in force or repeal)",
              value=f"{right}/{checked}", target="all", ok=right == checked, detail={"misses": misses}),
        Check(area=AREA, name="phrases replaced throughout an act: units holding the old phrase whose current text no longer does",
              value=f"{reached}/{act_wide}", target="all", ok=reached == act_wide, detail={"misses": missed}),
        Check(area=AREA, name="units amended by two or more amending documents in this material", value=len(several),
              target="(count)", ok=None, detail={"units": several[:10]}),
    ]


def _law_problem(view: _View, law: CurrentLaw, item: dict, amending_root: LegalUnit) -> str | None:
    """Why the record does not say what the instruction did; None when it does."""
    date = amending_root.metadata.get("effective_date")
    # The instructing item or point itself, before the umbrella item above it (whose edge the gold allows).
    sources = [e for e in law.events if e.source_id and _source_ok(
        view, e.source_id, item["amending_doc"], item["amending_article"], item["amending_item"], item["amending_point"])]
    source = max(sources, key=lambda e: view.part(e.source_id or "", "pt") == item["amending_point"], default=None)
    if source is None or source.source_id is None:
        return "no event from the instructing provision"
    quoted = " ".join(view.units[source.source_id].text.split())
    if not date or source.date != date:
        return f"event dated {source.date}, the amending act takes effect {date}"
    text = " ".join(view.units[law.unit_id].text.split())
    if item["action"] == "repeal" and item["target_part"] is None:
        return None if law.repealed and law.repealed_on == date else "not repealed"
    if item["action"] == "add":
        return None if law.inserted and text[:60] in quoted and law.current_text is None else "inserted unit without the quoted words"
    if item["action"] == "replace_words":
        words = item.get("words") or {}
        if words.get("from") and words["from"] not in view.units[law.unit_id].text:
            return None  # the phrase stands in a child unit or an earlier instruction's words
        current = " ".join((law.current_text or "").split())
        return None if current and " ".join(words["to"].split()) in current else "phrase not replaced in the current text"
    if item["action"] == "amend" and item["target_part"] is None:
        current = " ".join((law.current_text or "").split())
        return None if current and current[:60] in quoted and current != text else "no current text from the quoted wording"
    return None


_EXCEPT_NOTE = re.compile(r"except[^.]{0,200}? in (?:khoản (?P<cl>\d+) )?Điều (?P<art>\d+)")


def _act_wide(view: _View, laws: ParsedLaw, gold: dict) -> tuple[int, int, list[str]]:
    """Each gold phrase replacement for a whole act, read on every unit of that act whose words hold the phrase (the
    provision the gold's note excepts left out): (units, units whose current text has the new phrase, misses)."""
    total, reached = 0, 0
    missed: list[str] = []
    for item in gold["items"]:
        words = item.get("words") or {}
        if item["action"] != "replace_words" or _gold_path(item) or not words.get("from"):
            continue
        excepted = _EXCEPT_NOTE.search(item.get("note") or "")
        skip = tuple((k, v) for k, v in (("art", excepted["art"]), ("cl", excepted["cl"])) if v) if excepted else None
        for uid, unit in view.units.items():
            if view.stem[uid] != item["target_doc"] or not holds(unit.text, words["from"]) or view.path[uid] == skip:
                continue
            total += 1
            current = laws.read(uid).current_text or ""
            # The new phrase stands where the old one stood, unless newer quoted words replaced the passage.
            if current and not holds(current, words["from"]):
                reached += 1
            elif len(missed) < 10:
                missed.append(f"{item['id']}: {unit.label}")
    return total, reached, missed
