"""A read page → a Document through the generic structure grammars, plus what the page's markup adds:
element ids and hyperlinks placed on the units that hold them, footnotes, notes and amendment markers
as unit metadata, identity and labels from the page."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from core.domain import Document, LegalUnit, UnitType, normalize_text
from ingest.html.headings import heading_units
from ingest.html.lines import HtmlLine
from ingest.html.notes import MARKER_NAME, LineKind, classify, strip_inline_markers
from ingest.html.page import Page
from ingest.parsers.generic.readers import Line
from ingest.parsers.generic.structure import parse_document

# A notes box's body runs to the next heading or the next line that opens a provision.
_PROVISION_START = re.compile(r"(?:§|Article\s|Section\s|Điều\s|PART\s|Subpart\s|CHAPTER\s|Chương\s|\(\w{1,4}\)\s|\d{1,3}\.\s)", re.I)
_NOTE_BODY_MAX = 30
_CFR = re.compile(r"(?P<title>\d{1,2})\s?CFR\s(?:Part\s)?(?P<part>\d{1,4})", re.I)
_SECTION_LABEL = re.compile(r"Section\s(?P<num>\d{1,4}\.\d{1,4}[a-z]?)")
_CELEX = re.compile(r"(?:celex[:/])?(?P<sector>\d)(?P<year>\d{4})(?P<kind>[RLD])(?P<num>\d{4})(?P<corr>R\(|R%28)?", re.I)
_EU_ACT = re.compile(r"(?P<type>REGULATION|DIRECTIVE|DECISION)\s(?:\((?P<series>EU|EC|EEC|EU,\sEuratom)\)\s)?(?:No\s)?(?P<num>\d{1,4}/\d{1,4}(?:/(?:EU|EC|EEC))?)", re.I)
_BASE_ACT = "B"
_WIDGET_WORDS = 4
_EFFECTIVE_FIELD = re.compile(r"hiệu\s?lực|effective|in\sforce|commencement|applicab", re.I)
_DMY = re.compile(r"(?P<d>\d{1,2})[/.\-](?P<m>\d{1,2})[/.\-](?P<y>\d{4})")
_AMENDING_ROW = re.compile(r"\s?►\s?[MCA]\d")
_EU_KINDS = {"R": "Regulation", "L": "Directive", "D": "Decision"}


@dataclass
class UnitLink:
    unit_id: str
    start: int
    end: int
    href: str  # absolute where the page states its address
    text: str
    title: str = ""


@dataclass
class PageRecord:
    """What the finder needs from one page: where its anchors landed and the links its units hold."""

    doc_id: str
    url: str
    anchors: dict[str, str] = field(default_factory=dict)  # element id (or path alias) → unit id
    links: list[UnitLink] = field(default_factory=list)
    amended_by: list[tuple[str, str]] = field(default_factory=list)  # (unit id, amending act name)
    unplaced_lines: int = 0


@dataclass
class _Attach:
    kind: str
    text: str
    before: int  # the kept line this note describes (-1: the document)
    after: int  # the kept line a marker announces


def build_document(page: Page, path: Path, corpus: str, slug: str) -> tuple[Document, list[str], PageRecord]:
    kept, attachments, fields, marker_acts = _split_lines(page.lines)
    lines = [Line(line.text, line.heading) for line in kept]
    document, notes = parse_document(lines, path, corpus, slug, None)
    if document.units[0].metadata.get("grammar") == "paragraphs":
        by_heading = heading_units(kept, document.units[0], slug)
        if by_heading is not None:
            document.units = by_heading
            document.units[0].metadata["grammar"] = "headings"
            notes = [n for n in notes if "no heading structure" not in n]
        else:
            # No numbering and no headings: each HTML block is a paragraph, so the fallback needs the breaks marked.
            spaced = [part for line in lines for part in (line, Line(""))]
            document, notes = parse_document(spaced, path, corpus, slug, None)
    record = PageRecord(doc_id=document.id, url=page.url)
    placed = _place(kept, document.units)
    record.unplaced_lines = sum(1 for p in placed if p is None)
    units = document.units
    base = page.base_url or page.url
    for line, where in zip(kept, placed, strict=True):
        if where is None:
            continue
        index, offset = where
        unit = units[index]
        for anchor in line.anchors:
            record.anchors.setdefault(anchor, unit.id)
        for link in line.links:
            start = offset + link.start
            end = offset + len(link.text.rstrip()) + link.start
            href = urljoin(base, link.href) if base and not link.href.startswith("#") else link.href
            record.links.append(UnitLink(unit.id, start, end, href, link.text.strip(), link.title))
        if line.footnotes:
            _append_json(unit, "footnotes", line.footnotes)
    doc_unit = units[0]
    for item in attachments:
        target = _unit_of(placed, units, item.before if item.kind != LineKind.MARKER else item.after)
        if item.kind == LineKind.MARKER:
            for name, act in _marker_acts(item.text, marker_acts):
                if name == _BASE_ACT:
                    continue  # "▼B": the words of the act as first adopted
                _append_json(target, "amendment_history", [{"marker": name, "by": act, "note": item.text}])
                if act and target is not None:
                    record.amended_by.append((target.id, act))
        else:
            if item.kind == LineKind.SOURCE_NOTE and target is not None:
                target = _provision_of(target, units)  # "[57 FR 60106 …]" closes its section, not its last paragraph
            _append_json(target or doc_unit, "history", [{"kind": item.kind, "note": item.text}])
    for label, date in fields.items():
        doc_unit.metadata[f"page_{_field_name(label)}"] = date
        day = _DMY.fullmatch(date)
        if _EFFECTIVE_FIELD.search(label) and day:
            # The publisher's "in force from" field; a date the text itself states wins.
            doc_unit.metadata.setdefault("effective_date", f"{day['y']}-{int(day['m']):02d}-{int(day['d']):02d}")
    if page.url:
        doc_unit.metadata["url"] = page.url
        _unit_urls(units, record, page.url)
    if page.title and not doc_unit.title:
        doc_unit.title = page.title
    doc_unit.metadata["source_format"] = "html"
    name = _name_from_page(units, path.stem, page, document.title)
    if name and name not in document.names:
        document.names.append(name)
    _cfr_labels(page, units)
    return document, notes, record


def _split_lines(lines: list[HtmlLine]):
    """Rule lines (kept) apart from notes, markers and date fields, each note tied to a kept line."""
    kept: list[HtmlLine] = []
    attachments: list[_Attach] = []
    fields: dict[str, str] = {}
    marker_acts: dict[str, str] = {}
    box: _Attach | None = None
    box_lines = 0
    for line in lines:
        if _widget(line):
            continue
        kind = classify(line.text, line.heading)
        if box is not None and kind is LineKind.TEXT and line.heading is None and box_lines < _NOTE_BODY_MAX \
                and not _PROVISION_START.match(line.text):
            box.text = f"{box.text} {line.text}".strip()
            box_lines += 1
            continue
        box = None
        if kind is LineKind.TEXT:
            text, markers = strip_inline_markers(line.text)
            table_row = bool(markers) and " | " in line.text and line.text.lstrip().startswith(("►", "▼"))
            if table_row:
                # The consolidated text's table of amending acts: "►M1 | DIRECTIVE 2006/24/EC …".
                marker_acts[markers[0]] = _act_name(line)
            if markers or text != line.text:
                line = _restrip(line, text)
                if markers and not table_row:
                    attachments.append(_Attach(LineKind.MARKER, " ".join(f"►{m}" for m in markers) + _link_titles(line),
                                               len(kept) - 1, len(kept)))
            kept.append(line)
        elif kind is LineKind.MARKER:
            attachments.append(_Attach(kind, line.text + _link_titles(line), len(kept) - 1, len(kept)))
        elif kind is LineKind.DATE_FIELD:
            label, _, date = line.text.partition(":")
            fields[label.strip()] = date.strip()
        else:
            box = _Attach(kind.value, line.text, len(kept) - 1, len(kept))
            box_lines = 0
            attachments.append(box)
    return kept, attachments, fields, marker_acts


def _widget(line: HtmlLine) -> bool:
    """A line that is one short link without a number ("Print", "Back to top", "Export as PDF"): page
    furniture. A linked citation ("12 U.S.C. 84", "Article 5") has a number and stays."""
    if len(line.links) != 1 or line.heading is not None:
        return False
    words = line.text.strip()
    link = line.links[0].text.strip()
    return link == words and len(words.split()) <= _WIDGET_WORDS and not any(c.isdigit() for c in words)


def _link_titles(line: HtmlLine) -> str:
    titles = [link.title or link.href for link in line.links]
    return f" ({'; '.join(titles)})" if titles else ""


def _restrip(line: HtmlLine, text: str) -> HtmlLine:
    """The line with markers removed; its links found again by their words."""
    out = HtmlLine(text=text, heading=line.heading, anchors=line.anchors, footnotes=line.footnotes, in_table=line.in_table)
    cursor = 0
    for link in line.links:
        start = text.find(link.text.strip(), cursor) if link.text.strip() else -1
        if start < 0:
            continue
        link.start, link.end = start, start + len(link.text.strip())
        link.text = link.text.strip()
        out.links.append(link)
        cursor = link.end
    return out


def _eu_name(match: re.Match[str]) -> str:
    series = f" ({match['series']})" if match["series"] else ""
    return f"{match['type'].capitalize()}{series} {match['num']}"


def _act_name(line: HtmlLine) -> str:
    match = _EU_ACT.search(line.text)
    if match:
        return _eu_name(match)
    for link in line.links:
        name = _celex_name(link.title or link.href)
        if name:
            return name
    return ""


def _celex_name(text: str) -> str:
    match = _CELEX.search(text)
    if match is None or match["kind"].upper() not in _EU_KINDS:
        return ""
    act = f"{_EU_KINDS[match['kind'].upper()]} {match['year']}/{int(match['num'])}"
    return f"Corrigendum to {act}" if match["corr"] else act


def _marker_acts(text: str, acts: dict[str, str]) -> list[tuple[str, str]]:
    out = []
    for match in MARKER_NAME.finditer(text):
        name = match["name"]
        act = acts.get(name) or ("" if name == "B" else _celex_name(text))
        out.append((name, act))
    return out


def _place(kept: list[HtmlLine], units: list[LegalUnit]) -> list[tuple[int, int] | None]:
    """Each kept line → (unit index, offset in its text): lines run through the units in order."""
    placed: list[tuple[int, int] | None] = []
    current, cursor = 0, 0
    texts = [u.text for u in units]
    for line in kept:
        needle = normalize_text(line.text).rstrip().strip()
        found = None
        for index in range(current, min(current + 8, len(units))):
            position = texts[index].find(needle, cursor if index == current else 0) if needle else -1
            if position >= 0:
                found = (index, position)
                break
        if found is None:
            placed.append(None)
            continue
        placed.append(found)
        current, cursor = found[0], found[1] + len(needle)
    return placed


def _unit_of(placed: list[tuple[int, int] | None], units: list[LegalUnit], line_index: int) -> LegalUnit | None:
    if 0 <= line_index < len(placed) and placed[line_index] is not None:
        return units[placed[line_index][0]]  # type: ignore[index]
    return None


def _provision_of(unit: LegalUnit, units: list[LegalUnit]) -> LegalUnit:
    by_id = {u.id: u for u in units}
    node: LegalUnit | None = unit
    while node is not None and node.type not in (UnitType.SECTION, UnitType.ARTICLE, UnitType.RULE):
        node = by_id.get(node.parent_id or "")
    return node or unit


def _append_json(unit: LegalUnit | None, key: str, items: list) -> None:
    if unit is None:
        return
    existing = json.loads(unit.metadata.get(key, "[]"))
    unit.metadata[key] = json.dumps([*existing, *items], ensure_ascii=False)


def _field_name(label: str) -> str:
    return re.sub(r"\W+", "_", label.strip().lower()).strip("_")[:40] or "date"


def _unit_urls(units: list[LegalUnit], record: PageRecord, url: str) -> None:
    """A rule card links to the published page at the unit's own anchor."""
    first: dict[str, str] = {}
    for anchor, unit_id in record.anchors.items():
        if not anchor.startswith("path:"):
            first.setdefault(unit_id, anchor)
    address = url.split("#", 1)[0]
    for unit in units[1:]:
        own = first.get(unit.id)
        unit.metadata["url"] = f"{address}#{own}" if own else address


