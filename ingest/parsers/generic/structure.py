"""Lines + heading grammar → a Document whose units form the tree the headings describe.

Each unit holds its own lines only (its heading and the text before the next heading): a clause's
words are not repeated in its article, so a citation written once yields one edge, and retrieval
lands on the finest unit. Containment comes from parent_id.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.analyzers.script import detect_language
from core.domain import Document, LegalUnit, UnitType
from ingest.parsers.generic import eu, vi_codification, vi_consolidated, vi_gazette
from ingest.parsers.generic.definitions import mark_definitions
from ingest.parsers.generic.grammars import (
    BRANCH,
    ENGLISH,
    GRAMMARS,
    HANGUL_ITEMS,
    Grammar,
    Level,
    Scope,
    circled_number,
    render_label,
)
from ingest.parsers.generic.history import attach_notes, split_notes
from ingest.parsers.generic.identity import Identity, dates_from_front, identify
from ingest.parsers.generic.keys import Segment, doc_key, title_name_key, unit_key
from ingest.parsers.generic.quotes import QuoteTracker
from ingest.parsers.generic.readers import Line, front_matter

AUTO = "generic"
PARAGRAPHS = "paragraphs"
# `--format` values this package answers to: auto-detect, one forced grammar each, or no structure.
GENERIC_FORMAT_NAMES: tuple[str, ...] = (AUTO, *(f"generic-{code}" for code in GRAMMARS), f"generic-{PARAGRAPHS}")

_ID_JUNK = re.compile(r"[^\w.]+")
_ROMANS = ("i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx").split()
_ALPHABET = "abcdđefghijklmnopqrstuvwxyz"
_TITLE_MAX = 120


@dataclass(frozen=True)
class Heading:
    level: Level
    num: str
    title: str
    rest: str = ""  # the words after the heading mark on the same line


@dataclass
class _Node:
    level: Level | None  # None: the document itself
    num: str
    id: str
    path: list[Segment]
    label: str
    parent: _Node | None
    title: str = ""
    lines: list[str] = field(default_factory=list)
    order: int = 0
    nesting: int | None = None  # the rank this node nests at, when its style's place was set by use
    # On a freestanding unit: the rank each bare numbering style took, in the order the styles appeared.
    styles: dict[str, int] = field(default_factory=dict)

    @property
    def rank(self) -> int:
        if self.nesting is not None:
            return self.nesting
        return -1 if self.level is None else self.level.rank

    def fresh_ancestor(self) -> _Node | None:
        node: _Node | None = self
        while node is not None and node.level is not None and node.level.scope is not Scope.FRESH:
            node = node.parent
        return node if node is not None and node.level is not None else None


def grammar_code(format_name: str) -> str | None:
    """'generic-vi' → 'vi'; 'generic' → None (detect); 'generic-paragraphs' → 'paragraphs'."""
    if format_name not in GENERIC_FORMAT_NAMES:
        raise ValueError(f"{format_name!r} is not one of {', '.join(GENERIC_FORMAT_NAMES)}")
    return None if format_name == AUTO else format_name.removeprefix("generic-")


def parse_document(lines: list[Line], path: Path, corpus: str, slug: str, mode: str | None) -> tuple[Document, list[str]]:
    """One file's lines → its Document; notes say when no heading structure was found."""
    source = [line.text for line in lines]  # as the file numbers them, for the line numbers warnings give
    lines = vi_codification.body_lines(lines, lambda line: line.heading)
    raw = [line.text for line in lines]
    raw, footnotes = vi_consolidated.split_footnotes(vi_gazette.strip_furniture(raw))
    texts, history = split_notes(raw)
    grammar = None if mode == PARAGRAPHS else (GRAMMARS[mode] if mode else detect_grammar(texts))
    language = grammar.code if grammar else _script_language(texts)
    title_hint = next((line.text.strip() for line in lines if line.heading == 0 and line.text.strip()), None)
    identity = identify(texts, path.stem, title_hint, language)
    dates_from_front(identity, front_matter(path))
    if language == "vi" and grammar is not None and vi_codification.is_codification(texts):
        grammar = _codified_only(grammar)
        # A codification is named by its topic; the acts its articles come from are in their notes.
        identity.short_name = identity.title
        identity.names, identity.keys = [identity.title], [title_name_key(identity.title)]
        identity.metadata.pop("number", None)
        identity.metadata["doc_type"] = "codification"
        texts = vi_codification.split_glued_headings(texts)
    doc_id = f"{corpus}/{slug}"
    # An EU act (OJ layout) is English drafting plus its own front matter and annexes.
    front = eu.split_front(texts) if grammar is ENGLISH and eu.is_eu_act(texts) else None
    if front is not None:
        grammar = eu.EU_GRAMMAR
        eu.identify_eu(texts, identity)
    body = front.body if front is not None else texts
    notes: list[str] = []
    units = _heading_units(body, grammar, corpus, doc_id, slug, identity, notes, source) if grammar else None
    notes = [f"{path}: {note}" for note in notes]
    if units is not None and front is not None:
        units[0].text = "\n".join([*front.head, units[0].text]).strip()
        units[1:1] = eu.front_units(front, corpus, doc_id, slug, identity)
        eu.title_from_second_line(units)
        for order, unit in enumerate(units):
            unit.order = order
    used = grammar.code if grammar else PARAGRAPHS
    if units is None:
        used = PARAGRAPHS
        units = _paragraph_units(texts, corpus, doc_id, slug, identity)
        if mode != PARAGRAPHS:
            notes.append(f"{path}: no heading structure recognised; one unit per paragraph")
    units[0].metadata.update({"grammar": used, "source_format": path.suffix.lower().lstrip(".")})
    if grammar is not None and used == grammar.code and grammar.annotate is not None:
        grammar.annotate(units)
    if used == ENGLISH.code:
        mark_definitions(units)
    attach_notes(units, history)
    vi_consolidated.attach(units, footnotes)
    if identity.metadata.get("authority_tier", "").isdigit():
        for unit in units:
            unit.tier = int(identity.metadata["authority_tier"])
    document = Document(id=doc_id, corpus=corpus, title=identity.title, source_path=str(path), names=identity.names, units=units)
    return document, notes


