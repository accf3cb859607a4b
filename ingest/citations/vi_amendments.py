"""Vietnamese amending instructions, read by their grammar: tokens → instructions → targets in the amended act.

    Điều 1. Sửa đổi, bổ sung một số điều của Thông tư số 44/2022/TT-BTC     → the act every item below speaks of
    3. Sửa đổi, bổ sung một số khoản của Điều 7 như sau:                    → umbrella: its items act inside Điều 7
    b) Sửa đổi, bổ sung một số điểm của khoản 2 Điều 7 như sau:             → umbrella inside khoản 2 Điều 7
    - Sửa đổi điểm đ như sau: “đ) …”                                       → amends điểm đ khoản 2 Điều 7, new text quoted
    b) Bãi bỏ khoản 2 và khoản 4 Điều 5, khoản 4 Điều 7, Điều 13;          → repeals four provisions
    1. Thay thế cụm từ “A” bằng cụm từ “B” tại Thông tư số 44/2022/TT-BTC   → replaces words in the whole act

Only text that is an instruction is read: an item under an article whose heading amends (or one that names
the act it amends itself), at the start of one of its own lines, never inside the quoted new text, except
where an umbrella item ("14. Thay thế một số cụm từ như sau:") quotes its instructions. Titles, preambles and
effect clauses restate targets without instructing: they are not read here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from core.domain import LegalUnit, UnitType
from ingest.citations import vi_amendment_patterns as P
from ingest.citations.vi_acts import ActRef, StatedActs, act_of
from ingest.parsers.generic.keys import Segment
from ingest.parsers.generic.quotes import QuoteTracker
from ingest.parsers.generic.vi_gazette import introduces_quote


class Action(StrEnum):
    AMEND = "amend"
    ADD = "add"
    REPEAL = "repeal"
    REPLACE_WORDS = "replace_words"
    REPLACE = "replace"


@dataclass
class Instruction:
    action: Action
    targets: list[tuple[Segment, ...]]  # paths in the amended act (key segments), finest unit named
    act: ActRef | None  # the amended act; None: the context's
    start: int  # the instruction's span in the unit's text
    end: int
    raw: str
    part: str | None = None  # "title" / "words": an attribute of the target, not a finer unit
    words_from: str | None = None
    words_to: str | None = None
    new: tuple[Segment, ...] | None = None  # the unit an "add" creates
    umbrella: bool = False  # introduces the instructions of its sub-items
    new_text: str = ""  # the quoted words that follow "như sau:"
    excepted: list[tuple[Segment, ...]] = field(default_factory=list)  # "…, trừ … tại khoản 4 Điều 7": left as they are
    sentence_act: ActRef | None = None  # the act a later instruction of the same sentence names
    sentence_article: tuple[Segment, ...] = ()  # the article it names, for "khoản 1a …; … khoản 3 Điều 4"
    more_new: list[tuple[Segment, ...]] = field(default_factory=list)  # further units an "add" creates beside `new`


@dataclass
class Context:
    """What an item's instructions speak of when they do not say: the act and a base provision."""

    act: ActRef | None = None
    base: tuple[Segment, ...] = ()


@dataclass
class Reading:
    instructions: list[Instruction] = field(default_factory=list)
    context: Context = field(default_factory=Context)  # for the unit's sub-items


# Segment ranks within their family: the article tree and the annex tree.
_RANK = {"ch": 0, "sec": 1, "art": 2, "cl": 3, "pt": 4, "annex": 0, "form": 1}
_FAMILY = {"ch": "a", "sec": "a", "art": "a", "cl": "a", "pt": "a", "annex": "b", "form": "b"}
_KINDS = {"điểm": "pt", "khoản": "cl", "điều": "art", "mục": "sec", "chương": "ch", "phụ lục": "annex",
          "mẫu số": "form", "mẫu": "form"}
_ENDS = re.compile(r"[.:;]\s{0,3}[”\"]?\s{0,3}[.;]?\s{0,3}$")
_MAX_LINES = 10
_MAX_SPAN = 50


def document_context(document_unit: LegalUnit, stated: StatedActs | None = None) -> ActRef | None:
    """The act a whole amending document speaks of: named after an amending verb in its title (by number, or by
    title: "LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT ĐIỆN LỰC"), before the preamble's legal bases ("Căn cứ …",
    which name other amending acts)."""
    head = document_unit.text.split("Căn cứ", 1)[0]
    head = " ".join(head.split())
    for match in P.START.finditer(head):
        window = head[match.end(): match.end() + 200]
        act = _named_act(window, stated or StatedActs())
        if act is not None:
            return act[1]
    return None


