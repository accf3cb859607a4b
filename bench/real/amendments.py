"""'Current law' and whole-act checks on the shared real files, for each area's module (ko, eu, vi).

Current law is read the way the agent's `current_version` tool reads it (core.current_law, here over
the parse before it is stored: `ParsedLaw`). What it must say is found apart from the grammars, by
plain patterns over the units' raw words: a unit reading only "삭제 <2025.6.20>" is repealed on that
date, a "(được bãi bỏ)" point is repealed, every act a Pháp điển note names as amending is an event, a
「약사법」 / "Directive 2014/65/EU" / "Luật … số 25/2008/QH12" written without a provision reaches that
act's document or an External named by the act, never an article of the citing act.
"""
from __future__ import annotations

import re
from collections import Counter

from bench.real.checks import Check
from core.current_law import CurrentLaw, ParsedLaw
from core.domain import Document, Edge, EdgeType, LegalUnit
from core.retrieval.expansion import AMENDMENT_TYPES
from ingest.graph import CorpusGraph

_KO_DELETED = re.compile(r"(?:\S{1,12}\s{1,3})?삭제\s?<([\d.,\s]{6,200})>")
_KO_TAG_DATES = re.compile(r"<(?:개정|신설)\s?([\d.,\s]{6,400})>")
_KO_DATE = re.compile(r"(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})")
_KO_INTRO = re.compile(r"(?:일부|전부)를\s?다음과\s?같이\s?개정한다")
_KO_ACT = re.compile(r"「([^」\n]{1,80})」(?!\s?제\s?\d)")
_FRONT_EFFECTIVE = re.compile(r"^시행일자:\s*'?(\d{4}-\d{2}-\d{2})", re.M)
_EU_ACT = re.compile(r"(?<![\w/])(?:Regulation|Directive|Decision)\s(?:\((?:EU|EC|EEC|Euratom)\)\s)?(?:No\s)?\d{1,4}/\d{1,4}(?:/(?:EU|EC|EEC))?(?![\w/])")
# The act is the end of a provision citation ("Article 5 of Regulation …", "point (a) of Directive …").
_EU_PROVISION_BEFORE = re.compile(r"(?:Articles?|points?|paragraphs?|Annex(?:es)?|Title|Chapter|Section|subparagraph)\b[^.;:‘’]{0,80}?\b(?:of|in|under)\s(?:the\s)?$")
_VI_ACT = re.compile(r"(?<!\w)(Luật|Nghị định|Thông tư(?: liên tịch)?|Quyết định|Nghị quyết|Pháp lệnh)(?:\s[^\s\d,;:()]{1,15}){0,8}?\s(?:số\s)?(\d{1,5}/\d{4}/[A-ZĐ0-9][A-ZĐ0-9\-]{0,24})")
_VI_PROVISION_BEFORE = re.compile(r"(?:Điều|[Kk]hoản|[Đđ]iểm)\s\S{1,12}\s(?:của\s)?$")
_VI_PASSIVE_BY = re.compile(r"(?:được|bị)\s(?:sửa đổi|bổ sung|bãi bỏ|thay thế)[^()]{0,80}?(?:bởi|tại)\s(?:Điều|[Kk]hoản|[Đđ]iểm)[^()]*? số (\S+?)[\s,;)]")
_PROVISION_WORDS = re.compile(r"\b(?:Articles?|points?|paragraphs?|Annex|Điều|khoản|điểm)\b|제\s?\d+\s?조", re.I)
_VI_REPEALED = re.compile(r"(?:[a-zđ]\)|\d+\.)\s*[*(]*\s*(?:đã\s)?(?:được|bị) bãi bỏ\s*[*)]*\.?\s*", re.I)


def _units(graph: CorpusGraph) -> dict[str, LegalUnit]:
    return {u.id: u for d in graph.documents for u in d.units}


def _share(good: int, total: int) -> float:
    return round(good / total, 4) if total else 0.0


def _iso(y: str, m: str, d: str) -> str:
    return f"{int(y):04d}-{int(m):02d}-{int(d):02d}"


# Korean ----------------------------------------------------------------------------------------------


