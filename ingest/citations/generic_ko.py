"""Korean citations (법률 → 시행령 → 시행규칙) → Mentions with generic-format keys.

Which instrument a citation names is read the way Korean drafting writes it:
- "이 법 / 이 영 / 이 규칙" is the citing document; "「간호법」 제2조" another instrument by title.
- In a 시행령, "법" is its parent act; in a 시행규칙, "법" is the act and "영" the act's 시행령 (read
  from the document's own title), unless the text says otherwise: 「의료법」(이하 "법"이라 한다).
- "같은 법 / 동법 / 같은 법 시행령" is the instrument named just before.
- A bare "제13조" continuing a list or range ("「보건의료기본법」 제6조ㆍ제12조 및 제13조", "제4항부터
  제6항까지") keeps the instrument and article of the citation it continues; otherwise it is the citing
  document's, and a bare "제2항" / "제3호" its own article's / paragraph's.
An instrument not in the corpus gets keys no unit carries, so it becomes an External node named by that
instrument and provision ("의료법 제4조제5항"), never the citing document's article of that number.

Edges are typed by grammar, not by nearby words: a citation followed by its delegated phrase in quotes
("법 제4조제5항 단서에서 "대통령령으로 정하는 경우"란") SPECIFIES the cited provision, paired with the
DELEGATES_TO back; every other citation REFERENCES. Amendment tags (<개정 …>) are metadata (parser).
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.citations import generic_ko_patterns as P
from ingest.citations.generic_refs import Ref, Target, non_overlapping, ref_keys
from ingest.models import Mention
from ingest.parsers.generic.keys import Segment, doc_key, title_name_key
from ingest.parsers.generic.korean import DELEGATION, tier_of

Path = tuple[Segment, ...]
_MAX_RANGE = 50
_DECREE, _RULES = "시행령", "시행규칙"
# Unbracketed words that name an instrument on their own; "영" or "령" alone only as a known alias.
_NAME_ENDINGS = ("법", "법률", _DECREE, _RULES, "규칙", "규정")
_LABELS = {"art": "제{}조", "cl": "제{}항", "pt": "제{}호", "sp": "{}목", "addenda": "{}"}


@dataclass(frozen=True)
class _Instrument:
    target: Target
    name: str  # as a lawyer names it: "의료법", "의료법 시행령"


@dataclass
class _Cite:
    start: int
    end: int
    instrument: _Instrument
    path: Path
    chain: int = 0  # citations of one list or range share it
    answers: bool = False  # states what a delegated phrase of the cited provision means
    amends: bool = False  # the provision an amending instruction changes ("제5조 중 …를 …로 한다")
    action: str | None = None  # the instruction's verb: amended (중 …), deleted (삭제한다), replaced (다음과 같이 한다)


@dataclass
class _DocumentState:
    own: _Instrument
    aliases: dict[str, str]  # "법" → "의료법"
    last_name: str | None = None  # the instrument named last, for "같은 법" in later units


@dataclass
class _UnitState:
    doc: _DocumentState
    path: list[Segment]
    names: list[tuple[int, str]] = field(default_factory=list)  # (position, name) of every instrument named
    last: _Cite | None = None
    amended: _Instrument | None = None  # after "「…」 일부를 다음과 같이 개정한다": bare citations are its

    def name_before(self, position: int) -> str | None:
        index = bisect.bisect_left(self.names, (position, "")) - 1
        return self.names[index][1] if index >= 0 else self.doc.last_name

    def cut(self, kinds: tuple[str, ...]) -> list[Segment]:
        end = max((i + 1 for i, (kind, _) in enumerate(self.path) if kind in kinds), default=0)
        return self.path[:end]


class KoreanCitationFinder:
    def __init__(self, documents: list[Document], named: Callable[[list[str]], Target]) -> None:
        self._named = named
        self._states = {document.id: _document_state(document) for document in documents}
        # Address key → the authorities a provision delegates to ("대통령령", "보건복지부령").
        self._delegating: dict[str, str] = {}
        for document in documents:
            for unit in document.units:
                for key in unit.keys if "delegates_to" in unit.metadata else ():
                    self._delegating.setdefault(key, unit.metadata["delegates_to"])

    def find(self, unit: LegalUnit, document: Document, slug: str, path: list[Segment]) -> list[Mention]:
        doc = self._states.get(document.id) or self._states.setdefault(document.id, _document_state(document))
        doc.own = _Instrument(Target(slug), doc.own.name)
        state = _UnitState(doc, path, [(m.start(), " ".join(m.group("kname").split())) for m in _BRACKETED.finditer(unit.text)])
        intros = [(m.end(), " ".join((m.group("kname") or m.group("plain")).split())) for m in P.AMENDING_INTRO.finditer(unit.text)]
        cites: list[_Cite] = []
        for match, kind in non_overlapping(unit.text, _PATTERNS):
            if match.start() == 0 and unit.type is UnitType.ARTICLE:
                continue  # the article's own heading, "제1조(시행일)"
            previous = cites[-1] if cites else None
            joint = _joint(unit.text, previous, match)
            state.amended = self._amended(intros, match.start(), state)
            new = self._cite(kind, match, state, previous if joint is not None else None)
            instruction = P.INSTRUCTION.match(unit.text, new.end) if state.amended is not None else None
            new.amends, new.action = instruction is not None, _action(instruction)
            if previous is not None and joint is not None:
                new.chain = previous.chain
                if joint in P.RANGE_JOINTS:
                    cites += _range_middle(previous, new)
            else:
                new.chain = len(cites)
            cites.append(new)
            state.last = new
            answers = _answers(unit.text, new.end)
            # A list shares its verb: "법 제22조제3항 및 제23조에서 "…"란", "제5조 및 제7조를 삭제한다".
            for cite in _chain(cites) if answers or new.amends else ():
                cite.answers = cite.answers or answers
                if new.amends and cite.instrument == new.instrument:
                    cite.amends, cite.action = True, new.action
        if state.names:
            doc.last_name = state.names[-1][1]
        for cite in cites:
            cite.answers = cite.answers or self._implicit_answer(unit.text, cite, tier_of(doc.own.name))
        return [_mention(unit, cite) for cite in cites if cite.path] + self._whole_acts(unit, slug, cites)

    def _whole_acts(self, unit: LegalUnit, slug: str, cites: list[_Cite]) -> list[Mention]:
        """「약사법」 with no provision after it: an edge to that act's document when the corpus holds it,
        else to an External named by the act. "「…」 일부를 다음과 같이 개정한다" amends the act itself."""
        out: list[Mention] = []
        for match in _BRACKETED.finditer(unit.text):
            if any(c.start < match.end() and match.start() < c.end for c in cites):
                continue
            name = " ".join(match.group("kname").split())
            target = self._named([title_name_key(name)])
            if target.slug == slug:
                continue
            amends = P.AMENDING_INTRO.match(unit.text, match.start()) is not None
            out.append(Mention(
                source_id=unit.id, text=match.group(0), start=match.start(), end=match.end(),
                keys=[doc_key(target.slug)] if target.slug else [target.external or title_name_key(name)],
                edge_type=EdgeType.AMENDS if amends else EdgeType.REFERENCES, typed=True,
                name=None if target.slug else name, action="amended" if amends else None,
            ))
        return out

    def _implicit_answer(self, text: str, cite: _Cite, tier: int) -> bool:
        """'① 법 제25조제1항에 따라 …' opening a decree provision answers 제25조제1항's "대통령령으로 정하는 바에
        따라" (rules: its 부령). Only there: a citation inside a sentence ("…에 따른 전문의") specifies nothing."""
        if tier not in (2, 3) or cite.amends or not cite.instrument.target.named or cite.instrument.target.slug is None:
            return False
        if not (P.OPENING.fullmatch(text, 0, cite.start) and P.IN_ACCORDANCE.match(text, cite.end)):
            return False
        key = ref_keys(Ref(cite.instrument.target, (cite.path,)))[0]
        authorities = [a.strip() for a in self._delegating.get(key, "").split(",") if a.strip()]
        return any((a == "대통령령") == (tier == 2) for a in authorities)

    # One match → one citation ---------------------------------------------------------------------

    def _cite(self, kind: str, match: re.Match[str], state: _UnitState, previous: _Cite | None) -> _Cite:
        groups = match.groupdict()
        start = match.start()
        if kind == "provision":
            instrument, start = self._prefix(match, state, previous)
            path: list[Segment] = [("art", _num(groups["num"], groups["branch"]))]
        elif kind == "addenda":
            amending = " ".join((groups["amending"] or "").split())
            instrument = self._instrument(amending) if amending else state.doc.own
            # "부칙 제2조" in a 부칙 is that 부칙's own article; elsewhere it names no one 부칙 of many.
            own_addenda = state.path[:1] if state.path[:1] and state.path[0][0] == "addenda" and not amending else []
            path = [*(own_addenda or [("addenda", "부칙")]), ("art", _num(groups["num"], groups["branch"]))]
        else:
            instrument, path = self._relative(kind, groups, state, previous)
        path += _tail(groups, kind)
        if instrument.target.named:
            bisect.insort(state.names, (start, instrument.name))
        return _Cite(start, match.end(), instrument, tuple(path))

    def _prefix(self, match: re.Match[str], state: _UnitState, previous: _Cite | None) -> tuple[_Instrument, int]:
        groups = match.groupdict()
        if groups["self"]:
            return state.doc.own, match.start()
        if groups["kname"]:
            return self._instrument(" ".join(groups["kname"].split())), match.start()
        if groups["same"]:
            return self._same(groups["same"], state.name_before(match.start())) or state.doc.own, match.start()
        word = groups["word"]
        if word:
            name = state.doc.aliases.get(word) or (word if word.endswith(_NAME_ENDINGS) else None)
            if name is not None:
                return (state.doc.own if name == state.doc.own.name else self._instrument(name)), match.start()
        # A word that names nothing ("따른") is not part of the citation: it starts at "제".
        start = match.string.rfind("제", match.start(), match.start("num"))
        return (previous.instrument if previous is not None else state.amended or state.doc.own), start

    def _amended(self, intros: list[tuple[int, str]], position: int, state: _UnitState) -> _Instrument | None:
        name = next((name for end, name in reversed(intros) if end <= position), None)
        if name is None:
            return None
        return state.doc.own if name == state.doc.own.name else self._instrument(name)

    def _same(self, words: str, last: str | None) -> _Instrument | None:
        """같은 법 → the act named last; 같은 영 / 같은 법 시행령 → its 시행령; 같은 규칙 → the rules named last."""
        if last is None:
            return None
        base = last.removesuffix(_RULES).removesuffix(_DECREE).strip()
        compact = words.replace(" ", "")
        if compact.endswith(_RULES):
            return self._instrument(f"{base} {_RULES}")
        if compact.endswith(_DECREE) or compact in ("같은영", "같은령", "동령"):
            return self._instrument(last if last.endswith(_DECREE) else f"{base} {_DECREE}")
        return self._instrument(last if compact == "같은규칙" else base)

    def _instrument(self, name: str) -> _Instrument:
        return _Instrument(self._named([title_name_key(name)]), name)

    @staticmethod
    def _relative(kind: str, groups: dict, state: _UnitState, previous: _Cite | None) -> tuple[_Instrument, list[Segment]]:
        """제2항 / 제3호 / 가목: of the citation continued or named "같은 …", else of the citing unit."""
        base = previous if previous is not None else (state.last if groups.get("same") else None)
        levels = _RELATIVE_TO[kind]
        if base is not None:
            return base.instrument, [s for s in base.path if s[0] in levels]
        if state.amended is not None and state.amended != state.doc.own:
            return state.amended, []  # "제2항을 삭제한다" with no article before it: nothing to address
        return state.doc.own, state.cut(levels)


