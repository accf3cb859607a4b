"""The ADGM citation grammar: 'MIR Rule 3.8.1', 'sections 215, 216 or 217 of FSMR', 'paragraphs 47-54 of ...'.

Numbers are found first; the words just before each (head, abbreviation), the glue between numbers
(lists, ranges) and the words after a list ('of FSMR', 'of the Conduct of Business Rulebook') then
decide what every number cites. A citation naming no document cites the citing unit's own one; a bare
'section 92' that the own document lacks falls back to the statute-style documents (FSMR first).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.domain import Document, LegalUnit, UnitType
from ingest.citations import adgm_patterns as P
from ingest.models import Mention
from ingest.parsers import adgm_ids as ids

_MAX_RANGE = 60
_HOME_MIN_NAMED = 3
# Ranges multiply mentions; a hostile text of thousands of ranges must not multiply them without end.
_MAX_EXPANDED_PER_UNIT = 1_000
_BARE_MIN_DOTS = 2
_SECTION_HEADS = ("section", "subsection", "sub-section", "sub section")
_SLUG = re.compile(r"[^0-9a-z]+")
_BARE_INTEGER = re.compile(r"^\d+[a-z]?$")
_SCHEDULE_OF = re.compile(r"\s*schedule\s*(\d{1,3})\b", re.I)


def _normal_title(text: str) -> str:
    text = re.sub(r"[\s\-–—]+", " ", text.lower()).strip()
    return text[4:] if text.startswith("the ") else text


class DocumentNames:
    """Abbreviations and titles → document numbers, built from the parsed documents."""

    def __init__(self, documents: list[Document]) -> None:
        self.abbreviations: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        self.guidance: list[tuple[str, str]] = []
        statutes: list[tuple[int, str]] = []
        guidance_documents: list[tuple[Document, str]] = []
        for document in documents:
            head = document.units[0] if document.units and document.units[0].type is UnitType.DOCUMENT else None
            number = head.metadata.get("document_number") if head else None
            if not number:
                continue
            for name in document.names:
                if re.fullmatch(r"[A-Z][A-Za-z]{1,7}", name):
                    self.abbreviations.setdefault(name, number)
                    continue
                for variant in _title_variants(name):
                    self.titles.setdefault(_normal_title(variant), number)
            if head is not None and head.tier > 1:
                self.guidance.append((number, " ".join(document.names).lower()))
                guidance_documents.append((document, number))
            if head is not None and head.metadata.get("numbering") == "sections":
                statutes.append((len(document.units), number))
        self.statutes = [number for _, number in sorted(statutes, key=lambda s: -s[0])]
        self.title_re = P.title_pattern(self.titles)
        self.home = {number: self._home_rulebook(document, number) for document, number in guidance_documents}

    def _home_rulebook(self, document: Document, own: str) -> str | None:
        """The document a guidance note names most: its bare "Rule 11.2.1" means that rulebook's rule."""
        counts: dict[str, int] = {}
        for unit in document.units:
            for match in P.ABBREVIATION.finditer(unit.text):
                number = self.abbreviations.get(match.group(0))
                if number and number != own:
                    counts[number] = counts.get(number, 0) + 1
        best = max(counts, key=counts.__getitem__, default=None)
        return best if best is not None and counts[best] >= _HOME_MIN_NAMED else None

    def title_at(self, text: str, pos: int) -> tuple[str, int] | None:
        if self.title_re is None:
            return None
        match = self.title_re.match(text, pos)
        if match is None:
            return None
        number = self.titles.get(_normal_title(match.group(0)))
        return (number, match.end()) if number else None

    def guidance_on(self, topic: str) -> str | None:
        words = [w.lower() for w in topic.split()]
        hits = [number for number, names in self.guidance if all(re.search(rf"\b{re.escape(w)}", names) for w in words)]
        return hits[0] if len(hits) == 1 else None


def _title_variants(name: str) -> list[str]:
    without_abbreviation = re.sub(r"\s*\([A-Z][A-Za-z]{1,7}\)\s*$", "", name)
    without_year = re.sub(r"\s+\d{4}$", "", without_abbreviation)
    return [v for v in dict.fromkeys([name, without_abbreviation, without_year]) if len(v.split()) >= 2]


@dataclass
class _Target:
    """What the words after a list say: a corpus document, a container in it, or outside law."""

    document: str | None = None
    container: str = ""
    external: str = ""
    end: int = 0