def _codified_only(grammar: Grammar) -> Grammar:
    """In a codification every article has a codified number; a plain "Điều 36." line is quoted text."""
    levels = tuple(replace(level, patterns=(vi_codification.CODIFIED_ARTICLE,)) if level.name == "article" else level
                   for level in grammar.levels if not level.appendix)
    return replace(grammar, levels=levels)


def detect_grammar(texts: list[str]) -> Grammar | None:
    """The grammar whose worded headings match most lines; bare numbering alone picks by script."""
    best: tuple[int, int, Grammar] | None = None
    for grammar in GRAMMARS.values():
        distinctive = total = 0
        for text in texts:
            heading = match_heading(text, grammar, [])
            if heading:
                total += 1
                distinctive += heading.level.distinctive
        if distinctive and (best is None or (distinctive, total) > best[:2]):
            best = (distinctive, total, grammar)
    if best:
        return best[2]
    fallback = GRAMMARS[_script_language(texts)]
    numbered = sum(1 for text in texts if match_heading(text, fallback, []))
    return fallback if numbered >= 2 else None


def match_heading(text: str, grammar: Grammar, open_nodes: list[_Node]) -> Heading | None:
    """The heading this line starts, if any; '(i)' after '(h)' is a letter, otherwise a roman numeral."""
    stripped = text.strip()
    if not stripped:
        return None
    candidates: list[Heading] = []
    for level in grammar.levels:
        for pattern in level.patterns:
            match = pattern.fullmatch(stripped)
            if match:
                candidates.append(_heading(level, match))
                break
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    return max(candidates, key=lambda h: _continuity(h, open_nodes))


def _heading(level: Level, match: re.Match[str]) -> Heading:
    groups = match.groupdict()
    num = groups["num"] or ""  # a lone "ANNEX" has no number
    if groups.get("branch"):
        num = f"{num}{BRANCH}{groups['branch']}"
    if level.sequence == "circled":
        num = circled_number(num)
    title = (groups.get("title") or "").strip()
    rest = (groups.get("rest") or "").strip()
    # "Section 5 Reporting duties" has a title; "Article 15 The licensee shall…" has prose.
    if not title and level.scope is Scope.FRESH and rest and len(rest) <= _TITLE_MAX and not rest.endswith((".", ";", ":")):
        title = rest
    return Heading(level, " ".join(num.split()), title, rest)


def _continuity(heading: Heading, open_nodes: list[_Node]) -> int:
    """2: continues an open sibling's numbering; 1: starts a new sequence; 0: neither."""
    previous = _previous(heading.num, heading.level.sequence)
    if any(n.level is not None and n.level.rank == heading.level.rank and n.num == previous for n in open_nodes):
        return 2
    return 1 if previous is None else 0


def _previous(num: str, sequence: str) -> str | None:
    if sequence == "alpha" and len(num) == 1 and num in _ALPHABET:
        position = _ALPHABET.index(num)
        return _ALPHABET[position - 1] if position else None
    if sequence == "roman" and num in _ROMANS:
        position = _ROMANS.index(num)
        return _ROMANS[position - 1] if position else None
    if sequence == "hangul" and num in HANGUL_ITEMS:
        position = HANGUL_ITEMS.index(num)
        return HANGUL_ITEMS[position - 1] if position else None
    if num.isdigit():
        return str(int(num) - 1) if int(num) > 1 else None
    return ""


