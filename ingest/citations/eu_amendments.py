"""Amending instructions of EU acts, read by their grammar: what is done (the verb) to what (the location).

    Regulation (EU) No 648/2012 is amended as follows:      → AMENDS the act; its points speak of it
    (1) Article 26 is amended as follows:                   → AMENDS Article 26; its points speak of it
    (a) paragraph 3 is replaced by the following: ‘3. …’    → REPLACES Article 26(3)
    (b) paragraph 6 is deleted;                             → AMENDS Article 26(6), action deleted
    In Article 6 of Regulation (EU) 2016/1011, the following paragraph is added: ‘6. …’
                                                            → AMENDS Article 6(6), action inserted
    Directive 95/46/EC is repealed                          → REPLACES the directive, action repealed

A point under an "is amended as follows" that does not parse as an instruction is kept as a
REFERENCES edge to the amended location with its raw words (malformed, never guessed).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.domain import EdgeType
from ingest.citations import eu_patterns as P
from ingest.citations.eu_refs import Act, act_from, article_items, labels_of, subs_path
from ingest.parsers.generic.keys import Segment
from ingest.parsers.generic.quotes import QuoteTracker

# Depth of each location segment: a location part replaces the base from its own depth down.
_DEPTH = {"annex": 0, "part": 1, "title": 1, "ch": 1, "sec": 1, "art": 2, "cl": 3, "pt": 4, "sp": 5}
_DIVISION_SEGMENTS = {"section": "sec", "part": "part", "title": "title", "chapter": "ch"}
_ACTIONS: dict[str, tuple[EdgeType, str]] = {
    "replaced": (EdgeType.REPLACES, "replaced"),
    "repealed": (EdgeType.REPLACES, "repealed"),
    "deleted": (EdgeType.AMENDS, "deleted"),
    "amended": (EdgeType.AMENDS, "amended"),
    "inserted": (EdgeType.AMENDS, "inserted"),
    "added": (EdgeType.AMENDS, "inserted"),
    "renumbered": (EdgeType.AMENDS, "renumbered"),
}
_KIND_SEGMENT = {"article": "art", "paragraph": "cl", "point": "pt", "annex": "annex", "section": "sec"}


@dataclass(frozen=True)
class Amending:
    """What the points of an amending provision speak of: the amended act and location."""

    act: Act | None = None
    base: tuple[Segment, ...] = ()


@dataclass
class Instruction:
    edge_type: EdgeType
    action: str
    act: Act | None
    paths: list[tuple[Segment, ...]]
    start: int
    end: int
    raw: str


@dataclass
class Reading:
    instructions: list[Instruction] = field(default_factory=list)
    context: Amending = field(default_factory=Amending)  # for the unit's children
    target: Amending | None = None  # where this unit's quoted text belongs


def read_unit(text: str, inherited: Amending, quoted: list[tuple[int, int]]) -> Reading:
    """Every instruction written at the start of one of the unit's own (unquoted) lines."""
    reading = Reading(context=inherited)
    offset = 0
    lines = text.split("\n")
    for index, line in enumerate(lines):
        start = offset
        offset += len(line) + 1
        if any(a <= start < b for a, b in quoted):
            continue
        match = P.INSTRUCTION.fullmatch(line.strip())
        if match is None:
            continue
        lead = start + len(line) - len(line.lstrip())
        following = "\n".join(lines[index + 1 : index + 2]) + " " + match["after"]
        instruction = _instruction(match, reading.context, following, lead)
        if instruction is None:
            continue
        reading.instructions.append(instruction)
        if instruction.action == "amended" and len(instruction.paths) == 1:
            reading.context = Amending(instruction.act, instruction.paths[0])
        reading.target = Amending(instruction.act, instruction.paths[0] if instruction.paths else ())
    if not reading.instructions and inherited.act is not None and inherited != Amending() and text.strip():
        # A point of an amending provision that says nothing parseable: kept, typed REFERENCES.
        first = text.strip().split("\n", 1)[0]
        reading.instructions.append(Instruction(EdgeType.REFERENCES, "malformed", inherited.act, [inherited.base],
                                                text.find(first), text.find(first) + len(first), first))
    return reading