def _named_act(region: str, stated: StatedActs) -> tuple[int, ActRef] | None:
    """The first act `region` names, by number or else by title, and where it starts."""
    numbered = P.ACT.search(region)
    if numbered is not None:
        return numbered.start(), act_of(numbered, region)
    return stated.find(region)


def read_unit(unit: LegalUnit, inherited: Context, own_act: ActRef | None, stated: StatedActs | None = None) -> Reading:
    """The unit's instructions and the context its sub-items inherit. `own_act`: the document's own number,
    never a target; `stated`: the acts the document numbers by title. An article whose heading does not amend gives
    its items no context."""
    reading = Reading(context=inherited if unit.type is not UnitType.ARTICLE else Context())
    lines = unit.text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    tracker = QuoteTracker(introduces_quote)
    quoting_instructions = False
    current: Instruction | None = None
    said: list[Instruction] = []  # the last sentence's instructions: one "như sau:" quote gives all their words
    n = 0
    while n < len(lines):
        line = lines[n]
        was_inside = tracker.inside
        quoted = tracker.quoted(line)
        if quoted and not was_inside:
            quoting_instructions = current is not None and current.umbrella
        if quoted and not quoting_instructions:
            for quoting in said or ([current] if current is not None else []):
                quoting.new_text = "\n".join(filter(None, [quoting.new_text, line.strip()]))
            n += 1
            continue
        label = P.LABEL.match(line)
        rest = line[label.end():] if label else line
        if unit.type is UnitType.ARTICLE and n == 0:
            rest = re.sub(r"^\s{0,6}Điều\s{1,3}\d{1,4}[a-zđ]?\s{0,3}[.:]?\s{0,3}", "", line)
        expiring = P.ACT.match(rest) is not None
        # A passive sentence's subject opens an item ("2. Điều 7 được bãi bỏ."); a wrapped line that happens to start
        # with "Điều 23, …" continues a sentence whose subject is on the line above.
        opens_item = n == 0 or bool(label and re.search(r"[\d.)\-–+•]", label.group(0)))
        passive = opens_item and P.SUBJECT.match(rest) is not None
        if not P.START.match(rest) and not expiring and not passive:
            n += 1
            continue
        last = _sentence_end(lines, n, tracker)
        text = _joined([rest, *lines[n + 1: last + 1]])
        start, end = offsets[n] + (len(line) - len(rest)), offsets[last] + len(lines[last])
        if passive and not P.START.match(rest):
            active = active_form(text)
            if active is None:
                n = last + 1
                continue
            text = active
        sentence: list[Instruction] = []
        for piece in P.NEXT_INSTRUCTION.split(text):
            instruction = parse_instruction(piece, start, end, stated) if not expiring else _expiry(piece, start, end)
            if instruction is None:
                continue
            if instruction.act is not None and instruction.act.same_number(own_act):
                continue  # "ban hành kèm theo Nghị định này" written with its own number
            sentence.append(instruction)
            current = instruction
        # "Bãi bỏ từ “thứ tự” tại khoản 1 Điều 18; bãi bỏ điểm b khoản 1 Điều 41 … của Luật điện lực.": the act that
        # closes the sentence is its earlier instructions' too, where nothing above names one.
        closing = next((i.act for i in reversed(sentence) if i.act is not None), None)
        for index, instruction in enumerate(sentence):
            instruction.sentence_act = closing
            # "Bổ sung khoản 1a vào sau khoản 1; sửa đổi, bổ sung khoản 3 và khoản 4 Điều 4": the article a later
            # instruction of the sentence writes is the one its earlier clauses and points belong to.
            instruction.sentence_article = next((path[:1] for later in sentence[index + 1:]
                                                 for path in [*later.targets, *([later.new] if later.new else [])]
                                                 if path and path[0][0] == "art"), ())
        reading.instructions += sentence
        said = sentence
        n = last + 1
    _settle(reading, unit, inherited)
    return reading