def _may_start(heading: Heading, grammar: Grammar, stack: list[_Node], previous: str, text: str) -> bool:
    """Inside an annex or a form only another annex or form starts; a worded heading only where one can."""
    if any(n.level is not None and n.level.appendix for n in stack) and not heading.level.appendix:
        return False
    return not (heading.level.distinctive and grammar.may_open is not None and not grammar.may_open(previous, text))


def quoted_provision_units(text: str, grammar_code: str, corpus: str, doc_id: str, slug: str, short_name: str) -> list[LegalUnit]:
    """The units a provision quoted whole in an amending act makes in the act it is inserted into: its article and
    the clauses and points below it, read by that act's grammar and keyed and labelled as its own ([] when the
    words make no provision)."""
    grammar = GRAMMARS.get(grammar_code)
    lines = text.splitlines()
    units = _heading_units(lines, grammar, corpus, doc_id, slug, Identity(title=short_name, short_name=short_name), [], lines) \
        if grammar is not None else None
    return units[1:] if units else []


def _line_number(source: list[str], stripped: str, after: int = 0) -> int | None:
    """The file's line (1-based) that holds these words, at or after line `after`: a warning names where to look."""
    return next((n + 1 for n in range(after, len(source)) if source[n].strip() == stripped), None)


def _heading_units(texts: list[str], grammar: Grammar, corpus: str, doc_id: str, slug: str, identity: Identity,
                   notes: list[str], source: list[str]) -> list[LegalUnit] | None:
    root = _Node(None, "", doc_id, [], "", None)
    nodes = [root]
    stack = [root]
    taken_ids = {doc_id}
    quotes = QuoteTracker(grammar.introduces_quote) if grammar.quotations else None
    previous = ""
    for text in texts:
        heading = match_heading(text, grammar, stack)
        if heading is not None and not _may_start(heading, grammar, stack, previous, text):
            heading = None
        previous = text.strip() or previous
        if quotes is not None and quotes.quoted(text):
            # An unclosed quotation ends where this document's own numbering goes on (an article, or an
            # item that starts with an amending verb).
            if heading is None or _continuity(heading, stack) != 2 or not (
                    heading.level.scope is Scope.FRESH or grammar.instruction is not None and grammar.instruction.match(heading.rest)):
                stack[-1].lines.append(text)
                continue
            opened = _line_number(source, quotes.opened_at)
            ended = _line_number(source, text.strip(), opened or 0)
            notes.append(f"unbalanced quotation marks: the quotation opened at line {opened or '?'} “{quotes.opened_at[:80]}” is "
                         f"not closed; it was ended before line {ended or '?'} “{text.strip()[:80]}”; close it there "
                         "(”) so its words stay the amending provision's")
            quotes.close()
        if heading is None:
            stack[-1].lines.append(text)
            continue
        line = text.strip()
        while heading is not None:
            nesting = _nesting(heading, grammar, stack)
            while stack[-1].rank >= nesting:
                stack.pop()
            node = _child(stack[-1], heading, taken_ids)
            node.nesting = nesting if nesting != heading.level.rank else None
            node.order = len(nodes)
            nodes.append(node)
            stack.append(node)
            inline = _inline_paragraph(heading, grammar, stack)
            if inline is None:
                node.lines.append(line)
            else:
                node.lines.append(line[: len(line) - len(heading.rest)].rstrip())
                line = heading.rest
            heading = inline
    if len(nodes) == 1:
        return None
    units = [_document_unit(root, corpus, slug, identity),
             *(_unit(n, corpus, doc_id, identity, grammar.label_joiner) for n in nodes[1:])]
    _appendix_keys_to_bodies(units, {n.id for n in nodes if n.level is not None and n.level.appendix})
    return units


def _appendix_keys_to_bodies(units: list[LegalUnit], appendix_ids: set[str]) -> None:
    """An annex lists its forms ("Mẫu số 01 / Giấy phép …") before it prints them: of the units one key
    names, the form itself (the longest) answers to it, the list entry keeps no key."""
    by_key: dict[str, list[LegalUnit]] = {}
    for unit in units:
        if unit.id in appendix_ids:
            for key in unit.keys:
                by_key.setdefault(key, []).append(unit)
    for key, claimants in by_key.items():
        if len(claimants) > 1:
            body = max(claimants, key=lambda u: len(u.text))
            for unit in claimants:
                if unit is not body:
                    unit.keys = [k for k in unit.keys if k != key]


