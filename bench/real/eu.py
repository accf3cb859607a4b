"""EU acts (GDPR, DORA; the ECSP regulation with its delegated act): the typed graph against the raw text.

Each figure is computed from the ingest pipeline's dry-run graph (parse → find → resolve, the path
`python -m ingest … --dry-run` takes) and measured against mentions that simple patterns written
here find in the raw file, independently of the citation grammar, so a check can fail:
- point citations in both drafting forms ("point (a) of Article 6(1)", "Article 5(1), first
  subparagraph, point (h)") that name no other act must have an edge into that point unit;
- citations naming another act ("of Directive 95/46/EC", "TFEU") must not resolve into the citing act;
- recitals ("(N)" lines between "Whereas:" and "HAVE ADOPTED") must be recital units, none in an article;
- each "‘term’ means" line of a Definitions article must be a definition unit with DEFINES uses;
- each instruction line of an article titled "Amendment(s) to <act>" must give an AMENDS/REPLACES
  edge to an External node named by that act and a provision.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bench.real.amendments import eu_checks
from bench.real.checks import Check
from core.domain import Document, Edge, EdgeType, LegalUnit, UnitType
from core.retrieval.expansion import AMENDMENT_TYPES
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph

AREA = "eu"
_FOLDER = ("corpora", "real", "eu")
_MAIN = ("gdpr_reg-2016-679_oj.txt", "dora_reg-2022-2554_oj.txt")
_PAIR = ("ecsp_reg-2020-1503.md", "ecsp-rts_delegated-reg-2024-358.md")

# Independent patterns over the raw text (deliberately plainer than ingest/citations/eu_patterns.py).
_POINT_OF = re.compile(
    r"\b[Pp]oints? \(([a-z]{1,3}|\d{1,3})\)(?:\([ivx]{1,5}\))?(?:(?:,| and| or| to) \([a-z0-9]{1,3}\)){0,6} of Article (\d+)\((\d+)\)")
_POINT_AFTER = re.compile(
    r"\bArticle (\d+)\((\d+)\),(?: (?:first|second|third|fourth|fifth) subparagraph,)? points? \(([a-z]{1,3}|\d{1,3})\)"
    r"(?:\([ivx]{1,5}\))?(?:(?:,| and| or| to) \([a-z0-9]{1,3}\)){0,6}")
_POINT_OF_PARAGRAPH = re.compile(r"\b[Pp]oints? \(([a-z]{1,3})\)(?:(?:,| and| or| to) \([a-z]{1,3}\)){0,6} of paragraph (\d+)(?! of| and)")
_PARAGRAPH_POINT = re.compile(r"(?<!Article \d)(?<!Article \d\d)\bparagraph (\d+), points? \(([a-z]{1,3})\)(?:(?:,| and| or| to) \([a-z]{1,3}\)){0,6}")
_OTHER_ACT_AFTER = re.compile(r"^,? thereof\b|^,?(?: respectively,)? (?:of|in) (?:Regulation|Directive|Decision|the Charter|the Treaty|the TFEU|that )|^ (?:TFEU|TEU)\b")
_OTHER_ACT = re.compile(
    r"\bArticles? (\d+[a-z]?)(?:\(\d+\))*(?:,? (?:first|second|third) (?:sub)?paragraph,?)?(?:,? points? \([a-z]\))?"
    r"(?: of | )(?:(?:Regulation|Directive|Decision) (?:\((?:EU|EC|EEC)\) )?(?:No )?(?P<num>\d+/\d+(?:/[A-Z]+)?)"
    r"|(?P<treaty>TFEU|TEU)\b|the Charter)"
)
_RECITAL = re.compile(r"\((\d+)\)")
_DEFINITION = re.compile(r"\(\d+\) ‘([^’]+)’[^‘]{0,40}? means")
_AMENDING_TITLE = re.compile(r"Amendments? (?:to|of) (?P<act>(?:Regulation|Directive|Decision) (?:\([A-Z]+\) )?(?:No )?\d+/\d+(?:/[A-Z]+)?)")
_INSTRUCTION = re.compile(r"(?:is|are) (?:replaced|deleted|amended|added|inserted)\b")


@dataclass
class _Act:
    path: Path
    raw: list[str]
    graph: CorpusGraph

    @property
    def document(self) -> Document:
        return next(d for d in self.graph.documents if d.source_path == str(self.path))


def run(settings: Settings) -> list[Check]:
    folder = settings.shared.joinpath(*_FOLDER)
    missing = [name for name in (*_MAIN, *_PAIR) if not (folder / name).is_file()]
    if missing:
        return [Check(area=AREA, name="material", value="absent", target="present", ok=False,
                      detail={"folder": str(folder), "missing": missing})]
    checks: list[Check] = []
    for name in _MAIN:
        act = _load([folder / name])[0]
        short = act.document.units[0].label
        checks += [_points(act, short), _other_acts(act, short), _recitals(act, short)]
        checks += _definitions(act, short)
        amending = _amendments(act, short)
        if amending is not None:
            checks.append(amending)
        checks += eu_checks(act.graph, act.document, short)
    pair = _load([folder / n for n in _PAIR])
    for act in pair:
        # The same measures on the Markdown pair (point labels on their own lines), ingested together.
        short = act.document.units[0].label
        checks += [_points(act, short), _other_acts(act, short)]
        amending = _amendments(act, short)
        if amending is not None:
            checks.append(amending)
        checks += eu_checks(act.graph, act.document, short)
    checks.append(_delegation(pair))
    return checks


def _load(paths: list[Path]) -> list[_Act]:
    graph = build_graph(paths, "real-eu", "generic")
    return [_Act(p, p.read_text(encoding="utf-8").splitlines(), graph) for p in paths]


class _Where:
    """Raw line → the unit whose text holds it, and its offset there; edges by source."""

    def __init__(self, act: _Act) -> None:
        self.units: dict[str, LegalUnit] = {u.id: u for u in act.document.units}
        # A line written twice ("(a) paragraph 3 is replaced by the following:") belongs to its units in
        # document order: raw lines are taken in order, each occurrence once.
        queues: dict[str, list[LegalUnit]] = {}
        for unit in act.document.units:
            for line in unit.text.split("\n"):
                queues.setdefault(line.strip(), []).append(unit)
        self._located: list[tuple[LegalUnit, int] | None] = []
        for line in act.raw:
            queue = queues.get(line.strip())
            found = queue.pop(0) if queue else None
            self._located.append((found, found.text.find(line.strip())) if found is not None else None)
        self.edges: dict[str, list[Edge]] = {}
        for edge in act.graph.edges:
            self.edges.setdefault(edge.source, []).append(edge)
        self.by_key = {k: u for u in act.document.units for k in u.keys}
        self.externals = {x.id: x.raw for x in act.graph.externals}

    def locate(self, number: int) -> tuple[LegalUnit, int] | None:
        """The unit holding raw line `number`, and the line's offset in its text."""
        return self._located[number]

    def overlapping(self, unit: LegalUnit, start: int, end: int) -> list[Edge]:
        return [e for e in self.edges.get(unit.id, []) if e.start is not None and e.start < end and start < (e.end or 0)
                and e.type is not EdgeType.DEFINES]


