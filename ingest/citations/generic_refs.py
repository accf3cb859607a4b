"""What a generic-format citation resolves to (a target document and segment paths) and its keys; shared by the
default grammar (generic.py) and the Korean one (generic_ko.py), which builds on the same targets."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from ingest.parsers.generic.keys import Segment, doc_key, unit_key

_T = TypeVar("_T")


@dataclass(frozen=True)
class Target:
    """Where a reference points: a corpus document by slug, or an outside instrument by name key."""

    slug: str | None
    external: str | None = None
    named: bool = False  # the citation named the document (so the document itself is an ancestor)
    name: str | None = None  # what an External is called when the words alone are ambiguous


@dataclass(frozen=True)
class Ref:
    target: Target
    paths: tuple[tuple[Segment, ...], ...]  # alternatives, most likely first


def non_overlapping(text: str, patterns: tuple[tuple[re.Pattern[str], _T], ...]) -> Iterator[tuple[re.Match[str], _T]]:
    """Every pattern's matches, earliest first; at one start the longest wins; overlaps are dropped."""
    found = [
        (match.start(), -match.end(), order, match, handler)
        for order, (pattern, handler) in enumerate(patterns)
        for match in pattern.finditer(text)
        if match.end() > match.start()
    ]
    found.sort(key=lambda item: item[:3])
    end = -1
    for start, neg_end, _, match, handler in found:
        if start >= end:
            end = -neg_end
            yield match, handler


def ref_keys(ref: Ref) -> list[str]:
    if ref.paths == ((),):  # the whole instrument: its document, or the name no unit carries (→ External)
        return [doc_key(ref.target.slug)] if ref.target.slug else [ref.target.external] if ref.target.external else []
    if not ref.paths or not ref.paths[0]:
        return []
    if ref.target.slug is None:
        # Outside the corpus: one key naming the provision; no unit carries it (→ External) unless the
        # provision is codified here (a Pháp điển article carries its source's keys).
        return [ref.target.external + ":" + ":".join(f"{k}:{v}" for k, v in ref.paths[0])] if ref.target.external else []
    keys: list[str] = []
    longest = max(len(p) for p in ref.paths)
    for depth in range(longest, 0, -1):
        for path in ref.paths:
            if len(path) >= depth:
                keys.append(unit_key(ref.target.slug, path[:depth]))
    if ref.target.named:
        keys.append(doc_key(ref.target.slug))
    return list(dict.fromkeys(keys))
