"""The `html` corpus parser: saved web pages (with any text files beside them, read as `generic`)."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from ingest.html.build import PageRecord, build_document
from ingest.html.page import PageError, is_html_file, read_page
from ingest.models import ParseFailure
from ingest.parsers.base import CorpusParse
from ingest.parsers.generic.format import GenericParser, unique_slug
from ingest.parsers.generic.keys import slugify
from ingest.parsers.generic.readers import collect_files

_SLUG_MAX = 60


def collect_pages(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*")) if p.is_file() and is_html_file(p))
        elif path.is_file() and is_html_file(path):
            found.append(path)
    return list(dict.fromkeys(found))


class HtmlParser:
    name = "html"

    def __init__(self) -> None:
        self._generic = GenericParser()
        self._records: list[PageRecord] = []

    def detect(self, paths: list[Path]) -> bool:
        return bool(collect_pages(paths))

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        pages = collect_pages(paths)
        others = [p for p in collect_files(paths) if p not in set(pages)]
        out = self._generic.parse(others, corpus) if others else CorpusParse()
        taken = {d.id.rsplit("/", 1)[-1] for d in out.documents}
        self._records = []
        for path in pages:
            try:
                page = read_page(path)
            except PageError as exc:
                out.failures.append(ParseFailure(path=str(path), problem=str(exc)))
                continue
            document, notes, record = build_document(page, path, corpus, unique_slug(_page_slug(page, path), taken))
            if record.unplaced_lines:
                notes.append(f"{path}: {record.unplaced_lines} lines not placed on a unit (their links are not edges)")
            out.documents.append(document)
            out.notes.extend(notes)
            self._records.append(record)
        return out

    @property
    def records(self) -> list[PageRecord]:
        """What the last parse kept of each page (element ids, links) for the link finder."""
        return self._records


def _page_slug(page, path: Path) -> str:
    """Ids from what the page says it is (its citation, its URL), the file name only when it says nothing."""
    for source in (*page.citations[:1], urlsplit(page.url).path + urlsplit(page.url).query, page.title):
        slug = slugify(source or "")[:_SLUG_MAX].strip("-")
        if source and slug != "document":
            return slug
    return slugify(path.stem)