# What a bare 제N항 / 제N호 / 가목 extends: the article, the paragraph, the item.
_RELATIVE_TO = {"paragraph": ("art", "addenda"), "item": ("addenda", "art", "cl"), "subitem": ("addenda", "art", "cl", "pt")}


def _document_state(document: Document) -> _DocumentState:
    own_name = document.units[0].label if document.units else document.title
    return _DocumentState(_Instrument(Target(None), own_name), _aliases(document, own_name))


def _aliases(document: Document, own_name: str) -> dict[str, str]:
    """법 / 영 from the title ("의료법 시행규칙": 법 = 의료법, 영 = 의료법 시행령), then the text's own."""
    aliases: dict[str, str] = {}
    base = own_name.removesuffix(_RULES).removesuffix(_DECREE).strip()
    if own_name.endswith(_DECREE):
        aliases["법"] = base
    elif own_name.endswith(_RULES):
        aliases.update({"법": base, "영": f"{base} {_DECREE}", _DECREE: f"{base} {_DECREE}"})
    for unit in document.units:
        for match in P.ALIAS.finditer(unit.text):
            alias = match.group("alias").strip()
            if alias.endswith(("법", "영", "령", "규칙", "규정")):
                aliases[alias] = " ".join(match.group("name").split())
    return aliases


