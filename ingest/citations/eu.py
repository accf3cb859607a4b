"""Citations in EU acts → Mentions: find (eu_patterns) → read the act and path (eu_refs) → keys.

A citation that names an act ("of Directive 95/46/EC", "TFEU", "of that Regulation", "thereof")
resolves into that act when the corpus holds it (by its number or short title), otherwise to an
External node named by act and provision; it never falls back to the citing act's own article of
that number. "this Regulation" and unnamed citations mean the citing act, except in text an
amending provision quotes, which speaks of the amended act. Every edge is typed by grammar here
(REFERENCES unless an instruction or an empowerment says otherwise), never by nearby words.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.citations import eu_patterns as P
from ingest.citations.base import CitationFinder
from ingest.citations.eu_amendments import Amending, Instruction, quoted_spans, read_unit
from ingest.citations.eu_inserted import insert_quoted
from ingest.citations.eu_refs import (
    Act,
    act_from,
    article_items,
    external_key,
    external_name,
    labels_of,
    point_alternatives,
)
from ingest.models import Mention
from ingest.parsers.generic.eu import TRADITION
from ingest.parsers.generic.keys import Segment, doc_key, path_of_key, title_name_key, unit_key

_Paths = list[list[Segment]]


class EuCitationFinder:
    """EU acts get this grammar; every other document goes to the finder it would have had."""

    def __init__(self, documents: list[Document], fallback: CitationFinder) -> None:
        self._fallback = fallback
        self._by_name: dict[str, str] = {}
        self._slug: dict[str, str] = {}
        self._units: dict[str, LegalUnit] = {}
        self._amending: dict[str, Amending] = {}
        # The acts each document named last, by kind, for "that Regulation" in a later unit.
        self._recent: dict[str, dict[str, Act]] = {}
        for document in documents:
            head = document.units[0] if document.units else None
            slug = head.keys[0].removeprefix("gen:") if head and head.keys else document.id.rsplit("/", 1)[-1]
            self._slug[document.id] = slug
            for unit in document.units:
                self._units[unit.id] = unit
                for key in unit.keys:
                    if key.startswith("gen-name:"):
                        self._by_name.setdefault(key, slug)
        # Short titles the texts give numbered acts: "the General Data Protection Regulation" is Regulation (EU) 2016/679
        # wherever a full citation says so, whether or not that act is ingested.
        self._stated: dict[str, Act] = {}
        for unit in self._units.values():
            self._stated.update((k, a) for k, a in _stated_short_titles(unit.text).items() if k not in self._stated)
        # The units the instructions insert belong to the amended acts before any edge is read into them.
        amending = [d for d in documents if d.units and d.units[0].metadata.get("tradition") == TRADITION]
        if insert_quoted(amending, documents, self._slug, self._slug_of):
            self._units.update((u.id, u) for d in documents for u in d.units)

    @property
    def warnings(self) -> list[str]:
        """What the finder for the other documents kept in a weaker form (ingest.graph reports it)."""
        return list(getattr(self._fallback, "warnings", []))

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        head = document.units[0] if document.units else None
        if head is None or head.metadata.get("tradition") != TRADITION:
            return self._fallback.find(unit, document)
        if unit.metadata.get("role") == "notes":
            return []
        slug = self._slug.get(document.id, document.id.rsplit("/", 1)[-1])
        own = Act(document.units[0].label, head.metadata.get("doc_type", "regulation"), (f"self:{slug}",))
        quoted = quoted_spans(unit.text)
        reading = read_unit(unit.text, self._context(unit), quoted)
        self._amending[unit.id] = reading.context
        # One mention per amended location: "paragraphs 1 and 2 are deleted" amends two units.
        mentions = [self._instruction_mention(unit, i, list(p), slug) for i in reading.instructions for p in i.paths or [()]]
        consumed = [(i.start, i.end) for i in reading.instructions]
        path = self._path(unit, slug)
        quoted_target = reading.target or self._context(unit)
        delegated = bool(head.metadata.get("instrument"))
        for match, relative in _matches(unit.text):
            if any(a < match.end() and match.start() < b for a, b in consumed):
                continue
            in_quote = any(a <= match.start() < b for a, b in quoted) and quoted_target.act is not None
            here_act = quoted_target.act if in_quote and quoted_target.act is not None else own
            here_path = list(quoted_target.base) if in_quote else path
            refs = (self._relative(match, here_path, here_act) if relative
                    else self._provision(match, unit.text, own, here_act, self._recent.get(document.id, {})))
            for act, paths in refs:
                mention = self._mention(unit, match, act, paths, slug)
                if mention is None:
                    continue
                if (delegated and not relative and unit.type is UnitType.PREAMBLE and match["thereof"]
                        and act.kind != "treaty" and _having_regard(unit.text, match.start())):
                    # "Having regard to Regulation X …, and in particular Article N thereof": the
                    # empowerment this delegated act is made under; the act specifies it.
                    mention.source_id = document.id
                    mention.edge_type, mention.pair = EdgeType.SPECIFIES, EdgeType.DELEGATES_TO
                mentions.append(mention)
        taken = [*consumed, *((m.start(), m.end()) for m, _ in _matches(unit.text))]
        # An act this unit instructs is already its AMENDS / REPLACES target ("Amendments to Regulation X").
        instructed = {i.act.name for i in reading.instructions if i.act is not None}
        mentions += self._whole_acts(unit, slug, taken, instructed)
        recent = self._recent.setdefault(document.id, {})
        for match in P.ACT_NAME.finditer(unit.text):
            named = act_from(match)
            if named is not None:
                recent[named.kind] = named
        return mentions

    def _whole_acts(self, unit: LegalUnit, slug: str, taken: list[tuple[int, int]], instructed: set[str]) -> list[Mention]:
        """"Regulation (EU) No 600/2014", "Directive 2014/65/EU" with no provision: an edge to that act's
        document when the corpus holds it, else to an External named by the act; never to the citing act
        (its own number in its title) nor to an article of it."""
        mentions: list[Mention] = []
        for match in P.ACT_NAME.finditer(unit.text):
            named = act_from(match)
            act = self._numbered(named) if named is not None else None
            if act is None or act.name in instructed or any(a < match.end() and match.start() < b for a, b in taken):
                continue
            target = self._slug_of(act)
            if target == slug:
                continue
            keys, name = ([doc_key(target)], None) if target else ([external_key(act, ())], external_name(act, ()))
            mentions.append(Mention(source_id=unit.id, text=match.group(0).strip(), start=match.start(),
                                    end=match.end(), keys=keys, typed=True, name=name))
        return mentions

    # Context -------------------------------------------------------------------------------------

    def _context(self, unit: LegalUnit) -> Amending:
        """The amended act and location the unit's ancestors speak of (units are found in order)."""
        parent = unit.parent_id
        while parent is not None:
            if parent in self._amending:
                return self._amending[parent]
            parent = self._units[parent].parent_id if parent in self._units else None
        return Amending()

    def _path(self, unit: LegalUnit, slug: str) -> list[Segment]:
        own = next((k for k in unit.keys if k.startswith(f"{doc_key(slug)}:")), None)
        return path_of_key(own) if own else []

    # References ----------------------------------------------------------------------------------

    def _provision(self, match: re.Match[str], text: str, own: Act, here: Act,
                   recent: dict[str, Act]) -> list[tuple[Act, _Paths]]:
        act = self._act_of(match, text, own, here, recent)
        paths = article_items(match["items"])
        if match["lpara"] and paths:
            paths = [[p[0], ("cl", match["lpara"])] for p in paths]
        points = labels_of(match["lpts"]) or labels_of(match["tpts"])
        if points and paths:
            base = paths[0]
            return [(act, point_alternatives(base, label)) for label in points]
        return [(act, [p]) for p in paths]

    def _relative(self, match: re.Match[str], here: list[Segment], act: Act) -> list[tuple[Act, _Paths]]:
        article = [s for s in here if s[0] in ("art", "annex")][:1]
        article = here[: here.index(article[0]) + 1] if article else []
        if match["bpts"]:
            clause = here[: max((i + 1 for i, s in enumerate(here) if s[0] == "cl"), default=len(article))]
            return [(act, point_alternatives(clause, label)) for label in labels_of(match["bpts"])]
        paragraphs = P.PARAS_SPLIT.split(match["paras"])
        if len(paragraphs) == 2 and " to " in match["paras"] and all(p.isdigit() for p in paragraphs):
            low, high = int(paragraphs[0]), int(paragraphs[1])
            if 0 < high - low <= 20:
                paragraphs = [str(n) for n in range(low, high + 1)]
        points = labels_of(match["lpts"]) or labels_of(match["tpts"])
        refs: list[tuple[Act, _Paths]] = []
        for paragraph in paragraphs:
            clause = [*article, ("cl", paragraph)]
            if points:
                refs += [(act, point_alternatives(clause, label)) for label in points]
            else:
                refs.append((act, [clause]))
        return refs

    def _act_of(self, match: re.Match[str], text: str, own: Act, here: Act, recent: dict[str, Act]) -> Act:
        if match["self"]:
            return own
        named = act_from(match)
        if named is not None:
            return named
        if match["thereof"] and _having_regard(text, match.start()):
            # "Having regard to <act> of … amending <other acts> …, and in particular Article N thereof":
            # "thereof" is the act the recital of authority has regard to, named first on its line.
            line_start = text.rfind("\n", 0, match.start()) + 1
            first = next((a for a in map(act_from, P.ACT_NAME.finditer(text, line_start, match.start())) if a), None)
            if first is not None:
                return first
        if match["that"] or match["thereof"]:
            kind = match["that"].split()[-1].lower() if match["that"] else None
            previous = _last_act(text, match.start(), kind) or (recent.get(kind) if kind else None)
            if previous is not None:
                return previous
        return here

    def _mention(self, unit: LegalUnit, match: re.Match[str], act: Act | None, paths: _Paths, slug: str) -> Mention | None:
        if not paths or not paths[0]:
            return None
        keys, name = self._keys(act, paths, slug)
        return Mention(source_id=unit.id, text=match.group(0).strip(), start=match.start(), end=match.end(), keys=keys,
                       typed=True, name=name)

    def _instruction_mention(self, unit: LegalUnit, instruction: Instruction, path: list[Segment], slug: str) -> Mention:
        keys, name = self._keys(instruction.act, [path], slug)
        return Mention(source_id=unit.id, text=instruction.raw, start=instruction.start, end=instruction.end, keys=keys,
                       edge_type=instruction.edge_type, typed=True, name=name, action=instruction.action)

    def _numbered(self, act: Act) -> Act:
        """A short-titled act as the number a full citation gave it, when one did."""
        return self._stated.get(act.keys[0], act) if act.keys and act.keys[0] not in self._by_name else act

    def _keys(self, act: Act | None, paths: _Paths, slug: str) -> tuple[list[str], str | None]:
        """Keys finest first (alternatives at each depth), then the act itself; the External name."""
        act = self._numbered(act) if act is not None else None
        target = slug if act is None or (act.keys and act.keys[0] == f"self:{slug}") else self._slug_of(act)
        if target is None:
            assert act is not None
            return [external_key(act, paths[0])], external_name(act, paths[0])
        keys: list[str] = []
        for depth in range(max(len(p) for p in paths), 0, -1):
            keys += [unit_key(target, p[:depth]) for p in paths if len(p) >= depth]
        if act is not None and target != slug:
            keys.append(doc_key(target))
        if not keys:
            keys.append(doc_key(target))
        return list(dict.fromkeys(keys)), None

    def _slug_of(self, act: Act) -> str | None:
        return next((self._by_name[k] for k in self._numbered(act).keys if k in self._by_name), None)


