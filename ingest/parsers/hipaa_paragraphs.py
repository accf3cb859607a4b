"""Blocks of one section → its paragraph tree (a) › (1) › (i) › (A) › (1) › (i).

The marker sequence decides the level ("(i)" after "(h)" is a letter, after "(1)" a roman numeral);
the blockquote depth only breaks ties, because the source's depth is inconsistent between sections.
Markers repeated by the source (164.508(b)(2) lists (i), (ii), (i), (ii), (iii)) get suffixed ids.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.parsers.cfr_markers import LEVEL_KINDS, MarkerKind, marker_kinds, marker_value
from ingest.parsers.hipaa_markdown import LEADING_MARKER, Block

# A lower level started inside a block: "(b) Standard: … activities. (1) Permitted uses …".
_INLINE_MARKER = re.compile(r"(?<![\w()])\(([a-z]{1,4}|\d{1,3}|[A-Z]{1,3})\)[ \t]{1,4}(?=[A-Z\"“])")
# …but not a citation such as "paragraph (a) Foo" or "(a)(1) and (2) Bar": what precedes must end a
# heading or sentence, or be an ordinary word.
_CITATION_TAIL = re.compile(r"(?:\bparagraphs?|\band|\bor|\bthrough|\bto|\bof|\bunder|\bin|§|,)\s*$", re.I)
_BREAK_TAIL = re.compile(r"(?:[.:\u2014\u2013-]|[a-z])\s*$")


@dataclass
class Paragraph:
    markers: tuple[str, ...]
    segments: tuple[str, ...]  # markers made unique for ids ("i-2" for a repeated "(i)")
    text: str
    duplicate: bool = False


@dataclass
class _Open:
    marker: str
    kind: MarkerKind
    level: int
    depth: int
    node: int
    inline_block: int = -1  # the block number in which it was split off inline, else -1


@dataclass
class _Placement:
    position: int  # index in the open stack the new paragraph takes
    kind: MarkerKind
    level: int
    depth: int
    child: bool
    fallback: bool = False


@dataclass
class ParagraphTree:
    paragraphs: list[Paragraph] = field(default_factory=list)
    _stack: list[_Open] = field(default_factory=list)
    _repeats: dict[tuple[str, ...], int] = field(default_factory=dict)  # id path → times seen
    _blocks: int = 0

    def add(self, block: Block) -> bool:
        """Add one block; False when it opens no paragraph (the caller decides where its text goes)."""
        match = LEADING_MARKER.match(block.text)
        if not match:
            return False
        placement = self._place(match.group(1), block.depth)
        if placement is None:
            return False
        self._blocks += 1
        self._open(match.group(1), placement, None)
        self._split_inline(block.text[match.end() :])
        return True

    def append_text(self, text: str) -> bool:
        if not self._stack:
            return False
        node = self.paragraphs[self._stack[-1].node]
        node.text = f"{node.text}\n{text}" if node.text else text
        return True

    # -- placement ---------------------------------------------------------------------------------
    def _candidates(self, marker: str, depth: int) -> list[_Placement]:
        out: list[_Placement] = []
        for position in range(len(self._stack) - 1, -1, -1):
            entry = self._stack[position]
            value, previous = marker_value(marker, entry.kind), marker_value(entry.marker, entry.kind)
            if value is not None and previous is not None and value == previous + 1:
                out.append(_Placement(position, entry.kind, entry.level, entry.depth, child=False))
        if self._stack:
            top = self._stack[-1]
            level = top.level + 1
            if level < len(LEVEL_KINDS) and marker_value(marker, LEVEL_KINDS[level]) == 1:
                out.append(_Placement(len(self._stack), LEVEL_KINDS[level], level, top.depth + 1, child=True))
        else:
            for kind in marker_kinds(marker):
                if marker_value(marker, kind) == 1:
                    out.append(_Placement(0, kind, LEVEL_KINDS.index(kind), depth, child=True))
        return out

    def _place(self, marker: str, depth: int) -> _Placement | None:
        candidates = self._candidates(marker, depth)
        if len(candidates) > 1:
            same_depth = [c for c in candidates if c.depth == depth]
            if len(same_depth) == 1:
                return same_depth[0]
            children = [c for c in candidates if c.child]
            return children[0] if children else candidates[0]
        if candidates:
            return candidates[0]
        return self._fallback(marker, depth)

    def _fallback(self, marker: str, depth: int) -> _Placement | None:
        """Out-of-sequence markers (repeats, skips): a sibling at the deepest level of the same kind."""
        kinds = marker_kinds(marker)
        if not kinds:
            return None
        for position in range(len(self._stack) - 1, -1, -1):
            entry = self._stack[position]
            if entry.kind in kinds:
                return _Placement(position, entry.kind, entry.level, entry.depth, child=False, fallback=True)
        if not self._stack:
            return _Placement(0, kinds[0], LEVEL_KINDS.index(kinds[0]), depth, child=True, fallback=True)
        top = self._stack[-1]
        for level in range(top.level + 1, len(LEVEL_KINDS)):
            if LEVEL_KINDS[level] in kinds:
                return _Placement(len(self._stack), LEVEL_KINDS[level], level, top.depth + 1, child=True, fallback=True)
        return None

    def _open(self, marker: str, placement: _Placement, inline_block: int | None, text: str = "") -> None:
        del self._stack[placement.position :]
        markers = tuple(e.marker for e in self._stack) + (marker,)
        parent_segments = self.paragraphs[self._stack[-1].node].segments if self._stack else ()
        # A counter, not a probe loop: a source repeating one marker thousands of times stays linear.
        n = self._repeats.get(parent_segments + (marker,), 0) + 1
        self._repeats[parent_segments + (marker,)] = n
        segments = parent_segments + (marker if n == 1 else f"{marker}-{n}",)
        self.paragraphs.append(Paragraph(markers, segments, text.strip(), duplicate=n > 1))
        self._stack.append(
            _Open(marker, placement.kind, placement.level, placement.depth, len(self.paragraphs) - 1,
                  inline_block=-1 if inline_block is None else inline_block)
        )

    def _split_inline(self, body: str) -> None:
        """Give the block's text to the paragraph just opened, splitting off paragraphs begun inline."""
        cut = 0
        for match in _INLINE_MARKER.finditer(body):
            before = body[max(0, match.start() - 30) : match.start()]
            if not _BREAK_TAIL.search(before) or _CITATION_TAIL.search(before):
                continue
            top = self._stack[-1]
            placement = next(
                (
                    c
                    for c in self._candidates(match.group(1), top.depth + 1)
                    if c.child or self._stack[c.position].inline_block == self._blocks
                ),
                None,
            )
            if placement is None:
                continue
            self.paragraphs[top.node].text = _join(self.paragraphs[top.node].text, body[cut : match.start()])
            cut = match.end()
            self._open(match.group(1), placement, self._blocks)
        self.paragraphs[self._stack[-1].node].text = _join(self.paragraphs[self._stack[-1].node].text, body[cut:])


def _join(existing: str, more: str) -> str:
    more = more.strip()
    if not existing:
        return more
    return f"{existing} {more}" if more else existing
