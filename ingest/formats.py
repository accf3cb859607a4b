"""The registry of corpus formats and auto-detection (`--format` forces one)."""
from __future__ import annotations

from pathlib import Path

from core.domain import IngestError
from ingest.html.format import HtmlFormat
from ingest.parsers.adgm import AdgmFormat
from ingest.parsers.base import CorpusFormat
from ingest.parsers.generic.format import generic_formats
from ingest.parsers.hipaa import HipaaFormat


class UnknownFormatError(IngestError, ValueError):
    pass


def all_formats() -> list[CorpusFormat]:
    # Order matters: specific corpus layouts first, then the auto-detecting generic reader, then the
    # forced-grammar variants (which only --format selects, since plain generic detects first). Saved
    # web pages go before generic, which does not read them; text files beside them still read as generic.
    return [HipaaFormat(), AdgmFormat(), HtmlFormat(), *generic_formats()]


def format_names() -> list[str]:
    return [f.name for f in all_formats()]


def pick_format(paths: list[Path], forced: str | None = None) -> CorpusFormat:
    formats = all_formats()
    if forced:
        for fmt in formats:
            if fmt.name == forced:
                return fmt
        raise UnknownFormatError(f"--format {forced!r} is not one of: {', '.join(f.name for f in formats)}")
    for fmt in formats:
        if fmt.detect(paths):
            return fmt
    raise UnknownFormatError("no format recognises these paths; pass --format")