def _settle(reading: Reading, unit: LegalUnit, inherited: Context) -> None:
    """Complete each instruction's targets from the context, and set the context of the sub-items."""
    act, base = inherited.act, inherited.base
    for instruction in reading.instructions:
        if instruction.act is None:
            instruction.act = act or instruction.sentence_act
        elif unit.type is UnitType.ARTICLE or instruction.umbrella:
            act = instruction.act
        here = instruction.sentence_article or base
        completed = [_complete(path, here) for path in instruction.targets]
        instruction.targets = [p for p in completed if p is not None]
        instruction.more_new = [m for m in (_complete(path, here) for path in instruction.more_new) if m]
        if instruction.new is not None:
            instruction.new = _complete(instruction.new, here) or instruction.new
            if not instruction.targets:
                instruction.targets = [_anchor(instruction.new) or base]
        if len(instruction.targets) == 1 and instruction.targets[0]:
            # Its sub-items, and the dashes after it in this unit, act inside it: "Điều 119. Sửa đổi, bổ sung
            # khoản 2 Điều 7" over "1. Sửa đổi tiêu đề khoản 2", as an umbrella "một số khoản của Điều 7" does.
            base = instruction.targets[0]
    # A heading that a line below restates ("Điều 55. Sửa đổi, bổ sung Điều 135 của Bộ luật Tố tụng dân sự" over "Sửa
    # đổi, bổ sung Điều 135 của Bộ luật Tố tụng dân sự số 92/2015/QH13 … như sau:") is one instruction: the later one.
    reading.instructions = [i for n, i in enumerate(reading.instructions)
                            if not any(_restated(i, later) for later in reading.instructions[n + 1:])]
    amending = bool(reading.instructions) or unit.type is not UnitType.ARTICLE
    reading.context = Context(act=act, base=base) if amending else Context()


def _restated(instruction: Instruction, later: Instruction) -> bool:
    return (not instruction.umbrella and instruction.act is not None and later.act is not None
            and instruction.act.name() == later.act.name() and bool(instruction.targets) and instruction.targets == later.targets)


def _sentence_end(lines: list[str], n: int, tracker: QuoteTracker) -> int:
    """The last line of the instruction that starts on line n: the first line ending a sentence."""
    last = n
    while last + 1 < len(lines) and last - n < _MAX_LINES and not _ENDS.search(lines[last].rstrip()):
        following = lines[last + 1].strip()
        if not following or P.LABEL.fullmatch(following) is None and P.START.match(P.LABEL.sub("", following, count=1)):
            break
        last += 1
        tracker.quoted(lines[last])
    return last


def _joined(lines: list[str]) -> str:
    out = ""
    for line in lines:
        piece = line.strip()
        if re.search(r"[\w/]-$", out) and piece[:1].isupper():
            out += piece  # "44/2022/TT-" + "BTC."
        else:
            out = f"{out} {piece}".strip()
    return out


def parse_instruction(sentence: str, start: int = 0, end: int = 0, stated: StatedActs | None = None) -> Instruction | None:
    """One instruction sentence (from its verb) → its typed reading; None when it names nothing it acts on. The act
    is named by number, else by title (`stated`: the numbers the document gives titles)."""
    verbs_match = P.VERBS.match(sentence)
    if verbs_match is None:
        return None
    verbs = " ".join(verbs_match.group("verbs").lower().split())
    rest = sentence[verbs_match.end():]
    quotes = [m.group(0)[1:-1] for m in P.QUOTED.finditer(rest)]
    first_quote = P.QUOTED.search(rest)
    masked = P.QUOTED.sub(lambda m: " " * len(m.group(0)), rest)
    stop = P.AS_FOLLOWS.search(masked)
    if stop:
        masked = masked[: stop.start()]
    exception = P.EXCEPT.search(masked)
    excepted: list[tuple[Segment, ...]] = []
    if exception:
        excepted = provision_paths(masked[exception.end():])
        masked = masked[: exception.start()]
    umbrella = bool(P.SOME.match(masked.strip())) or (stop is not None and not _tokens(masked))
    words = first_quote is not None and P.WORDS.search(rest[: first_quote.start()]) is not None
    action, part = _action(verbs, bool(words))
    words_from = words_to = None
    new: tuple[Segment, ...] | None = None
    more_new: list[tuple[Segment, ...]] = []  # "khoản 17 và khoản 18": the units added beside the first
    region = masked
    if words:
        words_from = quotes[0]
        words_to = quotes[1] if action is Action.REPLACE_WORDS and len(quotes) > 1 else None
        at = list(P.AT.finditer(masked))
        region = masked[at[0].end():] if at else ""
        if not region:
            return None
    elif action is Action.REPLACE:
        by = P.BY.search(masked)
        region = masked[: by.start()] if by else masked
    elif action is Action.ADD:
        into = P.INTO.search(masked)
        if into:
            new_paths = _paths(_tokens(masked[: into.start()]))
            new, more_new = (new_paths[0], new_paths[1:]) if new_paths else (None, [])
            region = masked[into.end():]
    this_act = P.THIS_ACT.search(region)
    if this_act:
        region = region[: this_act.start()]
    named = _named_act(region, stated or StatedActs())
    act = named[1] if named else None
    tokens = _tokens(region[: named[0]] if named else region)
    targets = _paths(tokens)
    if any(title for _, _, title in tokens):
        part = part or "title"
    if action is Action.ADD and new is None and targets:
        new, more_new, targets = targets[0], targets[1:], []  # the anchor is found once the context completes them
    elif new is not None and targets and new[0][0] in ("cl", "pt"):
        # "Bổ sung khoản 3 vào Điều 7": khoản 3 of Điều 7; "… khoản 5 vào sau khoản 4 Điều 10": khoản 5 of Điều 10.
        anchor = targets[0]
        base = anchor[:-1] if anchor and anchor[-1][0] == new[0][0] else anchor
        new = (*base, *new)
        more_new = [(*base, *m) for m in more_new]
    if not targets and new is None and P.ACT_TITLE.match(region.strip()):
        targets, part = [()], "title"  # "Sửa đổi, bổ sung tên Nghị định": the title of the act spoken of
    if not targets and new is None and act is None and not umbrella:
        return None
    if not targets and new is None and act is not None and not umbrella:
        targets = [()]  # the whole act: "Bãi bỏ Thông tư số 12/2010/TT-BYT"
    return Instruction(action=Action.AMEND if umbrella else action, targets=targets, act=act, start=start, end=end,
                       raw=" ".join(sentence.split())[:300], part=part, words_from=words_from, words_to=words_to,
                       new=new, more_new=more_new, umbrella=umbrella, excepted=excepted)


