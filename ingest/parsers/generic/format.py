"""The generic corpus parser: the user's own .txt/.md/.docx/.pdf files, structure read from headings."""
from __future__ import annotations

from pathlib import Path

from ingest.models import ParseFailure
from ingest.parsers.base import CorpusParse
from ingest.parsers.generic.keys import slugify
from ingest.parsers.generic.readers import SUPPORTED_EXTENSIONS, ReadError, collect_files, read_lines
from ingest.parsers.generic.structure import AUTO, GENERIC_FORMAT_NAMES, grammar_code, parse_document


class GenericParser:
    """`GenericParser()` detects each document's grammar; `GenericParser("generic-vi")` forces one."""

    def __init__(self, name: str = AUTO) -> None:
        self._mode = grammar_code(name)
        self.name = name

    def detect(self, paths: list[Path]) -> bool:
        # The fallback format: anything it can read at all is its business.
        return any(path.is_dir() or path.suffix.lower() in SUPPORTED_EXTENSIONS for path in paths) and bool(
            collect_files(paths)
        )

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        out = CorpusParse()
        slugs: set[str] = set()
        for path in collect_files(paths):
            try:
                lines = read_lines(path)
            except ReadError as exc:
                out.failures.append(ParseFailure(path=str(path), problem=str(exc)))
                continue
            document, notes = parse_document(lines, path, corpus, unique_slug(slugify(path.stem), slugs), self._mode)
            out.documents.append(document)
            out.notes.extend(notes)
        return out


def generic_parsers() -> list[GenericParser]:
    """One parser per `--format` name (generic, generic-en, generic-vi, generic-ko, generic-paragraphs)."""
    return [GenericParser(name) for name in GENERIC_FORMAT_NAMES]


def unique_slug(slug: str, taken: set[str]) -> str:
    # Two files named "circular.txt" in different folders must still get different document ids.
    candidate, copy = slug, 1
    while candidate in taken:
        copy += 1
        candidate = f"{slug}-{copy}"
    taken.add(candidate)
    return candidate