def ko_checks(graph: CorpusGraph, area: str) -> list[Check]:
    units = _units(graph)
    parsed = ParsedLaw(units, graph.edges)
    laws = {uid: parsed.read(uid) for uid in units}
    deleted = good = in_order = tagged = 0
    misses: list[str] = []
    for uid, unit in units.items():
        flat = " ".join(unit.text.split())
        match = _KO_DELETED.fullmatch(flat) if unit.type != "document" else None
        if match:
            deleted += 1
            dates = [_iso(*d) for d in _KO_DATE.findall(match.group(1))]
            law = laws[uid]
            if law.repealed and law.repealed_on == max(dates):
                good += 1
            elif len(misses) < 8:
                misses.append(f"{unit.label}: {law.lines()[0]}")
        written = {_iso(*d) for tag in _KO_TAG_DATES.findall(unit.text) for d in _KO_DATE.findall(tag)}
        if written:
            tagged += 1
            dates = [e.date for e in laws[uid].events if e.date]
            in_order += written <= set(dates) and dates == sorted(dates)
    wrongly = [u.label for uid, u in units.items() if laws[uid].repealed and u.metadata.get("status") != "repealed"]
    verbs = _ko_instruction_verbs(graph, units)
    fronts = _ko_front_dates(graph.documents)
    whole = _whole_acts(graph, units, _ko_written_acts, area)
    return [
        Check(area=area, name="current law: units reading only 삭제 <…> repealed on that date", value=_share(good, deleted),
              target="= 1.0", ok=deleted > 0 and good == deleted, detail={"deleted_units": deleted, "misses": misses}),
        Check(area=area, name="current law: every <개정>/<신설> date an event, in date order", value=_share(in_order, tagged),
              target="= 1.0", ok=tagged > 0 and in_order == tagged, detail={"tagged_units": tagged}),
        Check(area=area, name="current law: units repealed although their text stands (applied 부칙 instructions)",
              value=len(wrongly), target="= 0", ok=not wrongly, detail={"examples": wrongly[:5]}),
        verbs, fronts, whole,
    ]


def _ko_instruction_verbs(graph: CorpusGraph, units: dict[str, LegalUnit]) -> Check:
    """Each 부칙 instruction's AMENDS carries the verb written after the provision it changes."""
    total = good = 0
    actions: Counter[str] = Counter()
    misses: list[str] = []
    for edge in graph.edges:
        text = units[edge.source].text if edge.source in units else ""
        if edge.type not in AMENDMENT_TYPES or edge.end is None or not _KO_INTRO.search(text[: edge.start or 0]):
            continue
        after = text[edge.end: edge.end + 120].split("\n")[0]
        expected = ("deleted" if re.match(r"[^\"“”]{0,60}?[을를]\s?(?:각각\s)?삭제", after)
                    else "amended" if re.match(r"[^\"“”]{0,60}?\s중\s", after + " ")
                    else "replaced" if re.match(r"[^\"“”]{0,60}?[을를]\s?다음과\s?같이\s?(?:한다|하며|하고)", after) else None)
        if expected is None:
            continue
        total += 1
        actions[edge.action or "none"] += 1
        if edge.action == expected:
            good += 1
        elif len(misses) < 6:
            misses.append(f"{edge.citation} {after[:40]} → {edge.action}")
    return Check(area="ko", name="부칙 amending instructions: AMENDS carries the written verb (중 / 삭제한다 / 다음과 같이 한다)",
                 value=_share(good, total), target="= 1.0", ok=total > 0 and good == total,
                 detail={"instructions": total, "actions": dict(actions), "misses": misses})


def _ko_front_dates(documents: list[Document]) -> Check:
    matched, detail = 0, {}
    for document in documents:
        raw = open(document.source_path, encoding="utf-8").read(4000)
        front = _FRONT_EFFECTIVE.search(raw)
        stored = document.units[0].metadata.get("effective_date")
        detail[document.title] = {"front_matter": front.group(1) if front else None, "stored": stored}
        matched += front is not None and stored == front.group(1)
    return Check(area="ko", name="effective date from the file's front matter (시행일자), not from 부칙", value=_share(matched, len(documents)),
                 target="= 1.0", ok=matched == len(documents), detail=detail)


def _ko_written_acts(unit: LegalUnit) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in _KO_ACT.finditer(unit.text)]


# EU -----------------------------------------------------------------------------------------------------


def eu_checks(graph: CorpusGraph, document: Document, short: str) -> list[Check]:
    units = _units(graph)
    own = document.units[0].metadata.get("number", "")

    def written(unit: LegalUnit) -> list[tuple[int, str]]:
        out = []
        for match in _EU_ACT.finditer(unit.text):
            line_start = unit.text.rfind("\n", 0, match.start()) + 1
            if own and match.group(0).endswith(own) or _EU_PROVISION_BEFORE.search(unit.text[line_start: match.start()]):
                continue
            out.append((match.start(), match.group(0)))
        return out

    checks = [_whole_acts(graph, units, written, "eu", document, f"{short}: ")]
    typed = [e for e in graph.edges if e.type in AMENDMENT_TYPES and units.get(e.source) and units[e.source].document_id == document.id]
    if typed:
        actions = Counter(e.action or "none" for e in typed)
        untyped = actions.get("none", 0)
        checks.append(Check(area="eu", name=f"{short}: amending instructions typed by their verb (current law reads the action)",
                            value=_share(len(typed) - untyped, len(typed)), target="= 1.0", ok=untyped == 0,
                            detail={"edges": len(typed), "actions": dict(actions)}))
    return checks


# Vietnamese ---------------------------------------------------------------------------------------------