def active_form(sentence: str) -> str | None:
    """"Khoản 2 Điều 5 được sửa đổi, bổ sung như sau:" → "sửa đổi, bổ sung Khoản 2 Điều 5 như sau:"; "Điều 5 được bổ
    sung khoản 3 như sau:" → "bổ sung khoản 3 vào Điều 5 như sau:". None when it is no instruction (no provision
    named before the verb, or the verb says where a change came from: "… được sửa đổi theo quy định tại …")."""
    masked = P.QUOTED.sub(lambda m: " " * len(m.group(0)), sentence)
    verb = P.PASSIVE.search(masked)
    if verb is None or not _tokens(masked[: verb.start()]) and not P.WORDS.search(sentence[: verb.start()].split("“")[0] + " "):
        return None
    subject, verbs, after = sentence[: verb.start()].strip(), verb.group("verbs"), sentence[verb.end():]
    if P.PROVENANCE.match(after):
        return None
    added = P.TOKEN.match(after.strip())
    if added and "bổ sung" in verbs.lower() and "sửa" not in verbs.lower():
        stop = P.AS_FOLLOWS.search(after)
        new = after[: stop.start()] if stop else after
        return f"{verbs} {new.strip()} vào {subject} {after[len(new):].strip()}".strip()
    return f"{verbs} {subject} {after.strip()}".strip()


def _expiry(sentence: str, start: int, end: int) -> Instruction | None:
    """"Thông tư số 12/2010/TT-BYT … hết hiệu lực kể từ ngày …": the whole act is repealed from then."""
    act = P.ACT.match(sentence)
    if act is None or P.EXPIRES.match(sentence, act.end()) is None:
        return None
    return Instruction(action=Action.REPEAL, targets=[()], act=act_of(act, sentence), start=start, end=end,
                       raw=" ".join(sentence.split())[:300])


def _action(verbs: str, words: bool) -> tuple[Action, str | None]:
    if verbs.startswith("thay") or "thay thế" in verbs:
        return (Action.REPLACE_WORDS, "words") if words else (Action.REPLACE, None)
    if "bãi bỏ" in verbs or verbs == "bỏ":
        return Action.REPEAL, "words" if words else None
    if verbs.startswith("bổ sung") and "sửa" not in verbs:
        return (Action.AMEND, "words") if words else (Action.ADD, None)
    return Action.AMEND, "words" if words else None


def provision_paths(written: str) -> list[tuple[Segment, ...]]:
    """The provisions a phrase names, before any act it names ("khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT")."""
    act = P.ACT.search(written)
    return _paths(_tokens(written[: act.start()] if act else written))


