"""Verbatim quotes of a cited unit: its sentences that match the question, and the items under a lead-in."""
from __future__ import annotations

import re

from core.answer.models import Claim
from core.answer.selection import Scorer
from core.stores.queries import UnitRecord

# A sentence ends at . ; or : followed by space and an upper-case letter, an opening bracket or a digit, or at a line break.
_SENTENCE = re.compile(r"[^\n]+?(?:[.;:](?=\s+[A-Z(0-9\"“])|[.;:]?(?=\n)|$)", re.S)
_MARK = re.compile(r"^\s*(\((?:[a-z]{1,4}|[0-9]{1,3}|[ivx]{1,6})\)|[0-9]{1,3}\.(?=\s)|[a-zđ]\)(?=\s))")
_LEAD_IN_END = (":", "—", "–", "--", ":-")
MIN_SENTENCE_CHARS = 25
# An item is quoted up to about this many characters (whole sentences; at least its first one).
ITEM_CHARS = 320
MAX_ITEMS = 12


def sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(text):
        start, end = match.start(), match.end()
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
    return _run_in_heads_joined(text, spans)


def _run_in_heads_joined(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A short head ending in a colon that its sentence runs on from, on the same line ("d) Loại T13 (13+): Phim được
    phổ biến …", "(a) Timing: The notice …"), is that sentence's start: quoted alone it is too short to be chosen,
    and the quote would lose the name the question asks about."""
    out: list[tuple[int, int]] = []
    for span in spans:
        if out and _is_run_in_head(text, out[-1]) and "\n" not in text[out[-1][1]:span[0]]:
            out[-1] = (out[-1][0], span[1])
        else:
            out.append(span)
    return out


def _is_run_in_head(text: str, span: tuple[int, int]) -> bool:
    return span[1] - span[0] < MIN_SENTENCE_CHARS and text[span[1] - 1] == ":"


def is_lead_in(text: str) -> bool:
    """Text that introduces a list ("… must:", "… the following —") and says nothing without its items."""
    return text.rstrip().endswith(_LEAD_IN_END)


def _claim(text: str, span: tuple[int, int], unit_id: str | None = None, paragraph: str | None = None) -> Claim:
    sentence = text[span[0]:span[1]]
    mark = _MARK.match(sentence)
    return Claim(text=sentence, span=span, unit_id=unit_id,
                 paragraph=paragraph or (mark.group(1) if mark else None))


def choose_claims(text: str, scorer: Scorer, *, limit: int = 2) -> list[Claim]:
    """Verbatim sentences of the unit, best match first; the first sentence when none matches.
    A lead-in's last sentence (the one ending with ":") is always kept: the items quoted after it hang on it."""
    spans = [s for s in sentence_spans(text) if s[1] - s[0] >= MIN_SENTENCE_CHARS] or sentence_spans(text)
    if not spans:
        return []
    ranked = sorted(spans, key=lambda s: (-scorer.score(text[s[0]:s[1]]), s[0]))
    picked = [s for s in ranked[:limit] if scorer.score(text[s[0]:s[1]]) > 0] or ranked[:1]
    every = sentence_spans(text)
    if is_lead_in(text):
        picked = [s for s in picked if s != every[-1]][: limit - 1] + [every[-1]]
    return [_claim(text, span) for span in sorted(set(picked) | _lead_ins_of(text, picked, every))]


def lead_in_claim(lead: UnitRecord) -> Claim | None:
    """The sentence of a rule that its cited case hangs on ("… shall designate a data protection officer in any
    case where:"), quoted from the rule's own text."""
    spans = sentence_spans(lead.text)
    return _claim(lead.text, spans[-1], lead.id) if spans else None


def _lead_ins_of(text: str, picked: list[tuple[int, int]], every: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """For a quoted item written inline ("(1) an application form …"), the sentence it hangs on ("… must ensure that:")."""
    out: set[tuple[int, int]] = set()
    for span in picked:
        if not _MARK.match(text[span[0]:span[1]]):
            continue
        before = [s for s in every if s[1] <= span[0] and is_lead_in(text[s[0]:s[1]])]
        if before:
            out.add(before[-1])
    return out


def _paragraph_of(item: UnitRecord, parent: UnitRecord) -> str | None:
    """The item's own mark: its label past the parent's ("45 CFR 164.504(e)(2)(i)" under "(e)(2)" → "(i)")."""
    if parent.label and item.label.startswith(parent.label) and len(item.label) > len(parent.label):
        return item.label[len(parent.label):].strip() or None
    return None


def item_claim(item: UnitRecord, parent: UnitRecord) -> Claim | None:
    """The item's opening sentences, verbatim, up to ITEM_CHARS; its span is in the item's own text."""
    spans = sentence_spans(item.text)
    if not spans:
        return None
    end = spans[0][1]
    for start_end in spans[1:]:
        if start_end[1] - spans[0][0] > ITEM_CHARS:
            break
        end = start_end[1]
    return _claim(item.text, (spans[0][0], end), item.id, _paragraph_of(item, parent))


def item_claims(parent: UnitRecord, items: dict[str, list[UnitRecord]], *, limit: int = MAX_ITEMS) -> list[Claim]:
    """The items under `parent` in order, each followed by its own items when it is a lead-in too (two levels)."""
    out: list[Claim] = []
    for item in items.get(parent.id, []):
        if len(out) >= limit:
            break
        claim = item_claim(item, parent)
        if claim is None:
            continue
        out.append(claim)
        for sub in items.get(item.id, []) if is_lead_in(item.text) else []:
            if len(out) >= limit:
                break
            sub_claim = item_claim(sub, parent)
            if sub_claim is not None:
                out.append(sub_claim)
    return out
