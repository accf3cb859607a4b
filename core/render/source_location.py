"""Where a unit sits in its source file: line numbers in text/Markdown, the page of a PDF or of an HTML source.

The unit's words are looked up in the file as ingest read it (letters and digits only, case folded), read once per
modification time; a file that is gone or unreadable gives a location without a position.
"""
from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Mapping
from functools import lru_cache
from importlib.util import find_spec
from itertools import accumulate
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, computed_field

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
URL_KEYS = ("source_url", "url", "page_url")
PROBE_CHARS = 48
_KEEP = re.compile(r"[^\W_]+")
_LOCK = threading.Lock()


class SourceLocation(BaseModel):
    file_name: str = ""
    kind: Literal["text", "pdf", "html", "other"] = "other"
    first_line: int | None = None
    last_line: int | None = None
    page: int | None = None
    page_image: bool = Field(default=False, description="the page can be shown as an image (PDF found, renderer installed)")
    url: str | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def line(self) -> str:
        """'line 12', 'lines 12–18', '' when not found."""
        if self.first_line is None:
            return ""
        if self.last_line is None or self.last_line == self.first_line:
            return f"line {self.first_line}"
        return f"lines {self.first_line}–{self.last_line}"


class _Folded(BaseModel):
    """A file's letters and digits, case folded, with the (line or page) number each character came from."""

    text: str
    starts: list[int]  # index in `text` where each numbered block (line, page) begins


def _fold(pieces: list[str]) -> _Folded:
    folded = [fold(piece) for piece in pieces]
    return _Folded(text="".join(folded), starts=[0, *accumulate(map(len, folded))][: len(folded)])


@lru_cache(maxsize=64)
def _folded_file(path: str, mtime_ns: int) -> _Folded | None:
    suffix = Path(path).suffix.lower()
    try:
        if suffix == ".pdf":
            from pypdf import PdfReader  # late: only PDF corpora need it

            return _fold([page.extract_text() or "" for page in PdfReader(path).pages])
        return _fold(Path(path).read_text(encoding="utf-8", errors="replace").splitlines())
    except Exception:  # noqa: BLE001 — an unreadable source only loses the position, never the view
        return None


def _block(folded: _Folded, index: int) -> int:
    return bisect.bisect_right(folded.starts, index)  # 1-based number of the block holding index


def fold(text: str) -> str:
    """Letters and digits only, case folded: what matching a unit's words in a source file compares."""
    return "".join(_KEEP.findall(text)).casefold()


def word_range(folded: str, text: str) -> tuple[int, int] | None:
    """First and last index in `folded` (a folded file or page) of `text`'s words: its head found, then its tail
    after it (the head alone when the tail is not there)."""
    words = fold(text)
    if not words:
        return None
    start = folded.find(words[:PROBE_CHARS])
    if start < 0:
        return None
    tail = words[-PROBE_CHARS:]
    end = folded.find(tail, start)
    return start, end + len(tail) - 1 if end >= 0 else start + min(len(words), PROBE_CHARS) - 1


def _span(folded: _Folded, text: str) -> tuple[int, int] | None:
    found = word_range(folded.text, text)
    return (_block(folded, found[0]), _block(folded, found[1])) if found else None


def _url(*metadatas: Mapping[str, str], source_path: str = "") -> str | None:
    for metadata in metadatas:
        for key in URL_KEYS:
            value = metadata.get(key, "")
            if value.startswith(("https://", "http://")):
                return value
    return source_path if source_path.startswith(("https://", "http://")) else None


def locate(source_path: str, text: str, metadata: Mapping[str, str] | None = None) -> SourceLocation:
    path = Path(source_path) if source_path else None
    suffix = path.suffix.lower() if path else ""
    kind: Literal["text", "pdf", "html", "other"] = (
        "text" if suffix in TEXT_SUFFIXES else "pdf" if suffix == ".pdf" else "html" if suffix in HTML_SUFFIXES else "other")
    location = SourceLocation(file_name=path.name if path else "", kind=kind,
                              url=_url(metadata or {}, source_path=source_path))
    if location.url and kind == "other":
        location.kind = "html"
    if kind not in ("text", "pdf") or path is None:
        return location
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return location
    with _LOCK:
        folded = _folded_file(str(path), mtime)
    span = _span(folded, text) if folded is not None else None
    if span is None:
        return location
    if kind == "pdf":
        location.page = span[0]
        location.page_image = find_spec("pypdfium2") is not None
    else:
        location.first_line, location.last_line = span
    return location