def _points(act: _Act, short: str) -> Check:
    where = _Where(act)
    slug = act.document.units[0].keys[0].removeprefix("gen:")
    hits, total, misses = 0, 0, []
    by_form = {"point (x) of Article N(p)": 0, "Article N(p), [subparagraph,] point (x)": 0, "point (x) of paragraph p": 0,
               "paragraph p, point (x)": 0}
    for number, line in enumerate(act.raw):
        found = [(m, m.group(2), m.group(3), m.group(1), 0) for m in _POINT_OF.finditer(line)]
        found += [(m, m.group(1), m.group(2), m.group(3), 1) for m in _POINT_AFTER.finditer(line)]
        located = where.locate(number)
        own_article = _article_of(located[0], slug) if located else None
        found += [(m, own_article, m.group(2), m.group(1), 2) for m in _POINT_OF_PARAGRAPH.finditer(line) if own_article]
        found += [(m, own_article, m.group(1), m.group(2), 3) for m in _PARAGRAPH_POINT.finditer(line) if own_article]
        for match, article, paragraph, point, form in found:
            if _OTHER_ACT_AFTER.match(line[match.end():]) or _INSTRUCTION.match(line[match.end():].lstrip()):
                continue  # another act's point, or the target of an amending instruction, not a citation
            by_form[list(by_form)[form]] += 1
            located = where.locate(number)
            total += 1
            expected = where.by_key.get(f"gen:{slug}:art:{article}:cl:{paragraph}:pt:{point}")
            if located is None or expected is None:
                misses.append(f"{match.group(0)} ({'line not in a unit' if located is None else 'no such point unit'})")
                continue
            unit, offset = located
            edges = where.overlapping(unit, offset + match.start(), offset + match.end())
            if any(e.target == expected.id for e in edges):
                hits += 1
            else:
                misses.append(f"{unit.label}: {match.group(0)}")
    share = round(hits / total, 4) if total else None
    return Check(area=AREA, name=f"{short}: point citations reach the point", value="no mentions" if share is None else share,
                 target=">= 0.95", ok=None if share is None else share >= 0.95, detail={"hits": hits, "total": total, "by_form": by_form, "misses": misses[:15]})


