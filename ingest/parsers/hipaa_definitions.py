"""Definitions sections ("Act means the Social Security Act.") → one entry per defined term.

A term starts a top-level (unquoted, unmarked) block and is followed by a defining verb or a colon;
the marked sub-paragraphs and continuation blocks after it belong to its definition.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.parsers.hipaa_markdown import LEADING_MARKER, Block

# The lead-in that announces a list of terms: "As used in this subpart, the following terms have …".
_LEAD_IN = re.compile(r"\bthe following (?:terms?|definitions?)\b", re.I)
# Words are space-free, so the bounded repetition cannot backtrack explosively.
_TERM = re.compile(
    r"^(?P<term>[A-Z0-9][^\s:,]{0,40}(?: [^\s:,]{1,40}){0,9}?)"
    r"(?: \([^()]{0,200}\))?"  # "Group health plan (also see definition of health plan …)"
    r"(?:, when used [^:]{0,300}?,)?"  # "Contrary, when used to compare …, means"
    r"(?: (?:means|is|are|refers to|stands for|has the (?:same )?meaning|exists|encompass(?:es)?|includes|is defined)\b|:)"
)
_ALIAS_SPLIT = re.compile(r" or ")
_SLUG = re.compile(r"[^0-9a-z]+")


@dataclass
class Definition:
    term: str
    aliases: list[str]
    slug: str
    text: str


def looks_like_definitions(title: str, blocks: list[Block]) -> bool:
    if title.strip().lower() == "definitions":
        return True
    return bool(blocks) and bool(_LEAD_IN.search(blocks[0].text)) and any(_term_of(b) for b in blocks[1:4])


def _term_of(block: Block) -> tuple[str, list[str]] | None:
    if block.depth != 0 or LEADING_MARKER.match(block.text):
        return None
    match = _TERM.match(block.text)
    if not match:
        return None
    names = [n.strip() for n in _ALIAS_SPLIT.split(match.group("term")) if n.strip()]
    return (names[0], names[1:]) if names else None


def split_definitions(blocks: list[Block]) -> tuple[list[Block], list[Definition]]:
    """(lead-in blocks, definitions). Blocks before the first term stay in the lead-in."""
    lead: list[Block] = []
    definitions: list[Definition] = []
    slugs: set[str] = set()
    for block in blocks:
        found = _term_of(block)
        if found is not None:
            term, aliases = found
            base = _SLUG.sub("-", term.lower()).strip("-") or "term"
            slug, n = base, 1
            while slug in slugs:
                n += 1
                slug = f"{base}-{n}"
            slugs.add(slug)
            definitions.append(Definition(term, aliases, slug, block.text))
        elif definitions:
            definitions[-1].text += "\n" + block.text
        else:
            lead.append(block)
    return lead, definitions