def _nesting(heading: Heading, grammar: Grammar, stack: list[_Node]) -> int:
    """The rank a heading nests at. Bare numbering styles ("1.", "(a)", "(i)") nest in the order they first
    appear within a freestanding unit: "(a) › (1) › (i)" in a US CFR section, "(1) › (a) › (i)" in a UK or EU
    article. The grammar's ranks give the slots; first use takes the outermost free one. An inner style that
    starts again at its first number under a deeper item ("(A)" then "(1)") is a list inside that item; a
    number that continues an open item's count is that item's sibling, however deep it sits."""
    level = heading.level
    if level.scope is not Scope.PARENT or level.distinctive:
        return level.rank
    owner = next((n for n in reversed(stack) if n.level is None or n.level.scope is Scope.FRESH), stack[0])
    if level.name not in owner.styles:
        slots = sorted({lv.rank for lv in grammar.levels if lv.scope is Scope.PARENT and not lv.distinctive})
        free = [r for r in slots if r not in owner.styles.values()]
        owner.styles[level.name] = free[0] if free else level.rank
    rank = owner.styles[level.name]
    same = [n for n in stack if n.level is not None and n.level.name == level.name]
    previous = _previous(heading.num, level.sequence)
    if previous:
        return next((n.rank for n in reversed(same) if n.num == previous), rank)
    # Not the outermost style: a text that numbers its paragraphs "1." again (a form, a quoted act) starts over.
    nested = rank > min(owner.styles.values())
    if previous is None and nested and same and stack[-1] is not same[-1] and stack[-1].rank >= rank:
        return stack[-1].rank + 1
    return rank


def _inline_paragraph(heading: Heading, grammar: Grammar, stack: list[_Node]) -> Heading | None:
    """Korean statutes open the first paragraph on the article's own line: "제2조(정의) ① …"."""
    if not heading.rest or heading.level.scope is not Scope.FRESH:
        return None
    inner = match_heading(heading.rest, grammar, stack)
    if inner is None or inner.level.sequence != "circled" or inner.level.rank <= heading.level.rank:
        return None
    return inner


def _child(parent: _Node, heading: Heading, taken_ids: set[str]) -> _Node:
    level = heading.level
    base = parent.fresh_ancestor() if level.scope is Scope.ANCESTOR else parent
    if level.scope is Scope.FRESH or base is None or base.level is None:
        path, label = [(level.segment, heading.num)], render_label(level.label, heading.num)
    else:
        path, label = [*base.path, (level.segment, heading.num)], base.label + render_label(level.suffix, heading.num)
    unit_id = f"{parent.id}/{level.segment}-{_ID_JUNK.sub('-', heading.num.lower()).strip('-')}"
    # Repeated numbering (an amending text quoting "1." again) must not collide: ids stay unique.
    candidate, copy = unit_id, 1
    while candidate in taken_ids:
        copy += 1
        candidate = f"{unit_id}~{copy}"
    taken_ids.add(candidate)
    return _Node(level, heading.num, candidate, path, label, parent, title=heading.title)


def _document_unit(root: _Node, corpus: str, slug: str, identity: Identity) -> LegalUnit:
    return LegalUnit(
        id=root.id,
        corpus=corpus,
        document_id=root.id,
        type=UnitType.DOCUMENT,
        label=identity.short_name,
        title=identity.title,
        text=_join(root.lines),
        metadata=dict(identity.metadata),
        keys=[doc_key(slug), *identity.keys],
    )


def _unit(node: _Node, corpus: str, doc_id: str, identity: Identity, joiner: str = " ") -> LegalUnit:
    assert node.level is not None and node.parent is not None
    slug = doc_id.split("/")[-1]
    return LegalUnit(
        id=node.id,
        corpus=corpus,
        document_id=doc_id,
        type=node.level.unit_type,
        label=f"{identity.short_name}{joiner}{node.label}".strip(),
        title=node.title,
        text=_join(node.lines),
        parent_id=node.parent.id,
        order=node.order,
        keys=[unit_key(slug, node.path)],
    )


def _paragraph_units(texts: list[str], corpus: str, doc_id: str, slug: str, identity: Identity) -> list[LegalUnit]:
    root = _Node(None, "", doc_id, [], "", None)
    units = [_document_unit(root, corpus, slug, identity)]
    block: list[str] = []
    for text in [*texts, ""]:
        if text.strip():
            block.append(text)
            continue
        if not block:
            continue
        number = str(len(units))
        units.append(
            LegalUnit(
                id=f"{doc_id}/p-{number}",
                corpus=corpus,
                document_id=doc_id,
                type=UnitType.PASSAGE,
                label=f"{identity.short_name} ¶{number}",
                text=_join(block),
                parent_id=doc_id,
                order=len(units),
                keys=[unit_key(slug, [("p", number)])],
            )
        )
        block = []
    return units


def _join(lines: list[str]) -> str:
    return "\n".join(lines).strip()


def _script_language(texts: list[str]) -> str:
    """The document's language from its first 400 lines, by the project's one detector."""
    return detect_language(texts[:400])