def _cfr_labels(page: Page, units: list[LegalUnit]) -> None:
    """US CFR pages: "12 CFR 217.10(a)(1)(i)", as the Code is cited, not "Part 217 Section 217.10(a)…"."""
    cited = next((m for m in map(_CFR.search, page.citations) if m), None)
    if cited is None:
        return
    title, part = cited["title"], cited["part"]
    units[0].label = f"{title} CFR Part {part}"
    by_id = {u.id: u for u in units}
    labels = {u.id: u.label for u in units}
    for unit in units[1:]:
        section: LegalUnit | None = unit
        while section is not None and section.type is not UnitType.SECTION:
            section = by_id.get(section.parent_id or "")
        if section is None:
            if unit.type is UnitType.PART:
                unit.label = f"{title} CFR Part {part}"
            continue
        match = _SECTION_LABEL.search(labels[section.id])
        own = labels[unit.id]
        if match is None or match.group(0) not in own:
            continue
        suffix = own[own.find(match.group(0)) + len(match.group(0)):]
        unit.label = f"{title} CFR {match['num']}{suffix}"


def _name_from_page(units: list[LegalUnit], stem: str, page: Page, title: str) -> str:
    """Where the text named nothing, labels fall back to the file name: the page's own name replaces it."""
    # The act's own title, not a row of the consolidated text's table of amending acts ("►M1 | DIRECTIVE …").
    head = [line for line in units[0].text[:3000].split("\n") if not _AMENDING_ROW.match(line)]
    stated = next((m for m in map(_EU_ACT.search, head) if m), None)
    own = title if title and title != stem else page.title
    name = (page.citations[0] if page.citations else "") or (_eu_name(stated) if stated else "") or own[:80].strip()
    if not name or not stem:
        return name
    for unit in units:
        if unit.label == stem or unit.label.startswith(f"{stem} ") or unit.label.startswith(f"{stem},"):
            unit.label = name + unit.label[len(stem):]
    return name