@dataclass
class _Number:
    start: int  # where the citation's words begin (head or abbreviation), for the mention span
    num_start: int
    end: int
    canonical: str
    head: str = ""
    document: str | None = None
    range_from: _Number | None = None
    extra_subs: list[str] = field(default_factory=list)

    def cited(self) -> bool:
        bare = self.canonical.split("(")[0]
        return bool(self.head or self.document) or bare.count(".") >= _BARE_MIN_DOTS or bare[:1] == "a" and "." in bare


class AdgmCitationFinder:
    def __init__(self, documents: list[Document]) -> None:
        self.names = DocumentNames(documents)

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        text = unit.text
        if not text:
            return []
        own = document.units[0].metadata.get("document_number", "") if document.units else ""
        mentions: list[Mention] = []
        covered: list[tuple[int, int]] = []
        budget = [_MAX_EXPANDED_PER_UNIT]
        schedule = _SCHEDULE_OF.match(unit.metadata.get("passage_id", ""))
        for group in self._groups(text):
            target = self._target_after(text, group[-1].end, own)
            if schedule and not target.container and target.document in (None, own):
                # Inside a schedule, "paragraph 98" is that schedule's paragraph, not section 98.
                target.container = f"schedule{schedule.group(1)}" if group[0].head.startswith("para") else ""
            covered.append((group[0].start, max(target.end, group[-1].end)))
            for number in group:
                mentions.extend(self._mentions(unit, text, number, target, own, budget))
        mentions.extend(self._named_documents(unit, text, covered))
        return mentions

    # -- numbers, lists and ranges -------------------------------------------------------------

    def _groups(self, text: str) -> list[list[_Number]]:
        groups: list[list[_Number]] = []
        previous: _Number | None = None
        for match in P.NUMBER.finditer(text):
            number = self._number(text, match)
            if previous is not None and groups and groups[-1][-1] is previous and self._joins(text, previous, number):
                number.head = number.head or previous.head
                number.document = number.document or previous.document
                groups[-1].append(number)
            elif number.cited():
                groups.append([number])
            else:
                previous = None
                continue
            previous = number
        return groups

    def _number(self, text: str, match: re.Match[str]) -> _Number:
        raw = match.group(0)
        number = _Number(start=match.start(), num_start=match.start(), end=match.end(),
                         canonical=ids.canonical(ids.segments(raw)))
        before = P.BEFORE.search(text, max(0, match.start() - P.BEFORE_WINDOW), match.start())
        if before is not None:
            document = next((self.names.abbreviations[d] for d in before.group("doc1", "doc2", "doc3")
                             if d and d in self.names.abbreviations), None)
            if before.group("head") or document:
                number.head = (before.group("head") or "").lower()
                number.document = document
                number.start = before.start()
        if "(" in number.canonical:
            number.end, number.extra_subs = self._more_subs(text, number.end)
        return number

    def _more_subs(self, text: str, pos: int) -> tuple[int, list[str]]:
        subs: list[str] = []
        for _ in range(P.MORE_SUBS_MAX):
            match = P.MORE_SUBS.match(text, pos)
            if match is None:
                break
            subs.append(match.group("sub").lower())
            pos = match.end()
        return pos, subs

    def _joins(self, text: str, previous: _Number, number: _Number) -> bool:
        gap = text[previous.end : number.num_start]
        if len(gap) > P.BETWEEN_MAX:
            return False
        match = P.BETWEEN.fullmatch(gap)
        if match is None or not (match.group("sep") or match.group("word")):
            return False
        if number.head and previous.head and number.head[:4] != previous.head[:4]:
            return False  # "Rule 17.2.2 and paragraph 25 of this Guidance": a new citation, not one list
        if match.group("word") in P.RANGE_WORDS:
            number.range_from = previous
        return True

    # -- what a list cites ---------------------------------------------------------------------

    def _target_after(self, text: str, pos: int, own: str) -> _Target:
        """Read 'of Schedule 1 of the FSMR': at most one container, then the document (or outside law)."""
        target = _Target()
        for _ in range(2):
            link = P.AFTER_LINK.match(text, pos)
            if link is None:
                return target
            at = link.end()
            if not target.container and (match := P.CONTAINER.match(text, at)):
                kind = "schedule" if match.group("kind").lower() == "schedule" else "app"
                target.container, target.end = f"{kind}{match.group('number')}", match.end()
                pos = match.end()
                continue
            found = self._document_at(text, at, own)
            if found is not None:
                target.document, target.external, target.end = found
            return target
        return target

    def _document_at(self, text: str, at: int, own: str) -> tuple[str | None, str, int] | None:
        if match := P.THIS_DOCUMENT.match(text, at):
            return own, "", match.end()
        if (match := P.ABBREVIATION.match(text, at)) and match.group(0) in self.names.abbreviations:
            return self.names.abbreviations[match.group(0)], "", match.end()
        if titled := self.names.title_at(text, at):
            return titled[0], "", titled[1]
        if (match := P.GUIDANCE_TOPIC.match(text, at)) and (number := self.names.guidance_on(match.group("topic"))):
            return number, "", match.end()
        if match := P.EXTERNAL_LAW.match(text, at):
            return None, match.group(0), match.end()
        return None

    def _mentions(self, unit: LegalUnit, text: str, number: _Number, target: _Target, own: str,
                  budget: list[int]) -> list[Mention]:
        end = target.end if target.external else number.end
        span = (number.start, end)
        if target.external:
            key = "external:" + _SLUG.sub("-", f"{target.external} {number.canonical}".lower()).strip("-")
            return [self._mention(unit, text, span, [key])]
        documents = self._documents(number, target, own)
        addresses = [number.canonical] + [_with_sub(number.canonical, s) for s in number.extra_subs]
        if number.range_from is not None:
            between = _range_between(number.range_from.canonical, number.canonical)[: max(budget[0], 0)]
            budget[0] -= len(between)
            addresses += between
        return [self._mention(unit, text, span, _keys(documents, _forms(address, number.head, target.container)))
                for address in addresses]

    def _documents(self, number: _Number, target: _Target, own: str) -> list[str]:
        if number.document:
            return [number.document]
        if target.document:
            return [target.document]
        if not (number.head.startswith(_SECTION_HEADS) and "." not in number.canonical) or own in self.names.statutes:
            home = self.names.home.get(own)
            return [own, home] if home and number.head.startswith("rule") else [own]
        # "section 95(6)" in a rulebook or guidance: those have no sections, so the statutes come first.
        return [s for s in self.names.statutes if s != own] + [own]

    @staticmethod
    def _mention(unit: LegalUnit, text: str, span: tuple[int, int], keys: list[str]) -> Mention:
        return Mention(source_id=unit.id, text=text[span[0] : span[1]], start=span[0], end=span[1], keys=keys)

    # -- documents named without a number -------------------------------------------------------

    def _named_documents(self, unit: LegalUnit, text: str, covered: list[tuple[int, int]]) -> list[Mention]:
        found: list[Mention] = []
        taken = list(covered)
        if self.names.title_re is not None:
            for match in self.names.title_re.finditer(text):
                number = self.names.titles.get(_normal_title(match.group(0)))
                if number and not _overlaps(match.span(), taken):
                    taken.append(match.span())
                    found.append(self._mention(unit, text, match.span(), [ids.document_key(number)]))
        for match in P.EXTERNAL_LAW.finditer(text):
            if _overlaps(match.span(), taken):
                continue
            key = "external:" + _SLUG.sub("-", match.group(0).lower()).strip("-")
            found.append(self._mention(unit, text, match.span(), [key]))
        return found


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def _with_sub(canonical: str, sub: str) -> str:
    base = canonical[: canonical.rindex("(")] if canonical.endswith(")") else canonical
    return f"{base}({sub})"


