"""The extractive answer's short answer and caveats, worded in the corpus's language.

The short answer reads as an answer: "Under MIR 3.8.1, a Recognised Body must …", the items of a lead-in run
on after it, and a second rule is joined with what it adds. It is built from the claims only (verbatim
sentences), so it never says more than the rules quoted below it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from core.analyzers.script import language_of_text
from core.answer.asked import Kind, asked_content
from core.answer.models import Claim, RuleClaims

ANSWER_CHARS = 600
# English sentences that open with one of these read on after "Under X, " in lower case.
_MARKS = re.compile(r"\([^()]{1,6}\)")
_LOWER_OPENERS = frozenset("a an the each every any no if where when unless except in for to on subject".split())


@dataclass(frozen=True)
class Wording:
    under: str  # "Under {label}, " — {label} is the rule's label
    adds: str  # joins a second rule: "; {label} adds: "
    items_more: str  # "(and {n} more items)"
    nothing: str
    missing: str  # {terms}
    lower_first: bool
    empty: str  # the search found nothing to quote
    abstain: str = ""  # {terms}: the question's words no cited text has; {labels}: the closest provisions
    abstain_plain: str = ""  # the same without terms


WORDINGS = {
    "en": Wording("Under {label}, ", " {label} adds: ", " (and {n} more items)",
                  "No provision in the corpus matched the question.",
                  "The cited text does not mention: {terms}.", True, "The search returned nothing to quote.",
                  "The corpus does not cover this: no ingested provision says anything about {terms}. "
                  "Closest provisions, listed for you to check and not as an answer: {labels}.",
                  "The corpus does not cover this: no ingested provision answers the question. "
                  "Closest provisions, listed for you to check and not as an answer: {labels}."),
    "vi": Wording("Theo {label}: ", " {label} quy định thêm: ", " (và {n} điểm khác)",
                  "Không tìm thấy điều khoản nào phù hợp với câu hỏi.",
                  "Văn bản được trích không đề cập: {terms}.", False,
                  "Tìm kiếm không trả về điều khoản nào để trích dẫn.",
                  "Văn bản đã nạp không điều chỉnh vấn đề này: không điều khoản nào quy định về {terms}. "
                  "Các điều khoản gần nhất, chỉ để tham khảo, không phải câu trả lời: {labels}.",
                  "Văn bản đã nạp không điều chỉnh vấn đề này: không điều khoản nào trả lời câu hỏi. "
                  "Các điều khoản gần nhất, chỉ để tham khảo, không phải câu trả lời: {labels}."),
    "ko": Wording("{label}에 따르면, ", " {label}에서는: ", " (외 {n}개 항목)",
                  "질문에 맞는 조항을 찾지 못했습니다.",
                  "인용된 조문에 다음 내용이 없습니다: {terms}.", False, "검색 결과에서 인용할 조문을 찾지 못했습니다.",
                  "수집된 법령은 이 내용을 다루지 않습니다: {terms}에 관한 규정이 없습니다. "
                  "참고로 가장 가까운 조문(답변 아님): {labels}.",
                  "수집된 법령은 이 내용을 다루지 않습니다: 질문에 답하는 규정이 없습니다. "
                  "참고로 가장 가까운 조문(답변 아님): {labels}."),
}


def wording_for(rules: list[RuleClaims], question: str) -> Wording:
    sample = " ".join(c.text for r in rules for c in r.claims) or question
    return WORDINGS[language_of_text(sample)]


def _opening(label: str, sentence: str, wording: Wording) -> str:
    """"Under X, a firm must …" when the sentence reads on in lower case, else "Under X: Notwithstanding …"."""
    lead = wording.under.format(label=label)
    first = sentence.split(" ", 1)[0]
    if wording.lower_first and first.lower() in _LOWER_OPENERS and first[:1].isupper():
        return lead + sentence[0].lower() + sentence[1:]
    return (lead.rstrip(", ") + ": " if wording.lower_first else lead) + sentence


def _item(claim: Claim) -> str:
    """An item as listed in the short answer: its mark (unless its text opens with it) and its text."""
    text = claim.text.rstrip(" ;,.")
    marks = _MARKS.findall(claim.paragraph or "")
    if marks and not text.startswith(marks[-1]):
        text = f"{claim.paragraph} {text}"
    return text


def _rule_text(rule: RuleClaims, wording: Wording, item_limit: int) -> str:
    # A case quoted under its rule's lead-in (extractive.py puts that sentence of another unit first) reads after it:
    # "Infringements of the following … fines up to 20 000 000 EUR …: (a) the basic principles for processing …".
    first_own = next((i for i, c in enumerate(rule.claims) if c.unit_id is None), 0)
    leads, claims = [c.text for c in rule.claims[:first_own]], rule.claims[first_own:]
    own = [c.text for c in claims if c.unit_id is None]
    items = [c for c in claims if c.unit_id is not None]
    if items and own:
        own = own[-1:]  # the lead-in sentence the items hang on
    text = " ".join(leads[-1:] + own)
    if not items and text.endswith((";", ",")):  # a case of a list ends as the list goes on
        text = text[:-1] + "."
    if items:
        shown = items[:item_limit]
        text = f"{text} {'; '.join(_item(c) for c in shown)}".strip()
        text += wording.items_more.format(n=len(items) - len(shown)) if len(items) > len(shown) else "."
    return text


def short_answer(rules: list[RuleClaims], question: str, item_limit: int = 4, kind: Kind | None = None) -> str:
    """With a deadline or an amount asked for, the words of the first rule that state it lead ("Without
    unreasonable delay and in no case later than 60 calendar days …: 45 CFR 164.404(b)."), then the rule."""
    wording = wording_for(rules, question)
    if not rules:
        return wording.nothing
    first, *rest = rules
    text = _opening(first.label, _rule_text(first, wording, item_limit), wording)
    stated = next((s for c in first.claims if (s := asked_content(kind, c.text))), None)
    if stated:
        text = f"{stated[0].upper()}{stated[1:]}: {first.label}. {text}"
    for rule in rest[:1]:
        text += wording.adds.format(label=rule.label) + _rule_text(rule, wording, item_limit)
    return text if len(text) <= ANSWER_CHARS else text[: ANSWER_CHARS - 1].rstrip() + "…"


def missing_caveat(rules: list[RuleClaims], question: str, words: list[str]) -> str:
    return wording_for(rules, question).missing.format(terms=", ".join(f"“{w}”" for w in words))


def abstain_answer(rules: list[RuleClaims], question: str, missing: list[str]) -> str:
    """No provision found answers the question: that first, then the closest, for the user to check."""
    wording = wording_for(rules, question)
    labels = ", ".join(r.label for r in rules)
    if missing:
        return wording.abstain.format(terms=", ".join(f"“{w}”" for w in missing), labels=labels)
    return wording.abstain_plain.format(labels=labels)


def empty_caveat(question: str) -> str:
    return WORDINGS[language_of_text(question)].empty
