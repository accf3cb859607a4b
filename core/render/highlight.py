"""The answer's quoted words marked inside a unit's text, as plain segments (renderers escape each one).

A claim quoted by the extractive answerer carries its character span; a model's claim is found in the text
with any run of whitespace matching any other, and, when the whole claim is not there verbatim, sentence by
sentence (a model may join two quoted sentences or trim one).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

MIN_PIECE_CHARS = 20
_SENTENCE_END = re.compile(r"(?<=[.;:!?。])\s+|\s*[…]+\s*|\s*\.\.\.\s*")


class Segment(BaseModel):
    text: str
    mark: bool = False


class Quote(BaseModel):
    text: str = Field(max_length=20_000)
    span: tuple[int, int] | None = None
    unit_id: str | None = Field(default=None, max_length=2_000, description="the unit quoted; None: the unit viewed")


def _pattern(piece: str) -> re.Pattern[str] | None:
    words = piece.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)


def _find(text: str, quote: str) -> list[tuple[int, int]]:
    whole = _pattern(quote)
    if whole is None:
        return []
    if match := whole.search(text):
        return [match.span()]
    found = []
    for piece in _SENTENCE_END.split(quote):
        pattern = _pattern(piece) if len(piece.strip()) >= MIN_PIECE_CHARS else None
        if pattern is not None and (match := pattern.search(text)):
            found.append(match.span())
    return found


def quote_spans(text: str, quotes: Iterable[Quote]) -> list[tuple[int, int]]:
    """Merged, ordered character spans of `text` that the quotes cover."""
    spans: list[tuple[int, int]] = []
    for quote in quotes:
        span = quote.span
        if span is not None and 0 <= span[0] < span[1] <= len(text) and " ".join(text[span[0]:span[1]].split()) \
                == " ".join(quote.text.split()):
            spans.append(span)
        else:
            spans.extend(_find(text, quote.text))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def segments(text: str, quotes: Iterable[Quote]) -> list[Segment]:
    out: list[Segment] = []
    at = 0
    for start, end in quote_spans(text, quotes):
        if start > at:
            out.append(Segment(text=text[at:start]))
        out.append(Segment(text=text[start:end], mark=True))
        at = end
    if at < len(text) or not out:
        out.append(Segment(text=text[at:]))
    return out