def _other_acts(act: _Act, short: str) -> Check:
    where = _Where(act)
    own_number = act.document.units[0].metadata.get("number", "")
    inside, outside, unfound, total, wrong = 0, 0, 0, 0, []
    own_doc = act.document.id
    for number, line in enumerate(act.raw):
        for match in _OTHER_ACT.finditer(line):
            if match["num"] and match["num"] == own_number:
                continue
            located = where.locate(number)
            if located is None:
                continue
            total += 1
            unit, offset = located
            edges = where.overlapping(unit, offset + match.start(), offset + match.end())
            if not edges:
                unfound += 1
            elif any(e.target in where.units or e.target == own_doc for e in edges):
                inside += 1
                wrong.append(f"{unit.label}: {match.group(0)}")
            else:
                outside += 1
    share = round(inside / total, 4) if total else 0.0
    return Check(area=AREA, name=f"{short}: other-act citations resolved inside it", value=share, target="<= 0.01",
                 ok=bool(total) and share <= 0.01,
                 detail={"total": total, "inside": inside, "external": outside, "no_edge": unfound, "inside_examples": wrong[:10]})


def _recitals(act: _Act, short: str) -> Check:
    raw_count = 0
    stage = "head"
    for line in act.raw:
        text = line.strip()
        if stage == "head" and text.startswith("Whereas"):
            stage = "recitals"
        elif stage == "recitals" and re.fullmatch(r"HA(?:VE|S) ADOPTED THIS [A-Z ]+:?", text):
            break
        elif stage == "recitals":
            match = _RECITAL.match(text)
            if match and int(match.group(1)) == raw_count + 1:
                raw_count += 1
    units = {u.id: u for u in act.document.units}
    recitals = [u for u in act.document.units if u.type is UnitType.RECITAL]
    in_articles = [u.label for u in recitals if _has_ancestor(u, units, UnitType.ARTICLE)]
    ok = raw_count > 0 and len(recitals) == raw_count and not in_articles
    return Check(area=AREA, name=f"{short}: recitals are recital units", value=len(recitals), target=f"== {raw_count} (raw)",
                 ok=ok, detail={"raw_recitals": raw_count, "recital_units": len(recitals), "inside_articles": in_articles[:5]})


def _definitions(act: _Act, short: str) -> list[Check]:
    """One check per Definitions article: each raw "‘term’ means" line → a definition unit with DEFINES uses."""
    units = {u.id: u for u in act.document.units}
    used = {e.target for e in act.graph.edges if e.type is EdgeType.DEFINES}
    checks: list[Check] = []
    for article in (u for u in act.document.units if u.type is UnitType.ARTICLE and u.title.lower() == "definitions"):
        number = article.label.rsplit(" ", 1)[-1]
        raw_terms, outside = _raw_definitions(act.raw, number)
        definitions = {u.metadata.get("term"): u for u in act.document.units
                       if u.type is UnitType.DEFINITION and _has_ancestor(u, units, ancestor=article.id)}
        # A term must have DEFINES uses when the raw text outside its article uses it (any case, or plural).
        written = [t for t in raw_terms if re.search(rf"\b{re.escape(t.lower())}", outside)]
        linked = [t for t in written if t in definitions and definitions[t].id in used]
        unlinked = [t for t in written if t not in linked]
        ok = bool(raw_terms) and len(definitions) == len(raw_terms) and not unlinked
        checks.append(Check(
            area=AREA, name=f"{short}: Article {number} definition units with DEFINES uses", value=len(linked),
            target=f"== {len(written)} used of {len(raw_terms)} (raw)", ok=ok,
            detail={"raw_terms": len(raw_terms), "used_outside": len(written), "definition_units": len(definitions),
                    "unlinked": unlinked[:10], "unused": [t for t in raw_terms if t not in written][:10],
                    "defines_edges": sum(1 for e in act.graph.edges if e.type is EdgeType.DEFINES
                                         and e.target in {d.id for d in definitions.values()})}))
    return checks


