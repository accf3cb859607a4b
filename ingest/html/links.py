"""Hyperlinks → Mentions: a link to a unit of the corpus is a REFERENCES edge to exactly that unit (a
DEFINES edge when the unit is a definition or the link says it is a glossary entry); a link outside
the corpus is an External named by its words. A citation the text grammar also finds is one edge:
the grammar's mention is dropped where a link covers the same words.

A link's target is looked up in this order: an anchor of the same page; a page of the corpus by its
stated URL; an element that states the link's path as its own address; a fragment id that only one
page carries; the path's last segment read as an element id ("section-217.20" → id "217.20").
"""
from __future__ import annotations

import re
from collections import defaultdict
from urllib.parse import unquote, urlsplit

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.citations.base import CitationFinder
from ingest.html.build import PageRecord, UnitLink
from ingest.html.lines import PATH_ANCHOR
from ingest.models import Mention

_ID_JUNK = re.compile(r"[^0-9a-z]+")
_GLOSSARY = re.compile(r"defin|glossar|\bterm", re.I)
_CITATION_WORDS = re.compile(r"\d")
_RELATIVE = re.compile(r"(?:paragraphs?\s)?(?:\(\w{1,5}\)){1,6}|.{0,120}\b(?:this|that|such)\b.{0,120}", re.I)
_ACT_NUMBER = re.compile(r"(?<![\d/])\d{1,4}/\d{1,4}(?!\d)")


def _norm_id(value: str) -> str:
    return _ID_JUNK.sub("-", unquote(value).lower()).strip("-")


def _page_key(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}" + (f"?{parts.query}" if parts.query else "")


class LinkResolver:
    def __init__(self, records: list[PageRecord]) -> None:
        self._records = {r.doc_id: r for r in records}
        self._by_url = {_page_key(r.url): r for r in records if r.url}
        self._paths: dict[str, str] = {}
        owners: dict[str, set[str]] = defaultdict(set)
        units: dict[str, str] = {}
        normalized: dict[str, set[str]] = defaultdict(set)
        for record in records:
            for anchor, unit_id in record.anchors.items():
                if anchor.startswith(PATH_ANCHOR):
                    self._paths.setdefault(anchor[len(PATH_ANCHOR):].rstrip("/"), unit_id)
                    continue
                owners[anchor].add(record.doc_id)
                units.setdefault(anchor, unit_id)
                normalized[_norm_id(anchor)].add(unit_id)
        self._unique = {a: units[a] for a, docs in owners.items() if len(docs) == 1}
        self._normalized = {a: next(iter(ids)) for a, ids in normalized.items() if len(ids) == 1}

    def target(self, link: UnitLink, record: PageRecord) -> str | None:
        href = link.href
        if href.startswith("#"):
            return record.anchors.get(unquote(href[1:])) or record.anchors.get(href[1:])
        parts = urlsplit(href)
        fragment = unquote(parts.fragment)
        page = self._by_url.get(_page_key(href.split("#", 1)[0])) if parts.netloc or parts.path else None
        if page is not None:
            return page.anchors.get(fragment) if fragment else page.anchors.get("", None) or page.doc_id
        if fragment and fragment in self._unique:
            return self._unique[fragment]
        path = unquote(parts.path).rstrip("/")
        if path in self._paths:
            return self._paths[path]
        last = path.rsplit("/", 1)[-1]
        for candidate in (last, last.split("-", 1)[-1]):
            unit = self._normalized.get(_norm_id(candidate)) if candidate else None
            if unit is not None:
                return unit
        return None


class LinkedFinder:
    """The text grammar's finder, plus the links of HTML pages."""

    def __init__(self, text_finder: CitationFinder, records: list[PageRecord], documents: list[Document]) -> None:
        self._text = text_finder
        self._resolver = LinkResolver(records)
        self._records = {r.doc_id: r for r in records}
        self._units: dict[str, LegalUnit] = {u.id: u for d in documents for u in d.units}
        self._links: dict[str, list[tuple[UnitLink, PageRecord]]] = defaultdict(list)
        for record in records:
            for link in record.links:
                self._links[link.unit_id].append((link, record))
        self._amends = _amending(records, documents)

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        found = self._text.find(unit, document) + self._amends.get(unit.id, [])
        linked = [m for m in (self._mention(link, record) for link, record in self._links.get(unit.id, [])) if m]
        if not linked:
            return found
        spans = [(m.start, m.end) for m in linked]
        kept = [m for m in found if not any(m.start < end and start < m.end for start, end in spans)]
        return sorted([*kept, *linked], key=lambda m: m.start)

    def _mention(self, link: UnitLink, record: PageRecord) -> Mention | None:
        if link.end <= link.start:
            return None
        target = self._resolver.target(link, record)
        if target is not None and target == link.unit_id:
            return None
        if link.href.startswith("#"):
            bare = link.text.strip("()[]*† ")
            if target is None or target not in self._units or (len(bare) <= 3 and (bare.isdigit() or len(bare) <= 1)):
                return None  # a same-page link to nothing, or a note call (the note rides on the unit)
        edge = EdgeType.REFERENCES
        if target is not None:
            unit = self._units.get(target)
            if (unit is not None and unit.type is UnitType.DEFINITION) or _GLOSSARY.search(link.href.split("#")[-1] if "#" in link.href else ""):
                edge = EdgeType.DEFINES
        return Mention(
            source_id=link.unit_id, text=link.text, start=link.start, end=link.end,
            keys=[f"unit:{target}"] if target else [], edge_type=edge, typed=edge is EdgeType.DEFINES,
            name=None if target else _external_name(link),
        )


def _amending(records: list[PageRecord], documents: list[Document]) -> dict[str, list[Mention]]:
    """A consolidated text's "▼M1" names the act that amended the unit below it: where that act is in the
    corpus (found by its number among the documents' names), it AMENDS the unit."""
    by_number: dict[str, str] = {}
    for document in documents:
        for name in [*document.names, *(u.label for u in document.units[:1])]:
            for number in _ACT_NUMBER.findall(name):
                by_number.setdefault(number, document.id)
    out: dict[str, list[Mention]] = defaultdict(list)
    for record in records:
        for unit_id, act in record.amended_by:
            number = next(iter(_ACT_NUMBER.findall(act)), None)
            source = by_number.get(number) if number else None
            if source is None or source == record.doc_id:
                continue
            out[source].append(Mention(source_id=source, text=act, start=0, end=0, keys=[f"unit:{unit_id}"],
                                       edge_type=EdgeType.AMENDS, typed=True, action="amended"))
    return out


def _external_name(link: UnitLink) -> str:
    """An External is named by the act and provision the link's words give, else by its address."""
    words = " ".join(link.text.split())
    if _CITATION_WORDS.search(words) and len(words) <= 120 and not _RELATIVE.fullmatch(words):
        return words
    # "(c)(2)(i)", "part 229 of this chapter": the words need the address to name a target.
    return f"{words} ({link.href[:200]})" if words else link.href[:200]
