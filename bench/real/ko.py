"""Korean act → 시행령 → 시행규칙 on the shared 의료법 files (`python -m bench.real --only ko`).

The graph is the ingest pipeline's own parse → find → resolve (`ingest.graph.build_graph`, the dry-run
path); what it must reach is found apart from it, by plain patterns over the raw files: every
"법 제N조(제K항)" in a 시행령 or 시행규칙, every "영 제N조" in a 시행규칙, every quoted delegated phrase
they answer, every <개정 …> tag. A mention counts as reached when an edge leaves the unit holding it,
over that spot of the text, into the parent act's (or decree's) article N (and paragraph K).
Which file is the act, decree or rules comes from each file's own title, so other acts work alike.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from bench.real.amendments import ko_checks
from bench.real.checks import Check
from core.domain import Document, Edge, EdgeType, LegalUnit
from core.retrieval.expansion import AMENDMENT_TYPES
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph
from ingest.parsers.generic.keys import path_of_key

AREA = "ko"
_DECREE, _RULES = "시행령", "시행규칙"
# Independent of the ingest grammar: the bare alias, not preceded by a Hangul syllable ("방법") nor by
# "같은 " / "이 " as whole words (those are other acts or the citing document).
_ALIAS_REF = r"(?<![가-힣]){alias}\s?제\s?(\d{{1,4}})\s?조(?:의\s?(\d{{1,3}}))?(?:\s?제\s?(\d{{1,3}})\s?항)?"
_ANSWER = re.compile(
    r"(?<![가-힣])(법|영)\s?제\s?(\d{1,4})\s?조(?:의\s?(\d{1,3}))?(?:\s?제\s?(\d{1,3})\s?항)?[^\"“\n]{0,40}?에서\s?[\"“]"
    r"([^\"”\n]{0,300}?(대통령령|총리령|[가-힣]{1,12}부령)으로\s?정하는[^\"”\n]{0,100})[\"”](?:이)?란"
)
_DELEGATION = re.compile(r"(대통령령|총리령|[가-힣]{1,12}부령)으로\s?(정하는|정한다)")
_TAG = re.compile(r"<(?:개정|신설)\s?\d{4}\.")
_INSTRUCTION_INTRO = re.compile(r"(?:일부|전부)를\s?다음과\s?같이\s?개정한다")
_TAG_BODY = re.compile(r"<(?:개정|신설)\s?([\d.,\s]{6,400})>")
_FRONT_TITLE = re.compile(r"^제목:\s*(.+)$", re.M)


@dataclass
class _Tiers:
    act: Document
    decree: Document | None
    rules: Document | None


def run(settings: Settings) -> list[Check]:
    folder = settings.shared / "corpora" / "real" / "ko"
    if not folder.is_dir():
        return [Check(area=AREA, name="material", value="missing", detail={"folder": str(folder)})]
    graph = build_graph([folder], corpus=AREA, forced_format="generic")
    units = {u.id: u for d in graph.documents for u in d.units}
    checks: list[Check] = []
    for family in _families(graph.documents):
        checks += _family_checks(graph, family, units)
    checks += _history_checks(graph)
    checks += ko_checks(graph, AREA)
    return checks


def _families(documents: list[Document]) -> list[_Tiers]:
    """Each act with its 시행령 and 시행규칙, matched by title ("의료법" / "의료법 시행령" / "의료법 시행규칙")."""
    by_title = {d.units[0].label: d for d in documents if d.units}
    families = []
    for title, document in by_title.items():
        if title.endswith((_DECREE, _RULES)):
            continue
        decree, rules = by_title.get(f"{title} {_DECREE}"), by_title.get(f"{title} {_RULES}")
        if decree or rules:
            families.append(_Tiers(document, decree, rules))
    return families


def _family_checks(graph: CorpusGraph, family: _Tiers, units: dict[str, LegalUnit]) -> list[Check]:
    checks: list[Check] = []
    pairs = [(family.decree, "법", family.act), (family.rules, "법", family.act), (family.rules, "영", family.decree)]
    for citing, alias, cited in pairs:
        if citing is None or cited is None:
            continue
        checks += _reach(graph, citing, alias, cited, units)
    checks += _delegation(graph, family, units)
    checks.append(_identity(family))
    return checks


def _reach(graph: CorpusGraph, citing: Document, alias: str, cited: Document, units: dict[str, LegalUnit]) -> list[Check]:
    pattern = re.compile(_ALIAS_REF.format(alias=alias))
    raw = Path(citing.source_path).read_text(encoding="utf-8")
    written = len([m for m in pattern.finditer(raw) if not _other(raw, m.start())])
    edges = _edges_by_source(graph.edges)
    found = article_hits = paragraph_total = paragraph_hits = 0
    misses: list[str] = []
    for unit in citing.units:
        for match in pattern.finditer(unit.text):
            if _other(unit.text, match.start()):
                continue
            found += 1
            article = _num(match.group(1), match.group(2))
            paragraph = match.group(3)
            targets = [units.get(e.target) for e in edges.get(unit.id, []) if _covers(e, match.start())]
            paths = [_path(t) for t in targets if t is not None and t.document_id == cited.id]
            if any(p[:1] == [("art", article)] for p in paths):
                article_hits += 1
            elif len(misses) < 8:
                misses.append(f"{unit.label}: {match.group(0)}")
            if paragraph:
                paragraph_total += 1
                paragraph_hits += any(p[:2] == [("art", article), ("cl", paragraph)] for p in paths)
    name = f"{citing.units[0].label}: {alias} 제N조 → {cited.units[0].label}"
    # The denominator is the raw file's count: mentions the parser lost count as misses.
    article_share = round(article_hits / written, 4) if written else 0.0
    paragraph_share = round(paragraph_hits / paragraph_total, 4) if paragraph_total else 0.0
    return [
        Check(area=AREA, name=f"{name} article", value=article_share, target=">= 0.97", ok=article_share >= 0.97,
              detail={"written": written, "in_units": found, "reached": article_hits, "misses": misses}),
        Check(area=AREA, name=f"{name} paragraph", value=paragraph_share, target=">= 0.95", ok=paragraph_share >= 0.95,
              detail={"with_paragraph": paragraph_total, "reached": paragraph_hits}),
    ]


def _delegation(graph: CorpusGraph, family: _Tiers, units: dict[str, LegalUnit]) -> list[Check]:
    """Each explicit answer ("법 제4조제5항 단서에서 "대통령령으로 정하는 경우"란") → its SPECIFIES + DELEGATES_TO."""
    act_text = Path(family.act.source_path).read_text(encoding="utf-8")
    phrases: dict[str, int] = {}
    for match in _DELEGATION.finditer(act_text):
        phrase = f"{match.group(1)}으로 {match.group(2)}"
        phrases[phrase] = phrases.get(phrase, 0) + 1
    specifies = {(e.source, e.target) for e in graph.edges if e.type is EdgeType.SPECIFIES}
    delegates = {(e.source, e.target) for e in graph.edges if e.type is EdgeType.DELEGATES_TO}
    answers = paired = 0
    explicit: set[tuple[str, str]] = set()
    by_authority: dict[str, list[int]] = {}
    misses: list[str] = []
    for citing in (family.decree, family.rules):
        if citing is None:
            continue
        for unit in citing.units:
            for match in _ANSWER.finditer(unit.text):
                cited = family.act if match.group(1) == "법" else family.decree
                if cited is None:
                    continue
                answers += 1
                article, paragraph = _num(match.group(2), match.group(3)), match.group(4)
                wanted = [("art", article)] + ([("cl", paragraph)] if paragraph else [])
                hits = [target for source, target in specifies if source == unit.id and (target, unit.id) in delegates
                        and units[target].document_id == cited.id and _path(units[target])[: len(wanted)] == wanted]
                explicit |= {(unit.id, target) for target in hits}
                ok = bool(hits)
                paired += ok
                tally = by_authority.setdefault(match.group(6), [0, 0])
                tally[0] += 1
                tally[1] += ok
                if not ok and len(misses) < 8:
                    misses.append(f"{unit.label}: {match.group(0)[:80]}")
    share = round(paired / answers, 4) if answers else 0.0
    pairs = specifies & {(t, s) for s, t in delegates}
    return [
        Check(area=AREA, name=f"{family.act.units[0].label}: explicit delegation answers paired", value=share,
              target="= 1.0", ok=answers > 0 and paired == answers,
              detail={"answers": answers, "paired": paired, "by_authority": {k: {"answers": v[0], "paired": v[1]} for k, v in by_authority.items()},
                      "misses": misses}),
        Check(area=AREA, name=f"{family.act.units[0].label}: delegation phrases in the act", value=sum(phrases.values()),
              detail={"by_phrase": phrases, "pairs_in_graph": len(pairs), "pairs_from_explicit_answers": len(pairs & explicit),
                      "pairs_from_opening_citations": len(pairs - explicit)}),
    ]


def _identity(family: _Tiers) -> Check:
    """Names and tiers from each file's own text: front-matter title = document label, tiers 1 / 2 / 3."""
    wrong: list[str] = []
    for document, tier in ((family.act, 1), (family.decree, 2), (family.rules, 3)):
        if document is None:
            continue
        title = _FRONT_TITLE.search(Path(document.source_path).read_text(encoding="utf-8"))
        if title and title.group(1).strip() != document.units[0].label:
            wrong.append(f"{document.id}: label {document.units[0].label!r} vs title {title.group(1).strip()!r}")
        wrong += [f"{u.label}: tier {u.tier}" for u in document.units if u.tier != tier][:3]
    return Check(area=AREA, name=f"{family.act.units[0].label}: names and tiers (1/2/3)", value=len(wrong), target="= 0",
                 ok=not wrong, detail={"wrong": wrong})