def _matches(text: str) -> Iterator[tuple[re.Match[str], bool]]:
    """Provision and relative citations, earliest first, the longest at one start, no overlaps."""
    found = [(m.start(), -m.end(), order, m) for order, pattern in enumerate((P.PROVISION, P.RELATIVE))
             for m in pattern.finditer(text) if m.end() > m.start()]
    found.sort(key=lambda item: item[:3])
    end = -1
    for start, neg_end, order, match in found:
        if start >= end:
            end = -neg_end
            yield match, order == 1


def _stated_short_titles(text: str) -> dict[str, Act]:
    """Short title key → the act whose full citation gives it: the first numbered act of the citation's line
    ("Regulation (EU) 2016/679 of … repealing Directive 95/46/EC (General Data Protection Regulation)")."""
    out: dict[str, Act] = {}
    for stated in P.STATED_SHORT.finditer(text):
        start = max(text.rfind("\n", 0, stated.start()), text.rfind("; ", 0, stated.start())) + 1
        first = next((a for a in map(act_from, P.ACT_NAME.finditer(text, start, stated.start())) if a and a.kind != "treaty"
                      and not a.keys[0].startswith("gen-name:title:")), None)
        if first is not None:
            out.setdefault(title_name_key(" ".join(stated["stated"].split())), first)
    return out


def _last_act(text: str, before: int, kind: str | None) -> Act | None:
    """The act named last before a position ("that Regulation", "thereof"), of the kind when given."""
    last: Act | None = None
    for match in P.ACT_NAME.finditer(text, 0, before):
        act = act_from(match)
        if act is not None and (kind is None or act.kind == kind or (kind == "treaty" and act.kind == "treaty")):
            last = act
    return last


def _having_regard(text: str, position: int) -> bool:
    line_start = text.rfind("\n", 0, position) + 1
    return P.HAVING_REGARD.match(text, line_start) is not None
