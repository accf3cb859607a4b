"""The HIPAA section Markdown, read as blocks: links stripped, entities unescaped, blockquote depth kept."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from core.domain import normalize_text

# `[words](target)` → `words`. Bounded, non-nesting classes: a stray "[" cannot make this backtrack.
_LINK = re.compile(r"\[([^\[\]\n]{0,400})\]\([^()\s]{0,400}\)")
_QUOTE_PREFIX = re.compile(r"^[ \t]{0,8}((?:>[ \t]{0,8}){0,12})")
# The eCFR history note that closes a section: "[68 FR 8376, Feb. 20, 2003, as amended at …]".
_HISTORY = re.compile(r"^\[\d{1,3} FR \d")
# A marker opening a block. The source sometimes drops the opening parenthesis ("> > i) The group …").
LEADING_MARKER = re.compile(r"^\(?([a-z]{1,4}|\d{1,3}|[A-Z]{1,3})\)\s*")


def strip_links(text: str) -> str:
    return _LINK.sub(r"\1", text)


def clean_text(raw: str) -> str:
    """Markdown source → the plain words citations are found in (links stripped, entities unescaped)."""
    return normalize_text(html.unescape(strip_links(raw)))


@dataclass(frozen=True)
class Block:
    depth: int
    text: str


def read_blocks(raw: str) -> list[Block]:
    """Blank-line separated blocks; a block's depth is its first line's `>` count, its lines are joined."""
    blocks: list[Block] = []
    lines: list[str] = []
    depth = 0
    for line in raw.splitlines():
        prefix = _QUOTE_PREFIX.match(line)
        quote = prefix.group(1) if prefix else ""
        body = line[prefix.end() if prefix else 0 :].strip()
        if not body:
            if lines:
                blocks.append(Block(depth, clean_text(" ".join(lines))))
                lines = []
            continue
        if not lines:
            depth = quote.count(">")
        lines.append(body)
    if lines:
        blocks.append(Block(depth, clean_text(" ".join(lines))))
    return [b for b in blocks if b.text.strip()]


def is_history(block: Block) -> bool:
    return bool(_HISTORY.match(block.text))
