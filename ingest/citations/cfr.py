"""CFR citation grammar (45 CFR, HIPAA): anchors → item lists → absolute address keys.

Tokenizing is done by the bounded regexes in cfr_patterns; this module walks a citation list one item
at a time, so a unit with thousands of citations costs time linear in its length. Relative forms
("paragraph (a)(2) of this section", "this subpart") become absolute using the citing unit's position.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from core.domain import Document, LegalUnit, UnitType
from ingest.citations import cfr_patterns as P
from ingest.models import Mention
from ingest.parsers.cfr_markers import LEVEL_KINDS, MarkerKind, marker_kinds, marker_of, marker_value

HOME_TITLE = "45"
_MAX_MENTIONS = 20_000  # per unit: a safety cap, far above any real section
_MAX_ITEMS = _MAX_MENTIONS  # per citation list
_MAX_RANGE = 60  # a range expands to at most this many members
_DUPLICATE_SUFFIX = re.compile(r"-\d+$")
_LAW_SLUG = re.compile(r"[^0-9a-z]+")
_PARAGRAPH_TYPES = (UnitType.PARAGRAPH, UnitType.CLAUSE, UnitType.POINT)


@dataclass(frozen=True)
class Position:
    """Where the citing unit sits: what "this section", "this subpart", "this paragraph" mean."""

    section: str | None = None
    part: str | None = None
    subpart: str | None = None
    path: tuple[str, ...] = ()


@dataclass
class _Item:
    start: int
    end: int
    markers: tuple[str, ...]
    section: str | None = None


class CfrCitationFinder:
    def __init__(self, documents: Iterable[Document] = ()) -> None:
        self._section_of_document: dict[str, LegalUnit] = {}
        by_part: dict[str, list[int]] = defaultdict(list)
        for document in documents:
            for unit in document.units:
                if unit.type is UnitType.SECTION and "section" in unit.metadata:
                    self._section_of_document.setdefault(document.id, unit)
                    part, _, number = unit.metadata["section"].partition(".")
                    if number.isdigit():
                        by_part[part].append(int(number))
        # Known sections per part, to expand "§§ 164.500 through 164.534" to the sections that exist.
        self._sections: dict[str, list[int]] = {part: sorted(set(numbers)) for part, numbers in by_part.items()}

    # -- entry point ---------------------------------------------------------------------------------
    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        return self.find_in(unit.text, unit.id, self.position_of(unit, document))

    def position_of(self, unit: LegalUnit, document: Document) -> Position:
        section = self._section_of_document.get(document.id)
        if section is None and unit.type is UnitType.SECTION:
            section = unit
        if section is None:
            return Position(part=unit.metadata.get("part"), subpart=unit.metadata.get("subpart"))
        path: tuple[str, ...] = ()
        if unit.type in _PARAGRAPH_TYPES and unit.id.startswith(section.id + "/"):
            # Ids encode the marker path ("…/164.508/b/2/i-2"); a "-2" only makes a repeated marker unique.
            path = tuple(_DUPLICATE_SUFFIX.sub("", s) for s in unit.id[len(section.id) + 1 :].split("/"))
        return Position(section.metadata.get("section"), section.metadata.get("part"), section.metadata.get("subpart"), path)

    def find_in(self, text: str, source_id: str, where: Position) -> list[Mention]:
        out: list[Mention] = []
        pos = 0
        while len(out) < _MAX_MENTIONS:
            anchor = P.ANCHOR.search(text, pos)
            if anchor is None:
                break
            end = self._dispatch(anchor, text, source_id, where, out)
            pos = max(end, anchor.end())
        return out

    def _dispatch(self, anchor: re.Match[str], text: str, source_id: str, where: Position, out: list[Mention]) -> int:
        emit = _Emitter(text, source_id, out)
        group = anchor.lastgroup
        if group in ("sign", "section_word"):
            return self._sections_list(anchor, text, HOME_TITLE, emit)
        if anchor.group("cfr_title"):
            title = anchor.group("cfr_title")
            if anchor.group("cfr_parts"):
                return self._parts_list(anchor, text, title, emit)
            return self._sections_list(anchor, text, title, emit)
        if anchor.group("usc_title"):
            return _statute_list(anchor, text, f"usc:{anchor.group('usc_title')}", P.USC_SECTION, emit)
        if group == "statute_word":
            return _statute_list(anchor, text, None, P.STATUTE_SECTION, emit)
        if group == "paragraph_word":
            return self._paragraph_list(anchor, text, where, emit)
        if group == "subpart_word":
            return _subpart_list(anchor, text, where, emit)
        if group == "part_word":
            return self._parts_list(anchor, text, HOME_TITLE, emit)
        if anchor.group("this_scope"):
            return _this_scope(anchor, where, emit)
        if anchor.group("bare"):
            number = P.SECTION_NUMBER.match(text, anchor.start())
            if number and self._is_known(number.group("part"), number.group("section")):
                return self._sections_list(anchor, text, HOME_TITLE, emit, start=anchor.start())
            return anchor.end()
        if anchor.group("public_law"):
            law = anchor.group("public_law").replace(" ", "")
            emit.add(anchor.start(), anchor.end(), [f"statute:public-law:{law}"])
        return anchor.end()

    # -- "§ 164.502(a), 164.504(e) and 164.508", "§§ 164.500 through 164.534" -------------------------
    def _is_known(self, part: str, section: str) -> bool:
        numbers = self._sections.get(part, [])
        at = bisect_left(numbers, int(section)) if section.isdigit() else len(numbers)
        return at < len(numbers) and numbers[at] == int(section)

    def _sections_list(self, anchor: re.Match[str], text: str, title: str, emit: _Emitter, start: int | None = None) -> int:
        prefix = "cfr:" if title == HOME_TITLE else f"cfr:{title}:"
        items: list[_Item] = []
        pos = anchor.end() if start is None else start
        start, is_range = anchor.start(), False
        while len(items) < _MAX_ITEMS:
            number = P.SECTION_NUMBER.match(text, pos)
            if number:
                section = f"{number.group('part')}.{number.group('section')}"
                path, end = _path_at(text, number.end())
                item = _Item(start, end, path, section)
            elif items and items[-1].markers and (path_match := P.PARAGRAPH_PATH.match(text, pos)):
                # "§ 164.502(a)(1) or (2)": a bare paragraph continues the previous section.
                markers = _continue_path(items[-1].markers, _markers(path_match.group(0)))
                item = _Item(start, path_match.end(), markers, items[-1].section)
            else:
                break
            if is_range and items:
                for member in self._range_members(items[-1], item):
                    emit.add(items[-1].start, item.end, _section_keys(prefix, member.section, member.markers))
            items.append(item)
            emit.add(item.start, item.end, _section_keys(prefix, item.section, item.markers))
            separator = P.SEPARATOR.match(text, item.end)
            if separator is None:
                break
            sign = P.SECTION_SIGN.match(text, separator.end())
            nxt = sign.end() if sign else separator.end()
            if not (P.SECTION_NUMBER.match(text, nxt) or (not sign and P.PARAGRAPH_PATH.match(text, nxt))):
                break
            pos, start, is_range = nxt, separator.end(), bool(separator.group("range"))
        return items[-1].end if items else anchor.end()

    def _range_members(self, first: _Item, last: _Item) -> list[_Item]:
        """The members strictly between two range ends: known sections, or sibling paragraphs."""
        if first.section != last.section:
            part, _, low = (first.section or "").partition(".")
            last_part, _, high = (last.section or "").partition(".")
            known = self._sections.get(part, [])
            if part != last_part or not (low.isdigit() and high.isdigit()) or first.markers or last.markers:
                return []
            inside = known[bisect_right(known, int(low)) : bisect_left(known, int(high))]
            return [_Item(first.start, last.end, (), f"{part}.{n}") for n in inside[:_MAX_RANGE]]
        return [_Item(first.start, last.end, path, first.section) for path in _paragraph_range(first.markers, last.markers)]

    # -- "paragraphs (b)(1) and (2) of this section" ---------------------------------------------------
    def _paragraph_list(self, anchor: re.Match[str], text: str, where: Position, emit: _Emitter) -> int:
        raw: list[_Item] = []
        ranges: list[bool] = []
        pos, start, is_range = anchor.end(), anchor.start(), False
        while len(raw) < _MAX_ITEMS:
            path_match = P.PARAGRAPH_PATH.match(text, pos)
            if path_match is None:
                break
            markers = _markers(path_match.group(0))
            if raw:
                markers = _continue_path(raw[-1].markers, markers)
            raw.append(_Item(start, path_match.end(), markers))
            ranges.append(is_range)
            separator = P.SEPARATOR.match(text, path_match.end())
            if separator is None:
                break
            sign = P.PARAGRAPH_SIGN.match(text, separator.end())
            nxt = sign.end() if sign else separator.end()
            if not P.PARAGRAPH_PATH.match(text, nxt):
                break
            pos, start, is_range = nxt, separator.end(), bool(separator.group("range"))
        if not raw:
            return anchor.end()
        end = raw[-1].end
        scope = P.PARAGRAPH_SCOPE.match(text, end)
        if scope is None and P.OTHER_SCOPE.match(text, end):
            return end  # "paragraph (1) of section 1128A of the Act", "of such section": not ours to place
        section, resume = where.section, end
        base: tuple[str, ...] = ()
        if scope is not None and "definition" in (scope.group("this"), scope.lastgroup):
            return scope.end()  # a paragraph of a definition: the definition unit has no sub-units
        if scope is not None and scope.group("this") is None:
            number = P.SECTION_NUMBER.match(text, scope.end())
            section = f"{number.group('part')}.{number.group('section')}" if number else None
            # Leave the "§ 164.502" for the section grammar: it is a citation in its own right.
        else:
            resume = scope.end() if scope is not None else end
            nested = scope is not None and scope.group("this") == "paragraph"
            base = _relative_base(where.path, raw[0].markers, nested)
        if section is None:
            return resume
        previous: _Item | None = None
        for item, item_is_range in zip(raw, ranges):
            path = base + item.markers
            if item_is_range and previous is not None:
                for member in _paragraph_range(previous.markers, path):
                    emit.add(previous.start, item.end, _section_keys("cfr:", section, member))
            emit.add(item.start, item.end, _section_keys("cfr:", section, path))
            previous = _Item(item.start, item.end, path)
        return resume

    # -- "part 164", "parts 160 and 164", "45 CFR part 164, subpart E" --------------------------------
    def _parts_list(self, anchor: re.Match[str], text: str, title: str, emit: _Emitter) -> int:
        prefix = "cfr:" if title == HOME_TITLE else f"cfr:{title}:"
        pos, start, end = anchor.end(), anchor.start(), anchor.end()
        for _ in range(_MAX_ITEMS):
            number = P.PART_NUMBER.match(text, pos)
            if number is None:
                break
            part, end = number.group("part"), number.end()
            keys = [f"{prefix}part:{part}"]
            subpart = P.PART_SUBPART.match(text, end)
            if subpart:
                end = subpart.end()
                keys.insert(0, f"{prefix}part:{part}:subpart:{subpart.group('letter')}")
            emit.add(start, end, keys)
            separator = P.SEPARATOR.match(text, end)
            if separator is None or not P.PART_NUMBER.match(text, separator.end()):
                break
            pos = start = separator.end()
        return end


class _Emitter:
    """Collects mentions with their as-written text; one place to build a Mention."""

    def __init__(self, text: str, source_id: str, out: list[Mention]) -> None:
        self.text, self.source_id, self.out = text, source_id, out

    def add(self, start: int, end: int, keys: list[str]) -> None:
        if keys and len(self.out) < _MAX_MENTIONS:
            self.out.append(Mention(source_id=self.source_id, text=self.text[start:end].strip(), start=start, end=end, keys=keys))


# -- paths and keys ------------------------------------------------------------------------------------
def _markers(path: str) -> tuple[str, ...]:
    return tuple(P.MARKER.findall(path))


def _path_at(text: str, pos: int) -> tuple[tuple[str, ...], int]:
    match = P.PARAGRAPH_PATH.match(text, pos)
    return (_markers(match.group(0)), match.end()) if match else ((), pos)


def _section_keys(prefix: str, section: str | None, markers: tuple[str, ...]) -> list[str]:
    """Finest first: the paragraph, each enclosing paragraph, the section, then its part."""
    if section is None:
        return []
    base = f"{prefix}{section}"
    keys = [base + "".join(f"({m})" for m in markers[:n]) for n in range(len(markers), 0, -1)]
    keys.append(base)
    keys.append(f"{prefix}part:{section.partition('.')[0]}")
    return keys


def _kind_at(path: tuple[str, ...], level: int) -> set[MarkerKind]:
    """The kinds the marker at this level of an absolute path can be; the CFR level order settles "(i)"."""
    kinds = set(marker_kinds(path[level]))
    if level < len(LEVEL_KINDS) and LEVEL_KINDS[level] in kinds:
        return {LEVEL_KINDS[level]}
    return kinds


def _continue_path(previous: tuple[str, ...], following: tuple[str, ...]) -> tuple[str, ...]:
    """"(g)(3)(i)(A), (B)": a later list item replaces the previous item from its own level down."""
    kinds = set(marker_kinds(following[0]))
    for level in range(len(previous) - 1, -1, -1):
        if _kind_at(previous, level) & kinds:
            return previous[:level] + following
    return following


def _relative_base(citing: tuple[str, ...], cited: tuple[str, ...], nested: bool) -> tuple[str, ...]:
    """The prefix of the citing path a relative paragraph path hangs from.

    "paragraph (c)(1)" and "… of this section" name a path from the section root, unless the section's
    top level is of another kind: then the path starts at the shallowest level of the cited kind
    ("paragraph (1) or (2)" inside (c)(2)(i) means (c)(1) or (c)(2)). "… of this paragraph" takes the deepest.
    """
    kinds = set(marker_kinds(cited[0]))
    child_fits = bool(citing) and len(citing) < len(LEVEL_KINDS) and LEVEL_KINDS[len(citing)] in kinds
    if nested and child_fits:
        return citing
    levels = [level for level in range(len(citing)) if _kind_at(citing, level) & kinds]
    if levels:
        return citing[: (levels[-1] if nested else levels[0])]
    return citing if nested or child_fits else ()


def _paragraph_range(first: tuple[str, ...], last: tuple[str, ...]) -> list[tuple[str, ...]]:
    """"(a) through (f)" → (b)…(e): only for two paths that differ in their last marker alone."""
    if len(first) != len(last) or not first or first[:-1] != last[:-1]:
        return []
    for kind in set(marker_kinds(first[-1])) & set(marker_kinds(last[-1])):
        low, high = marker_value(first[-1], kind), marker_value(last[-1], kind)
        if low is not None and high is not None and 0 < high - low <= _MAX_RANGE:
            members = [marker_of(v, kind) for v in range(low + 1, high)]
            return [first[:-1] + (m,) for m in members if m]
    return []


# -- subparts, "this subpart", statutes ----------------------------------------------------------------
def _subpart_list(anchor: re.Match[str], text: str, where: Position, emit: _Emitter) -> int:
    letters: list[tuple[int, int, str]] = []
    pos, start = anchor.end(), anchor.start()
    while len(letters) < _MAX_ITEMS:
        letter = P.SUBPART_LETTER.match(text, pos)
        if letter is None:
            break
        letters.append((start, letter.end(), letter.group("letter")))
        separator = P.SEPARATOR.match(text, letter.end())
        if separator is None or not P.SUBPART_LETTER.match(text, separator.end()):
            break
        pos = start = separator.end()
    if not letters:
        return anchor.end()
    end = letters[-1][1]
    scope = P.SUBPART_SCOPE.match(text, end)
    part = (scope.group("part") or where.part) if scope else where.part
    end = scope.end() if scope else end
    for n, (item_start, item_end, name) in enumerate(letters, start=1):
        keys = [f"cfr:part:{part}:subpart:{name}", f"cfr:part:{part}"] if part else [f"cfr:subpart:{name}"]
        # The last item carries "of part 160": that is what makes it "subpart C of part 160" as written.
        emit.add(item_start, end if n == len(letters) else item_end, keys)
    return end


def _this_scope(anchor: re.Match[str], where: Position, emit: _Emitter) -> int:
    if where.part is None:
        return anchor.end()
    if anchor.group("this_scope") == "part":
        emit.add(anchor.start(), anchor.end(), [f"cfr:part:{where.part}"])
    elif where.subpart:
        emit.add(anchor.start(), anchor.end(), [f"cfr:part:{where.part}:subpart:{where.subpart}", f"cfr:part:{where.part}"])
    return anchor.end()


def _statute_list(anchor: re.Match[str], text: str, prefix: str | None, item: re.Pattern[str], emit: _Emitter) -> int:
    """"42 U.S.C. 1320d-5(b)", "section 1171 of the Act", "sections 13400-13424 of Public Law 111-5"."""
    found: list[tuple[int, int, str, str]] = []
    pos, start = anchor.end(), anchor.start()
    while len(found) < _MAX_ITEMS:
        match = item.match(text, pos)
        if match is None:
            break
        found.append((start, match.end(), match.group("number").replace(" ", ""), match.group("path")))
        separator = P.SEPARATOR.match(text, match.end())
        if separator is None:
            break
        sign = P.SECTION_SIGN.match(text, separator.end()) if prefix is None else None
        nxt = sign.end() if sign else separator.end()
        if not item.match(text, nxt) or not text[nxt : nxt + 1].isdigit():
            break
        pos, start = nxt, separator.end()
    if not found:
        return anchor.end()
    end = found[-1][1]
    law_end = None
    if prefix is None:
        scope = P.STATUTE_SCOPE.match(text, end)
        law = _LAW_SLUG.sub("-", scope.group("law").lower()).strip("-") if scope else "section"
        prefix, law_end = f"statute:{law}", scope.end() if scope else None
    for item_start, item_end, number, path in found:
        keys = [f"{prefix}:{number}{path}", f"{prefix}:{number}"] if path else [f"{prefix}:{number}"]
        # The text runs to the law's name, so that "section 1171 of the Act" and "… of ERISA" stay apart.
        emit.add(item_start, law_end or item_end, keys)
    return law_end or end