_BRACKETED = re.compile(r"「(?P<kname>[^」\n]{1,80})」")
_PATTERNS = ((P.ADDENDA, "addenda"), (P.PROVISION, "provision"), (P.PARAGRAPH, "paragraph"), (P.ITEM, "item"),
             (P.SUBITEM, "subitem"))


def _joint(text: str, previous: _Cite | None, match: re.Match[str]) -> str | None:
    """The list or range word joining this citation to the previous one; None when they are apart."""
    if previous is None or match.group(0).lstrip().startswith(("이 ", "이법", "「", "같은", "동법")):
        return None
    gap = P.LIST_GAP.fullmatch(text, previous.end, match.start())
    return gap.group("joint") if gap is not None and gap.group("joint") else None


def _range_middle(first: _Cite, last: _Cite) -> list[_Cite]:
    """제4항부터 제6항까지 → 제5항 as well (both ends are cited by their own matches)."""
    if len(first.path) != len(last.path) or first.path[:-1] != last.path[:-1] or first.path[-1][0] != last.path[-1][0]:
        return []
    low, high = first.path[-1][1], last.path[-1][1]
    if not (low.isdigit() and high.isdigit() and 1 < int(high) - int(low) <= _MAX_RANGE):
        return []
    kind = first.path[-1][0]
    return [_Cite(first.start, last.end, last.instrument, (*first.path[:-1], (kind, str(n)))) for n in range(int(low) + 1, int(high))]