def _range_between(first: str, last: str) -> list[str]:
    """'4.13.5' … '4.13.8' → the numbers strictly between; only when they differ in the final number."""
    head_a, _, tail_a = first.rpartition(".")
    head_b, _, tail_b = last.rpartition(".")
    if head_a != head_b or not (tail_a.isdigit() and tail_b.isdigit()):
        return []
    low, high = int(tail_a), int(tail_b)
    if not 0 < high - low <= _MAX_RANGE:
        return []
    return [f"{head_a}.{k}" if head_a else str(k) for k in range(low + 1, high)]


def _forms(canonical: str, head: str, container: str) -> list[str]:
    """Address forms, finest first, for a number read after a head word (and inside a container)."""
    if head.startswith("part"):
        forms = [f"part{canonical}"]
    elif head.startswith("schedule"):
        forms = [f"schedule{canonical}"]
    elif head.startswith("app") and canonical.isdigit():
        forms = [f"app{canonical}", f"a{canonical}"]
    else:
        forms = _climb(canonical)
    if container and not canonical.startswith("a"):
        return [f"{container}.{form}" for form in forms] + forms
    return forms


def _climb(canonical: str) -> list[str]:
    """Ancestors, but a dotted number never climbs to a bare integer: 'Rule 12.2.3' cited from a
    guidance note numbered 1), 2), … must not land on its paragraph 12)."""
    forms = ids.ancestors(canonical)
    if "." in canonical.split("(")[0]:
        forms = [f for f in forms if not _BARE_INTEGER.match(f)]
    return forms


def _keys(documents: list[str], forms: list[str]) -> list[str]:
    return [ids.address_key(document, form) for document in documents for form in forms]