def _raw_definitions(raw: list[str], number: str) -> tuple[list[str], str]:
    """The terms "‘x’ means" lines of that article define, and the raw text outside it (lower case)."""
    inside, terms, outside = False, [], []
    for line in raw:
        text = line.strip()
        if re.fullmatch(r"Article \d+[a-z]?", text):
            inside = text == f"Article {number}"
            continue
        if inside:
            match = _DEFINITION.match(text)
            if match:
                terms.append(" ".join(match.group(1).split()))
        else:
            outside.append(text.lower())
    return terms, "\n".join(outside)


def _amendments(act: _Act, short: str) -> Check | None:
    """Instruction lines of articles titled "Amendment(s) to <act>" → edges to Externals named by that act."""
    where = _Where(act)
    amended: str | None = None
    total, good, misses, edge_count = 0, 0, [], 0
    for number, line in enumerate(act.raw):
        text = line.strip()
        if re.fullmatch(r"Article \d+[a-z]?", text):
            amended = None
            continue
        title = _AMENDING_TITLE.fullmatch(text)
        if title:
            amended = title["act"]
            continue
        if amended is None or text.startswith(("‘", "“", "(*")) or not _INSTRUCTION.search(text):
            continue
        located = where.locate(number)
        total += 1
        if located is None:
            misses.append(f"not in a unit: {text[:60]}")
            continue
        unit, offset = located
        edges = [e for e in where.overlapping(unit, offset, offset + len(text))
                 if e.type in AMENDMENT_TYPES and e.target in where.externals]
        named = [e for e in edges if where.externals[e.target].startswith(amended)]
        edge_count += len(named)
        if named:
            good += 1
        else:
            misses.append(f"{unit.label}: {text[:70]}")
    if total == 0:
        return None
    share = round(good / total, 4)
    examples = sorted({where.externals[e.target] for es in where.edges.values() for e in es
                       if e.type in AMENDMENT_TYPES and e.target in where.externals})[:12]
    return Check(area=AREA, name=f"{short}: amending instructions → AMENDS/REPLACES to the amended act",
                 value=share, target="== 1.0", ok=share == 1.0,
                 detail={"instruction_lines": total, "with_edge": good, "edges": edge_count, "misses": misses[:10],
                         "external_examples": examples})


def _delegation(acts: list[_Act]) -> Check:
    """A delegated act's "in particular Article N thereof" → a SPECIFIES/DELEGATES_TO pair with the empowering unit."""
    graph = acts[0].graph
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    phrases = 0
    for act in acts:
        if not act.document.units[0].metadata.get("instrument"):
            continue
        phrases += sum(len(re.findall(r"in particular Articles? \d+[^ ,]* thereof", line))
                       for line in act.raw if line.strip().startswith("Having regard to Regulation"))
    specifies = {(e.source, e.target) for e in graph.edges if e.type is EdgeType.SPECIFIES}
    delegates = {(e.target, e.source) for e in graph.edges if e.type is EdgeType.DELEGATES_TO}
    pairs = sorted(specifies & delegates)
    return Check(area=AREA, name="ECSP delegated act: empowerment pairs (SPECIFIES + DELEGATES_TO)",
                 value=len(pairs), target=f">= {phrases} (phrases)", ok=phrases > 0 and len(pairs) >= phrases,
                 detail={"phrases": phrases, "pairs": [f"{labels.get(s, s)} SPECIFIES {labels.get(t, t)}" for s, t in pairs],
                         "tiers": {d.units[0].label: d.units[0].tier for d in graph.documents}})


def _article_of(unit: LegalUnit, slug: str) -> str | None:
    """The article number in the unit's own key (gen:<slug>:art:N:…), for "of paragraph p" citations."""
    key = next((k for k in unit.keys if k.startswith(f"gen:{slug}:art:")), None)
    return key.split(":")[3] if key else None


def _has_ancestor(unit: LegalUnit, units: dict[str, LegalUnit], kind: UnitType | None = None, ancestor: str = "") -> bool:
    """True when an ancestor of the unit is of that kind (or is that unit id)."""
    parent = units.get(unit.parent_id or "")
    while parent is not None:
        if parent.type is kind or parent.id == ancestor:
            return True
        parent = units.get(parent.parent_id or "")
    return False