def _instruction(match: re.Match[str], context: Amending, following: str, lead: int) -> Instruction | None:
    edge_type, action = _ACTIONS[match["action"]]
    act = context.act
    base = list(context.base)
    where: list[list[Segment]] = [[]]
    if match["where"]:
        parsed = _location(match["where"])
        if parsed is None:
            return None
        act, where = parsed[0] or act, parsed[1]
    target_words = match["target"].strip()
    inserted = P.FOLLOWING.fullmatch(target_words)
    if inserted or P.WORDS.match(target_words):
        targets: list[list[Segment]] = [[]]
        if inserted and action == "inserted":
            targets = [_inserted_label(inserted["kind"], following)]
    else:
        parsed = _location(target_words)
        if parsed is None:
            return None
        act, targets = parsed[0] or act, parsed[1]
    if act is None:
        return None
    paths = []
    for outer in where:
        for inner in targets:
            paths.append(tuple(_apply(_apply(base, outer), inner)))
    if match["where"] is None and not (inserted or P.WORDS.match(target_words)) and _names_act_only(target_words):
        paths = [()]  # "Regulation (EU) No 648/2012 is amended as follows": the act itself
    end = lead + len(match.group(0))
    return Instruction(edge_type, action, act, list(dict.fromkeys(paths)), lead, end, match.group(0))


def _names_act_only(words: str) -> bool:
    match = P.ACT_NAME.fullmatch(words)
    return match is not None and bool(match.groupdict().get("anum") or match.groupdict().get("short"))


def _location(words: str) -> tuple[Act | None, list[list[Segment]]] | None:
    """'Annex I, Section A, point 4' / 'point 4 of Section A of Annex I' → (act, alternatives of paths)."""
    position = 0
    parts: list[tuple[list[list[Segment]], str]] = []
    act: Act | None = None
    glue_of = False
    words = words.strip()
    while position < len(words):
        glue = P.LOC_GLUE.match(words, position)
        if glue and glue.end() > position:
            glue_of = glue_of or bool(glue["of"])
            position = glue.end()
            continue
        part = P.LOC_PART.match(words, position)
        if part is None:
            return None
        position = part.end()
        found = act_from(part) if part["anum"] or part["short"] else None
        if found is not None:
            act = found
            continue
        segments = _part_segments(part)
        if segments is None:
            continue  # a subparagraph or sentence: no unit of its own
        parts.append((segments, part.group(0)))
    if glue_of:
        parts.reverse()  # "point 4 of Section A of Annex I": finest first
    paths: list[list[Segment]] = [[]]
    for alternatives, _ in parts:
        paths = [_apply(path, alt) for path in paths for alt in alternatives]
    return act, paths


def _part_segments(part: re.Match[str]) -> list[list[Segment]] | None:
    if part["annex"]:
        return [[("annex", part["annexv"] or "")]]
    if part["section"]:
        segment = _DIVISION_SEGMENTS[part["section"].lower().rstrip("s")]
        return [[(segment, v)] for v in P.PARAS_SPLIT.split(part["sectionv"])]
    if part["article"]:
        return article_items(part["articlev"])
    if part["para"]:
        return [[("cl", v)] for v in P.PARAS_SPLIT.split(part["parav"])]
    if part["point"]:
        values = labels_of(part["pointv"]) or P.PARAS_SPLIT.split(part["pointv"])
        return [[("pt", v)] for v in values]
    return None


def _apply(base: list[Segment] | tuple[Segment, ...], segments: list[Segment]) -> list[Segment]:
    """base + segments, the base cut above the first segment's depth ('Article 26' resets 'Article 5(1)')."""
    if not segments:
        return list(base)
    depth = _DEPTH.get(segments[0][0], 9)
    kept = [s for s in base if _DEPTH.get(s[0], 9) < depth]
    if segments[0][0] == "pt" and any(kind == "pt" for kind, _ in base):
        kept = [s for s in base if s[0] != "sp"]
        return [*kept, ("sp", segments[0][1]), *segments[1:]]
    return [*kept, *segments]


def _inserted_label(kind: str, following: str) -> list[Segment]:
    """The new unit's number as the quoted text writes it: ‘6. …’ → paragraph 6, ‘(ca) …’ → point (ca)."""
    label = P.QUOTED_LABEL.search(following)
    word = kind.lower().rstrip("s")
    segment = _KIND_SEGMENT.get(word)
    if label is None or segment is None:
        return []
    if label["art"]:
        return [("art", label["art"])]
    value = label["num"] or label["lbl"]
    return [(segment, value)] if segment != "art" else []


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the unit's quoted lines (see parsers/generic/quotes.py)."""
    tracker = QuoteTracker()
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        # A line opening with a quote mark is quoted words even when no ':' introduced it.
        if tracker.quoted(line) or line.lstrip().startswith(("‘", "“")):
            spans.append((offset, offset + len(line)))
        offset += len(line) + 1
    return spans


__all__ = ["Amending", "Instruction", "Reading", "quoted_spans", "read_unit", "subs_path"]