def _chain(cites: list[_Cite]) -> list[_Cite]:
    """The last citation and those of its list or range before it."""
    start = len(cites) - 1
    while start > 0 and cites[start - 1].chain == cites[-1].chain:
        start -= 1
    return cites[start:]


def _answers(text: str, end: int) -> bool:
    answer = P.ANSWER.match(text, end)
    return answer is not None and DELEGATION.search(answer.group("quote")) is not None


def _action(instruction: re.Match[str] | None) -> str | None:
    """The verb of a Korean amending instruction, in the words the EU grammar uses for the same acts."""
    if instruction is None:
        return None
    words = instruction.group(0)
    return "deleted" if "삭제" in words else "replaced" if "다음과" in words else "amended"


def _mention(unit: LegalUnit, cite: _Cite) -> Mention:
    target = cite.instrument.target
    keys = ref_keys(Ref(target, (cite.path,)))
    text = unit.text[cite.start : cite.end]
    return Mention(
        source_id=unit.id, text=text.strip(), start=cite.start + len(text) - len(text.lstrip()), end=cite.end, keys=keys,
        edge_type=EdgeType.SPECIFIES if cite.answers else EdgeType.AMENDS if cite.amends else EdgeType.REFERENCES,
        pair=EdgeType.DELEGATES_TO if cite.answers else None, typed=True,
        name=f"{cite.instrument.name} {label(cite.path)}" if target.slug is None else None,
        action=cite.action if cite.amends else None,
    )


def label(path: Path) -> str:
    """(("art","4"),("cl","5"),("pt","3의2")) → "제4조제5항제3호의2", as the citation would be written."""
    parts = []
    for kind, num in path:
        main, _, branch = num.partition("의")
        written = _LABELS.get(kind, "{}").format(main)
        parts.append(written + (f"의{branch}" if branch else ""))
    return "".join(parts).replace("부칙제", "부칙 제")


def _num(num: str, branch: str | None) -> str:
    return f"{num}의{branch}" if branch else num


def _tail(groups: dict, kind: str) -> list[Segment]:
    parts: list[Segment] = []
    if kind in ("provision", "addenda", "paragraph") and groups.get("cl"):
        parts.append(("cl", groups["cl"]))
    if kind != "subitem" and groups.get("pt"):
        parts.append(("pt", _num(groups["pt"], groups.get("ptb"))))
    if groups.get("sp"):
        parts.append(("sp", groups["sp"]))
    return parts