def _history_checks(graph: CorpusGraph) -> list[Check]:
    tags = tagged = with_history = repealed_units = repealed_marked = 0
    for document in graph.documents:
        raw = Path(document.source_path).read_text(encoding="utf-8")
        tags += len(_TAG.findall(raw))
        for unit in document.units:
            if _TAG.search(unit.text):
                tagged += 1
                written = {_iso(d) for tag in _TAG_BODY.findall(unit.text) for d in re.findall(r"\d{4}\.\d{1,2}\.\d{1,2}", tag)}
                recorded = {h.get("date") for h in json.loads(unit.metadata.get("amendment_history", "[]"))}
                with_history += written <= recorded
            if re.fullmatch(r"(?:\S{1,12}\s{1,3})?삭제\s?<[\d.,\s]{6,200}>", " ".join(unit.text.split())):
                repealed_units += 1
                repealed_marked += unit.metadata.get("status") == "repealed"
    text_of = {u.id: u.text for d in graph.documents for u in d.units}
    changes = [e for e in graph.edges if e.type in AMENDMENT_TYPES]
    # An amending instruction says so ("…법 일부를 다음과 같이 개정한다"); any other AMENDS came from a tag.
    amends = [e for e in changes if not _INSTRUCTION_INTRO.search(text_of.get(e.source, "")[: e.start or 0])]
    history_share = round(with_history / tagged, 4) if tagged else 0.0
    return [
        Check(area=AREA, name="AMENDS/REPLACES edges not from an amending instruction (<개정> tags)", value=len(amends), target="= 0",
              ok=not amends, detail={"tags_in_files": tags, "examples": [e.citation for e in amends[:5]],
                                      "amends_from_amending_instructions": len(changes) - len(amends)}),
        Check(area=AREA, name="units with <개정>/<신설> tags carrying every tag date in amendment_history", value=history_share, target="= 1.0",
              ok=tagged > 0 and with_history == tagged, detail={"tagged_units": tagged, "with_history": with_history}),
        Check(area=AREA, name="units reading only 삭제 <…> marked repealed", value=repealed_marked, target=f"= {repealed_units}",
              ok=repealed_marked == repealed_units, detail={"deleted_units": repealed_units}),
    ]


def _other(text: str, start: int) -> bool:
    """'같은 법 제…' is another act and '이 법 제…' the citing one; '기관이 법 제…' is the parent act."""
    before = text[max(0, start - 4) : start]
    return bool(re.search(r"(?:^|[^가-힣])(?:같은|이)\s$", before)) or before.endswith("같은")


def _edges_by_source(edges: list[Edge]) -> dict[str, list[Edge]]:
    out: dict[str, list[Edge]] = {}
    for edge in edges:
        if edge.type is not EdgeType.CONTAINS and edge.start is not None:
            out.setdefault(edge.source, []).append(edge)
    return out


def _covers(edge: Edge, position: int) -> bool:
    return edge.start is not None and edge.end is not None and edge.start <= position + 2 and position < edge.end


def _path(unit: LegalUnit) -> list[tuple[str, str]]:
    key = next((k for k in unit.keys if k.startswith("gen:") and k.count(":") > 1), None)
    return path_of_key(key) if key else []


def _iso(written: str) -> str:
    year, month, day = written.split(".")
    return f"{int(year):04d}-{int(month):02d}-{int(day):02d}"


def _num(num: str, branch: str | None) -> str:
    return f"{int(num)}의{int(branch)}" if branch else str(int(num))
