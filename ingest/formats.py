"""The registry of corpus formats and auto-detection (`--format` forces one).

A format is a parser (files → documents, `ingest/parsers/`, `ingest/html/`) paired here with the citation
finder that reads its documents (`ingest/citations/`), so that neither of the two folders imports the other's
registry: finders use the parsers' helpers (keys, markers), and parsers know nothing of finders.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.domain import Document, IngestError
from ingest.citations.adgm import AdgmCitationFinder
from ingest.citations.base import CitationFinder
from ingest.citations.cfr import CfrCitationFinder
from ingest.citations.eu import EuCitationFinder
from ingest.citations.generic import GenericCitationFinder
from ingest.html.format import HtmlParser
from ingest.html.links import LinkedFinder
from ingest.parsers.adgm import AdgmParser
from ingest.parsers.base import CorpusParse, CorpusParser
from ingest.parsers.generic.format import generic_parsers
from ingest.parsers.hipaa import HipaaParser


class UnknownFormatError(IngestError, ValueError):
    pass


@dataclass(frozen=True)
class CorpusFormat:
    """One format: its parser, and the finder primed with the parsed corpus (document names, terms)."""

    parser: CorpusParser
    make_finder: Callable[[list[Document]], CitationFinder]

    @property
    def name(self) -> str:
        return self.parser.name

    def detect(self, paths: list[Path]) -> bool:
        return self.parser.detect(paths)

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        return self.parser.parse(paths, corpus)

    def finder(self, documents: list[Document]) -> CitationFinder:
        return self.make_finder(documents)


def generic_finder(documents: list[Document]) -> CitationFinder:
    # EU acts cite in their own forms ("Article 5(1) of Regulation (EU) 2016/679"); the generic grammar
    # still reads what the EU grammar does not.
    finder = GenericCitationFinder(documents)
    if any(d.units and d.units[0].metadata.get("tradition") == "eu" for d in documents):
        return EuCitationFinder(documents, fallback=finder)
    return finder


def html_format() -> CorpusFormat:
    parser = HtmlParser()
    # The page links the parse kept become citations to exactly the linked unit; the text around them
    # is still read by the generic grammars.
    return CorpusFormat(parser, lambda documents: LinkedFinder(generic_finder(documents), parser.records, documents))


def all_formats() -> list[CorpusFormat]:
    # Order matters: specific corpus layouts first, then the auto-detecting generic reader, then the
    # forced-grammar variants (which only --format selects, since plain generic detects first). Saved
    # web pages go before generic, which does not read them; text files beside them still read as generic.
    return [
        CorpusFormat(HipaaParser(), CfrCitationFinder),
        CorpusFormat(AdgmParser(), AdgmCitationFinder),
        html_format(),
        *(CorpusFormat(parser, generic_finder) for parser in generic_parsers()),
    ]


def format_names() -> list[str]:
    return [f.name for f in all_formats()]


def format_named(name: str) -> CorpusFormat:
    for fmt in all_formats():
        if fmt.name == name:
            return fmt
    raise UnknownFormatError(f"--format {name!r} is not one of: {', '.join(format_names())}")


def pick_format(paths: list[Path], forced: str | None = None) -> CorpusFormat:
    if forced:
        return format_named(forced)
    for fmt in all_formats():
        if fmt.detect(paths):
            return fmt
    raise UnknownFormatError("no format recognises these paths; pass --format")