def vi_checks(graph: CorpusGraph) -> list[Check]:
    units = _units(graph)
    parsed = ParsedLaw(units, graph.edges)
    laws: dict[str, CurrentLaw] = {}

    def law(uid: str) -> CurrentLaw:
        if uid not in laws:
            laws[uid] = parsed.read(uid)
        return laws[uid]

    noted = good = 0
    misses: list[str] = []
    for uid, unit in units.items():
        if unit.type != "article":
            continue
        own_lines = [line for line in unit.text.splitlines() if line.strip().startswith("(")]
        acts = [a.rstrip(".") for line in own_lines for a in _VI_PASSIVE_BY.findall(line)]
        if not acts:
            continue
        noted += 1
        events = law(uid).events
        dates = [e.date for e in events if e.date]
        if all(any(act in e.by for e in events) for act in acts) and dates == sorted(dates):
            good += 1
        elif len(misses) < 6:
            misses.append(unit.label)
    repealed_units = [uid for uid, u in units.items() if u.text and _VI_REPEALED.fullmatch(u.text.splitlines()[0].strip())]
    marked = sum(law(uid).repealed for uid in repealed_units)
    guessed = [e for e in graph.edges if e.type in AMENDMENT_TYPES and e.action is None]
    return [
        Check(area="vi", name="current law: every act a note names as amending is an event, in date order", value=_share(good, noted),
              target="= 1.0", ok=noted > 0 and good == noted, detail={"articles_with_notes": noted, "misses": misses}),
        Check(area="vi", name="current law: every (được bãi bỏ) unit reads repealed", value=_share(marked, len(repealed_units)),
              target="= 1.0", ok=bool(repealed_units) and marked == len(repealed_units), detail={"units": len(repealed_units)}),
        Check(area="vi", name="AMENDS/REPLACES typed by near words, not an instruction", value=len(guessed), target="= 0",
              ok=not guessed, detail={"examples": [e.citation for e in guessed[:5]]}),
        _whole_acts(graph, units, _vi_written_acts, "vi"),
    ]


def _vi_written_acts(unit: LegalUnit) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in _VI_ACT.finditer(unit.text)
            if not _VI_PROVISION_BEFORE.search(unit.text[max(0, m.start() - 20): m.start()])]


# Whole acts, every area -------------------------------------------------------------------------------


def _whole_acts(graph: CorpusGraph, units: dict[str, LegalUnit], written, area: str, only: Document | None = None,
                prefix: str = "") -> Check:
    """Each act written without a provision reaches a document or an External whose name carries no
    provision; none reaches an article (or any unit) of the citing document."""
    externals = {x.id: x.raw for x in graph.externals}
    by_source: dict[str, list[Edge]] = {}
    for edge in graph.edges:
        if edge.type is not EdgeType.CONTAINS and edge.start is not None:
            by_source.setdefault(edge.source, []).append(edge)
    total = good = inside = 0
    misses: list[str] = []

    for uid, unit in units.items():
        if only is not None and unit.document_id != only.id:
            continue
        if unit.metadata.get("role") == "notes":
            continue  # an EU act's signature and footnotes (OJ references): no citations are read there
        own_title = units[unit.document_id].title if unit.document_id in units else ""
        for start, words in written(unit):
            if words == own_title:
                continue  # the citing act naming itself
            edges = [e for e in by_source.get(uid, []) if e.start is not None and e.start <= start < (e.end or 0)]
            if any(_PROVISION_WORDS.search(e.citation or "") for e in edges):
                continue  # the act closes a provision citation ("「의료법」(이하 "법"이라 한다) 제4조제3항")
            amending = [e for e in by_source.get(uid, []) if e.type in AMENDMENT_TYPES and e.target in externals
                        and externals[e.target].startswith(words)]
            if not edges and amending:
                total, good = total + 1, good + 1  # "Amendments to Regulation X": its own instruction AMENDS X
                continue
            if not edges:
                if len(misses) < 8:
                    misses.append(f"{unit.label}: {words}")
                total += 1
                continue
            total += 1
            edge = edges[0]
            target = units.get(edge.target)
            if target is not None and target.document_id == unit.document_id:
                inside += 1
            elif (target is not None and target.type == "document") or (edge.target in externals and not re.search(
                    r"\b(?:Article|Điều|khoản|điểm)\b|제\s?\d+\s?조", externals[edge.target])):
                good += 1
            elif len(misses) < 8:
                misses.append(f"{unit.label}: {words} → {externals.get(edge.target) or (target.label if target else edge.target)}")
    return Check(area=area, name=f"{prefix}whole-act mentions (no provision) → the act's document or an External named by the act",
                 value=_share(good, total), target=">= 0.95", ok=total > 0 and good / total >= 0.95 and inside == 0,
                 detail={"written": total, "reached": good, "inside_citing_act": inside, "misses": misses})