def _tokens(region: str) -> list[tuple[str, str | None, bool]]:
    """(segment, number, title?) for each provision named, in the order written."""
    region = P.DASH.sub(" ", region)
    out: list[tuple[str, str | None, bool]] = []
    previous_end = -1
    for match in P.TOKEN.finditer(region):
        kind = _KINDS.get(" ".join(match.group("kind").lower().split()), "")
        num = match.group("num") or match.group("roman") or match.group("letter")
        title = bool(match.group("title"))
        if not kind or (num is None and not (title and kind == "art")):
            continue
        if num is not None and kind in ("ch", "annex") and match.group("letter"):
            continue
        if out and previous_end >= 0 and P.RANGE.fullmatch(region[previous_end: match.start()]):
            out += [(kind, n, False) for n in _between(out[-1], kind, num)]  # "Điều 10 đến Điều 14"
        out.append((kind, num, title))
        position = previous_end = match.end()
        while num is not None:
            more = P.MORE_NUMBERS.match(region, position)
            if more is None:
                break
            out.append((kind, more.group("num"), False))
            position = previous_end = more.end()
    return out


def _between(first: tuple[str, str | None, bool], kind: str, last: str | None) -> list[str]:
    """The numbers strictly between two of one kind ("từ Điều 10 đến Điều 14" → 11, 12, 13); a span too long to be
    meant is a misreading and gives none."""
    low, high = first[1], last
    if first[0] != kind or not (low and high and low.isdigit() and high.isdigit()) or not 0 < int(high) - int(low) <= _MAX_SPAN:
        return []
    return [str(n) for n in range(int(low) + 1, int(high))]


def _paths(tokens: list[tuple[str, str | None, bool]]) -> list[tuple[Segment, ...]]:
    """Tokens written finest first → one path per named unit; an elliptical one ("… Điều 7 và khoản 3",
    "tên Điều và khoản 7 Điều 39") takes what it lacks from the group after it, else the one before."""
    groups: list[list[dict[str, str | None]]] = []
    open_: list[dict[str, str | None]] = []
    level = top = ""
    for kind, num, _ in tokens:
        same_family = open_ and _FAMILY[kind] == _FAMILY[level]
        if same_family and _RANK[kind] < _RANK[top]:
            for path in open_:
                path[kind] = num
            top = kind
        elif same_family and kind == level == top:
            open_.append({kind: num})
        else:
            if open_:
                groups.append(open_)
            open_, level, top = [{kind: num}], kind, kind
    if open_:
        groups.append(open_)
    out: list[tuple[Segment, ...]] = []
    for index, group in enumerate(groups):
        neighbours = [*groups[index + 1:], *reversed(groups[:index])]
        for path in group:
            for needed in _needed(path):
                source = next((g[0] for g in neighbours if g[0].get(needed)), None)
                if source is not None and path.get(needed) is None:
                    path[needed] = source[needed]
            built = _segments(path)
            if built:
                out.append(built)
    return out


def _needed(path: dict[str, str | None]) -> list[str]:
    """The levels a path must borrow: those above its finest one, and a level named without its number ("tên Điều")."""
    finest = max(path, key=lambda k: _RANK[k])
    unnumbered = [k for k, v in path.items() if v is None]
    if _FAMILY[finest] == "b":
        return unnumbered + (["annex"] if finest == "form" else [])
    if finest == "sec":
        return [*unnumbered, "ch"]
    return unnumbered + [k for k in ("art", "cl") if _RANK[k] < _RANK[finest]]


def _segments(path: dict[str, str | None]) -> tuple[Segment, ...]:
    if any(path.get(k) for k in ("annex", "form")) or "form" in path or "annex" in path:
        return tuple((k, v) for k in ("annex", "form") if (v := path.get(k)))
    if path.get("art") or "art" in path:
        return tuple((k, v) for k in ("art", "cl", "pt") if (v := path.get(k))) if path.get("art") else ()
    return tuple((k, v) for k in ("ch", "sec", "cl", "pt") if (v := path.get(k)))


def _complete(path: tuple[Segment, ...], base: tuple[Segment, ...]) -> tuple[Segment, ...] | None:
    """A path that lacks its article (or annex) takes it, and its clause, from the base provision."""
    if not path:
        return path
    kinds = [k for k, _ in path]
    if kinds[0] in ("cl", "pt") or kinds[0] == "form":
        family = _FAMILY[kinds[0]]
        lead = [(k, v) for k, v in base if _FAMILY[k] == family and _RANK[k] < _RANK[kinds[0]]]
        if not lead and kinds[0] != "form":
            return None
        return (*lead, *path)
    return path


def _anchor(new: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """The existing unit a new one goes into or after: Điều 15 for a new Điều 15a, Điều 7 for khoản 3 of it."""
    if len(new) == 1 and new[0][0] == "art":
        letter = re.fullmatch(r"(\d+)[a-zđ]", new[0][1])
        return (("art", letter.group(1)),) if letter else ()
    return new[:-1]
