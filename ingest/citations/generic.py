"""Citations in users' own documents → Mentions with generic-format keys (see parsers/generic/keys.py).

Each pattern's match becomes one or more references: a document (the citing one, another file of
the corpus found by its name, or an instrument outside the corpus) plus a path of segments below
it. Relative references ("paragraph 2 of this Article", "khoản 2") take their path from the citing
unit. Korean text is read by its own grammar (generic_ko.py: 법 / 영 by tier, 「…」, 같은 법). Keys run finest first, then
ancestors, so a missing point still lands on its clause or article. An instrument named but absent
from the corpus gets keys no unit carries: it resolves to an External node, as intended.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from core.domain import Document, EdgeType, LegalUnit
from ingest.citations import generic_patterns as P
from ingest.citations.classify import classify_citation
from ingest.citations.generic_ko import KoreanCitationFinder
from ingest.citations.generic_ko_patterns import HANGUL
from ingest.citations.generic_refs import Ref, Target, non_overlapping, ref_keys
from ingest.citations.generic_vi import AmendingInstructions
from ingest.models import Mention
from ingest.parsers.generic.keys import (
    Segment,
    doc_key,
    doc_type,
    number_name_keys,
    path_of_key,
    title_name_key,
)
from ingest.parsers.generic.vi_codification import PROVENANCE

_ANCHORS = ("art", "sec", "rule")  # segments a "this Article" / "제2항" is relative to
_MAX_RANGE = 50  # "Articles 5 to 7" is expanded; "Articles 1 to 9000" is a typo or a misread
_RANGE_WORDS = ("to", "through", "-", "–", "đến", "부터", "내지", "～", "~")
_AMBIGUOUS_ROMAN = frozenset("ivx")  # "(i)" is a ninth letter or a first roman numeral


@dataclass
class _Context:
    """What relative references in one unit are relative to, and what was cited last."""

    own: Target
    path: list[Segment]
    source: str | None = None  # in a codification: the act the unit's article was taken from
    last_target: Target | None = None
    last_article: list[Segment] = field(default_factory=list)
    last_clause: list[Segment] = field(default_factory=list)

    def article(self) -> list[Segment]:
        cut = max((i + 1 for i, (kind, _) in enumerate(self.path) if kind in _ANCHORS), default=0)
        return self.path[:cut]

    def clause(self) -> list[Segment]:
        cut = max((i + 1 for i, (kind, _) in enumerate(self.path) if kind == "cl"), default=0)
        return self.path[:cut] if cut else self.article()


_Handler = Callable[["GenericCitationFinder", re.Match[str], _Context], list[Ref]]


class GenericCitationFinder:
    def __init__(self, documents: list[Document]) -> None:
        # Name key → slug of the corpus document that carries it (first claimant wins, as in KeyIndex).
        self._by_name: dict[str, str] = {}
        self._slug_of: dict[str, str] = {}
        self._paths: dict[str, list[Segment]] = {}
        self._sources: dict[str, str] = {}
        # A document named by its own number block ("Số: 112/2021/NĐ-CP") claims that name before one that only
        # mentions the number (a README's table, a text quoting the act): first claimant wins.
        for document in sorted(documents, key=lambda d: bool(d.units) and d.units[0].metadata.get("number_from") != "number block"):
            slug = _slug(document)
            self._slug_of[document.id] = slug
            for unit in document.units:
                for key in unit.keys:
                    if key.startswith("gen-name:"):
                        self._by_name.setdefault(key, slug)
                own = next((k for k in unit.keys if k.startswith(f"{doc_key(slug)}:")), None)
                self._paths[unit.id] = path_of_key(own) if own else []
            self._sources.update(_codified_sources(document))
        # English names the texts give acts cited by their own (Korean) title: "the Medical Service Act (의료법)".
        self._english: dict[str, str] = {}
        for document in documents:
            for unit in document.units:
                for stated in P.EN_NAME_STATED.finditer(unit.text):
                    english = re.sub(r"^The\s", "", stated["en"] or stated["en2"])
                    own = " ".join((stated["ko"] or stated["ko2"]).split())
                    self._english.setdefault(title_name_key(english), title_name_key(own))
        self._korean = KoreanCitationFinder(documents, self._named)
        self._amending = AmendingInstructions(documents, _slug, self._named)
        self._vietnamese = {d.id for d in documents if d.units and d.units[0].metadata.get("grammar") == "vi"}

    @property
    def warnings(self) -> list[str]:
        """Instructions kept as references because their target does not exist (for the ingest report)."""
        return self._amending.warnings

    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        slug = self._slug_of.get(document.id) or _slug(document)
        path = self._paths.get(unit.id)
        if path is None:
            own = next((k for k in unit.keys if k.startswith(f"{doc_key(slug)}:")), None)
            path = path_of_key(own) if own else []
        context = _Context(own=Target(slug), path=path, source=self._sources.get(unit.id))
        mentions: list[Mention] = []
        for match, handler in non_overlapping(unit.text, _PATTERNS):
            for ref in handler(self, match, context):
                keys = ref_keys(ref)
                if keys:
                    mentions.append(
                        Mention(source_id=unit.id, text=match.group(0).strip(), start=match.start(), end=match.end(), keys=keys,
                                name=ref.target.name)
                    )
        if document.units and document.units[0].metadata.get("doc_type") == "codification":
            for mention in mentions:
                _type_codified(unit.text, mention)
        elif document.id in self._vietnamese:
            mentions = self._vietnamese_mentions(unit, mentions)
        if HANGUL.search(unit.text):
            mentions += self._korean.find(unit, document, slug, path)
            mentions.sort(key=lambda m: m.start)
        return mentions

    def _vietnamese_mentions(self, unit: LegalUnit, mentions: list[Mention]) -> list[Mention]:
        """An instruction's targets are read by the amending grammar (its words name the amended act's
        provisions, not this document's); elsewhere near words never make an amendment: a Vietnamese text
        amends only by instruction (a title, a legal basis or a VBHN footnote restates one)."""
        spans = self._amending.spans(unit.id)
        kept = [m for m in mentions if not any(a <= m.start < b for a, b in spans)]
        for mention in kept:
            if not mention.typed:
                cued = classify_citation(unit.text, mention.start, mention.end)
                mention.edge_type = EdgeType.REFERENCES if cued in (EdgeType.AMENDS, EdgeType.REPLACES) else cued
                mention.typed = True
        found = [*kept, *self._amending.mentions(unit, self._named, unit.label), *self._amending.footnote_mentions(unit, self._named)]
        return sorted(found, key=lambda m: m.start)

    # Documents -----------------------------------------------------------------------------------

    def _document(self, match: re.Match[str], context: _Context) -> Target:
        groups = match.groupdict()
        if groups.get("self"):
            return context.own
        if groups.get("same"):
            return context.last_target or context.own
        if groups.get("dnum"):
            words = " ".join(groups["dtype"].split())
            return self._named(number_name_keys(doc_type(words), groups["dnum"]))
        title = groups.get("dtitle") or groups.get("kname")
        if title:
            return self._named([title_name_key(" ".join(title.split()))])
        return context.own

    def _named(self, candidates: list[str]) -> Target:
        for key in candidates:
            slug = self._by_name.get(key) or self._by_name.get(self._english.get(key, ""))
            if slug is not None:
                return Target(slug, named=True)
        return Target(None, external=candidates[0], named=True)

    # Handlers: one per pattern; each returns the references one match makes ----------------------

    def _en_provision(self, match: re.Match[str], context: _Context) -> list[Ref]:
        target = self._document(match, context)
        segment = _segment_of(match.group("kind"))
        lead = [("cl", match.group("cl"))] if match.group("cl") else []
        lead += [("pt", match.group("pt"))] if match.group("pt") else []
        first = [[(segment, match.group("num")), *path] for path in _paren_paths(match.group("subs"), lead)]
        refs = [Ref(target, tuple(tuple(p) for p in first))]
        if match.group("num2"):
            for num in _range(match.group("num"), match.group("num2"), match.group("range"))[1:]:
                subs = match.group("subs2") if num == match.group("num2") else ""
                refs.append(Ref(target, tuple(tuple([(segment, num), *p]) for p in _paren_paths(subs, []))))
        return self._remember(context, refs)

    def _en_this(self, match: re.Match[str], context: _Context) -> list[Ref]:
        parts = [(k, match.group(k)) for k in ("cl", "pt") if match.group(k)]
        return [Ref(context.own, (tuple(context.article() + parts),))] if parts else []

    def _en_bare(self, match: re.Match[str], context: _Context) -> list[Ref]:
        if match.group("cl"):
            paths = _paren_paths(match.group("subs"), [("cl", match.group("cl"))])
            return [Ref(context.own, tuple(tuple(context.article() + p) for p in paths))]
        return [Ref(context.own, (tuple(context.clause() + [("pt", match.group("pt"))]),))]

    def _vi_provision(self, match: re.Match[str], context: _Context) -> list[Ref]:
        target = self._document(match, context)
        if match.group("self") and context.source:
            # In a codification "Điều 12 của Luật này" is the source act's Điều 12, wherever it is codified.
            named = self._named(number_name_keys(None, context.source))
            target = replace(named, name=f"{match.group(0).strip()} ({context.source})")
        elif match.group("self"):
            # "Điều 68 của Luật này" names the citing document: it is the fallback when Điều 68 is not in it.
            target = Target(target.slug, named=True)
        parts = [(k, match.group(k)) for k in ("cl", "pt") if match.group(k)]
        refs = [Ref(target, ((("art", match.group("num")), *parts),))]
        if match.group("num2"):
            refs += [Ref(target, ((("art", n),),)) for n in _range(match.group("num"), match.group("num2"), match.group("range"))[1:]]
        return self._remember(context, refs)

    def _vi_codified(self, match: re.Match[str], context: _Context) -> list[Ref]:
        parts = [(k, match.group(k)) for k in ("cl", "pt") if match.group(k)]
        return self._remember(context, [Ref(context.own, ((("art", match.group("num")), *parts),))])

    def _vi_this(self, match: re.Match[str], context: _Context) -> list[Ref]:
        parts = [(k, match.group(k)) for k in ("cl", "pt") if match.group(k)]
        return [Ref(context.own, (tuple(context.article() + parts),))] if parts else []

    def _vi_bare(self, match: re.Match[str], context: _Context) -> list[Ref]:
        if match.group("pt_only"):
            return [Ref(context.own, (tuple(context.clause() + [("pt", match.group("pt_only"))]),))]
        base = context.clause() if match.group("thiscl") else context.article() + [("cl", match.group("cl"))]
        point = [("pt", match.group("pt"))] if match.group("pt") else []
        return [Ref(context.own, (tuple(base + point),))] if base + point else []

    def _whole_act(self, match: re.Match[str], context: _Context) -> list[Ref]:
        target = self._document(match, context)
        if target.slug is not None and target.slug == context.own.slug:
            return []  # the document's own number, in its header or a self-reference
        # One External per act however it is written: "Luật số 25/2008/QH12", "Directive 2014/65/EU".
        kind = " ".join(match.group("dtype").split())
        name = f"{kind[:1].upper()}{kind[1:]} {'số ' if match.re is P.VI_ACT else ''}{match.group('dnum')}"
        return [Ref(replace(target, name=None if target.slug else name), ((),))]

    @staticmethod
    def _remember(context: _Context, refs: list[Ref]) -> list[Ref]:
        # "같은 조 제2항" / "같은 법 제3조" point back at the last absolute reference.
        last = refs[-1]
        context.last_target = last.target
        context.last_article = list(last.paths[0][:1])
        context.last_clause = list(last.paths[0][:2]) if len(last.paths[0]) > 1 else []
        return refs


_PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = (
    (P.EN_PROVISION, GenericCitationFinder._en_provision),
    (P.EN_THIS_PROVISION, GenericCitationFinder._en_this),
    (P.EN_BARE_PART, GenericCitationFinder._en_bare),
    (P.VI_PROVISION, GenericCitationFinder._vi_provision),
    (P.VI_CODIFIED, GenericCitationFinder._vi_codified),
    (P.VI_THIS_ARTICLE, GenericCitationFinder._vi_this),
    (P.VI_BARE_PART, GenericCitationFinder._vi_bare),
    (P.VI_ACT, GenericCitationFinder._whole_act),
    (P.EN_ACT, GenericCitationFinder._whole_act),
)


def _paren_paths(subs: str | None, lead: list[Segment]) -> list[list[Segment]]:
    """'(3)(a)(ii)' → [[cl 3, pt a, sp ii]]; an ambiguous '(i)' also yields its other reading."""
    paths: list[list[Segment]] = [list(lead)]
    for value in P.PAREN_PART.findall(subs or ""):
        extended: list[list[Segment]] = []
        for path in paths:
            kinds = {kind for kind, _ in path}
            if value.isdigit():
                options = ["cl"] if "cl" not in kinds and "pt" not in kinds else []
            elif "pt" in kinds:
                options = ["sp"] if P.ROMAN_LOWER.fullmatch(value) and "sp" not in kinds else []
            elif P.ROMAN_LOWER.fullmatch(value) and (len(value) > 1 or value not in _AMBIGUOUS_ROMAN):
                options = ["sp"]
            else:
                options = ["pt", "sp"] if value in _AMBIGUOUS_ROMAN else ["pt"]
            extended += [path + [(kind, value)] for kind in options] or [path]
        paths = extended
    return paths


def _range(first: str, last: str, word: str | None) -> list[str]:
    """'5','7','to' → ['5','6','7']; a pair ('and', ',') or an implausible span → the two ends."""
    if word in _RANGE_WORDS and first.isdigit() and last.isdigit() and 0 < int(last) - int(first) <= _MAX_RANGE:
        return [str(n) for n in range(int(first), int(last) + 1)]
    return [first, last]


def _segment_of(kind: str) -> str:
    """'Articles' → art, '§§' / 'Sec.' → sec, 'Rule' → rule: the key segment the parser gives such headings."""
    word = kind.lower()
    if word.startswith(("§", "sec")):
        return "sec"
    return "rule" if word.startswith("rul") else "art"


_NOTE_VERB = re.compile(
    r"(?P<pre>\S+\s+)?(?P<verb>(?:sửa\s+đổi|bổ\s+sung|thay\s+thế|bãi\s+bỏ)(?:\s*,\s*(?:sửa\s+đổi|bổ\s+sung|thay\s+thế|bãi\s+bỏ)){0,3})\s{1,3}$"
)


def _type_codified(text: str, mention: Mention) -> None:
    """A codification amends nothing: no citation of it is AMENDS / REPLACES for the words near it, except
    where a provenance note says in the active voice that the source provision amended another
    ("(Điều 2 Thông tư số 27/2020/TT-BYT sửa đổi, bổ sung Điều 5 Thông tư số 05/2015/TT-BYT …)"). The
    passive "được sửa đổi … bởi Điều 5 …" names the amending act: history metadata (vi_codification)."""
    mention.typed = True
    cued = classify_citation(text, mention.start, mention.end)
    if cued not in (EdgeType.AMENDS, EdgeType.REPLACES):
        mention.edge_type = cued  # delegation and definition cues ("quy định chi tiết") still type it
    line_start = text.rfind("\n", 0, mention.start) + 1
    line_end = text.find("\n", mention.end)
    line = text[line_start: line_end if line_end >= 0 else len(text)]
    if not PROVENANCE.fullmatch(line.strip()):
        return
    verb = _NOTE_VERB.search(text[max(line_start, mention.start - 60): mention.start])
    if verb is None or (verb.group("pre") or "").strip().lower() in ("được", "bị", "đã"):
        return
    words = " ".join(verb.group("verb").split())
    if "thay thế" in words:
        mention.edge_type, mention.action = EdgeType.REPLACES, "replaced"
    elif "bãi bỏ" in words:
        mention.edge_type, mention.action = EdgeType.REPLACES, "repealed"
    else:
        mention.edge_type, mention.action = EdgeType.AMENDS, "inserted" if words == "bổ sung" else "amended"


def _codified_sources(document: Document) -> dict[str, str]:
    """unit id → the act its codified article was taken from (metadata the Vietnamese notes give)."""
    by_id = {u.id: u for u in document.units}
    out: dict[str, str] = {}
    for unit in document.units:
        node: LegalUnit | None = unit
        while node is not None and "source_document" not in node.metadata and node.type != "article":
            node = by_id.get(node.parent_id or "")
        if node is not None and node.metadata.get("source_document"):
            out[unit.id] = node.metadata["source_document"]
    return out


def _slug(document: Document) -> str:
    head = document.units[0].keys[0] if document.units and document.units[0].keys else ""
    return head.removeprefix("gen:") if head.startswith("gen:") else document.id.rsplit("/", 1)[-1]
