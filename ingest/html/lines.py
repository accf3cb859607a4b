"""The main-content element → lines of text, each with the element ids it opens and the links it holds.

Blocks (paragraphs, list items, headings, divs) end a line; inline elements run on. A table row is one
line, its cells joined by " | ", except a row whose first cell is only a number or letter ("(a)",
"1.") — the layout EUR-Lex and Word exports use for numbered points — which reads as that marker
followed by the rest. A line that is only such a marker is carried onto the next line for the same
reason. Footnote bodies (the targets of short same-page links) leave the flow and ride on the line
that calls them.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field

from core.domain import normalize_text

_BLOCKS = frozenset(
    "p div li ul ol dl dt dd h1 h2 h3 h4 h5 h6 table tbody thead tfoot tr caption blockquote pre section "
    "article main header footer figure figcaption address hr center details summary fieldset legend body "
    "html colgroup".split()
)
HEADING_LEVEL = {"h1": 0, "h2": 1, "h3": 2, "h4": 3, "h5": 4, "h6": 5}
# A line that is only a list marker: "(a)", "1.", "a)", "(iv)", "•", "—".
MARKER = re.compile(r"(?:\(\s?[0-9A-Za-zđ]{1,5}\s?\)|[0-9A-Za-zđ]{1,5}[.)]|\d{1,3}(?:\.\d{1,3}){1,4}\.?|[•·▪–—-])")
_MARKER_START = re.compile(r"\(\s?[0-9A-Za-z]{1,5}\s?\)\s")
_FOOTNOTE_CALL = re.compile(r"[\[(]?\s?(?:\d{1,3}|[*†‡§a-z])\s?[\])]?")
PATH_ANCHOR = "path:"
_RUN = re.compile(r"\s{2,}|[^\S ]")  # single spaces stay as they are: nothing to map


@dataclass
class LinkSpan:
    start: int
    end: int
    href: str
    text: str
    title: str = ""


@dataclass
class HtmlLine:
    text: str
    heading: int | None = None
    anchors: list[str] = field(default_factory=list)
    links: list[LinkSpan] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    in_table: bool = False


def footnote_targets(content) -> dict[str, str]:
    """id → note text for the targets of footnote calls: short same-page links to a later element."""
    elements = list(content.iter())  # held: id() of an lxml proxy is stable only while it is referenced
    by_id = {el.get("id"): el for el in elements if isinstance(el.tag, str) and el.get("id")}
    order = {id(el): n for n, el in enumerate(elements)}
    notes: dict[str, str] = {}
    for link in content.iter("a"):
        href = link.get("href") or ""
        text = " ".join(link.text_content().split())
        if not href.startswith("#") or not _FOOTNOTE_CALL.fullmatch(text):
            continue
        target = by_id.get(href[1:])
        if target is None or order.get(id(target), 0) <= order.get(id(link), 0):
            continue
        block = _enclosing_block(target)
        notes[href[1:]] = " ".join(normalize_text(block.text_content()).split())
    return notes


def _enclosing_block(element):
    node = element
    while node is not None and (not isinstance(node.tag, str) or node.tag not in _BLOCKS):
        node = node.getparent()
    return node if node is not None else element


class _Builder:
    def __init__(self, footnotes: dict[str, str], skip: set[int]) -> None:
        self.lines: list[HtmlLine] = []
        self._footnotes = footnotes
        self._skip = skip
        self._buf: list[str] = []
        self._raw_len = 0
        self._links: list[tuple[int, int, str, str]] = []
        self._calls: list[str] = []
        self._anchors: list[str] = []
        self._prefix = ""
        self._prefix_anchors = 0
        self._heading: int | None = None
        self._cell_depth = 0
        self._table_depth = 0
        self._flushes = 0

    def add(self, text: str | None) -> None:
        if text:
            self._buf.append(text)
            self._raw_len += len(text)

    def flush(self) -> None:
        raw = normalize_text("".join(self._buf))
        self._flushes += 1
        if self._links:
            text, mapping = _collapse(raw)
        else:
            text, mapping = " ".join(raw.split()), _identity
        links = [(mapping(s), mapping(e), href, title) for s, e, href, title in self._links]
        self._buf, self._raw_len, self._links = [], 0, []
        heading, self._heading = self._heading, None
        if not text:
            return
        if MARKER.fullmatch(text) and not links and heading is None:
            self._prefix = f"{self._prefix}{text} "
            self._prefix_anchors = len(self._anchors)
            return
        if self._prefix and _MARKER_START.match(text):
            # "(b)" alone, then "(1) …": a paragraph with no words of its own, not one paragraph "(b) (1) …".
            cut = self._prefix_anchors
            anchors, self._anchors = self._anchors[:cut], self._anchors[cut:]
            self.lines.append(HtmlLine(text=self._prefix.strip(), anchors=anchors, in_table=self._table_depth > 0))
            self._prefix = ""
        shift = len(self._prefix)
        line = HtmlLine(text=self._prefix + text, heading=heading, anchors=self._anchors, footnotes=self._calls,
                        in_table=self._table_depth > 0)
        for start, end, href, title in links:
            if end > start:
                line.links.append(LinkSpan(start + shift, end + shift, href, text[start:end], title))
        self.lines.append(line)
        self._anchors, self._calls, self._prefix = [], [], ""

    def visit(self, element) -> None:
        if id(element) in self._skip or not isinstance(element.tag, str):
            self.add(element.tail)
            return
        tag = element.tag.lower()
        for name in (element.get("id"), element.get("name") if tag == "a" else None):
            if name:
                self._anchors.append(name)
        for attribute, value in element.attrib.items():
            if attribute.startswith("data-") and value.startswith("{") and '"path"' in value:
                # The element's own address, stated as metadata ({"path": "/…/section-217.10"}).
                path = _json_path(value)
                if path:
                    self._anchors.append(PATH_ANCHOR + path)
        if tag == "br":
            self.add(" ") if self._cell_depth else self.flush()
            self.add(element.tail)
            return
        if tag == "tr":
            self._row(element)
            self.add(element.tail)
            return
        block = tag in _BLOCKS and not self._cell_depth
        if block:
            self.flush()
            if tag in HEADING_LEVEL:
                self._heading = HEADING_LEVEL[tag]
        if tag == "table":
            self._table_depth += 1
            saved, self._cell_depth = self._cell_depth, 0
        start, flushes = self._raw_len, self._flushes
        self.add(element.text)
        for child in element:
            self.visit(child)
        if tag == "a" and element.get("href") and flushes == self._flushes:
            href = element.get("href")
            if href.startswith("#") and href[1:] in self._footnotes:
                self._calls.append(self._footnotes[href[1:]])
            self._links.append((start, self._raw_len, href, element.get("title") or ""))
        if tag == "table":
            self._table_depth -= 1
            self._cell_depth = saved
        if block:
            if tag in HEADING_LEVEL:
                self._heading = HEADING_LEVEL[tag]
            self.flush()
        self.add(element.tail)

    def _row(self, row) -> None:
        self.flush()
        cells = [c for c in row if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")]
        first = " ".join(cells[0].text_content().split()) if cells else ""
        if len(cells) >= 2 and MARKER.fullmatch(first) and cells[0].find(".//table") is None:
            # A numbered point laid out as a table: the marker, then the point's own blocks.
            self.visit_cell_as_block(cells[0])
            for cell in cells[1:]:
                self.visit_cell_as_block(cell)
            self.flush()
            return
        for n, cell in enumerate(cells):
            if cell.find(".//table") is not None:
                self.flush()
                self.visit_cell_as_block(cell)
                continue
            if not cell.text_content().strip():
                continue  # an empty cell adds no column to the row's words
            if n and self._buf and "".join(self._buf).strip():
                self.add(" | ")
            self._cell_depth += 1
            self.visit(cell)
            self._cell_depth -= 1
        self.flush()

    def visit_cell_as_block(self, cell) -> None:
        for name in (cell.get("id"),):
            if name:
                self._anchors.append(name)
        self.add(cell.text)
        for child in cell:
            self.visit(child)
        self.flush()


def _json_path(value: str) -> str:
    try:
        data = json.loads(value)
    except ValueError:
        return ""
    path = data.get("path") if isinstance(data, dict) else None
    return path if isinstance(path, str) else ""


def _identity(offset: int) -> int:
    return offset


def _collapse(raw: str):
    """Whitespace runs → one space, trimmed; and a function mapping raw offsets to collapsed ones."""
    lead = len(raw) - len(raw.lstrip())
    body = raw.strip()
    pieces: list[str] = []
    runs: list[tuple[int, int, int]] = []  # (raw start, raw end, collapsed offset just after the run)
    length = last = 0
    for match in _RUN.finditer(body):
        pieces += [body[last:match.start()], " "]
        length += match.start() - last + 1
        last = match.end()
        runs.append((match.start() + lead, match.end() + lead, length))
    pieces.append(body[last:])
    text = "".join(pieces)
    starts = [run[0] for run in runs]

    def mapping(offset: int) -> int:
        if offset <= lead:
            return 0
        position = bisect_right(starts, offset) - 1
        if position < 0:
            return min(offset - lead, len(text))
        run_start, run_end, after = runs[position]
        return min(after if offset < run_end else after + offset - run_end, len(text))

    return text, mapping


def content_lines(content) -> list[HtmlLine]:
    footnotes = footnote_targets(content)
    by_id = {el.get("id"): el for el in content.iter() if isinstance(el.tag, str) and el.get("id")}
    # Held in a list: id() of an lxml proxy is only stable while the proxy is referenced.
    blocks = [_enclosing_block(by_id[target]) for target in footnotes]
    builder = _Builder(footnotes, {id(block) for block in blocks})
    builder.visit(content)
    builder.flush()
    del blocks
    return builder.lines
