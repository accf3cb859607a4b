"""What kind of answer a question asks for (a deadline, required elements, who, an amount, a definition, a
condition), and whether a provision's text carries that kind of content. Read by patterns in English, Korean and
Vietnamese: the question's wording says what is asked more reliably than its topic words.
"""
from __future__ import annotations

import re
from enum import StrEnum


class Kind(StrEnum):
    DEADLINE = "deadline"
    LIST = "list"
    AMOUNT = "amount"
    DEFINITION = "definition"
    WHO = "who"
    CONDITION = "condition"


_PARTS: dict[str, tuple[str, ...]] = {}


def _any(*patterns: str) -> re.Pattern[str]:
    compiled = re.compile("|".join(f"(?:{p})" for p in patterns), re.I)
    _PARTS[compiled.pattern] = patterns
    return compiled


def parts(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """The alternatives a pattern of this module was built from (`bench.patterns` takes each out in turn)."""
    return _PARTS[pattern.pattern]


# Every pattern here is kept for its measured gain, written beside it, as `python -m bench.patterns` measures it
# over every `make answers` set (738 questions, three languages; bench/results/patterns.json): what the dev sets
# lose without it (the sum over a set's questions of the change in citation P + R; one question cited right then
# wrong is -2), or, for a deadline or an amount, how many short answers read otherwise without it ("reworded": they
# open with the words that state it, asked_content). Each of the 226 patterns this module held before was taken
# out in turn; one was removed when no set lost and no answer asking for a deadline or an amount read otherwise
# without it, unless a test of a capability fails without it (named beside it; bench/results/TRIED.md, "The
# question-kind patterns, one by one"). Checked in this order: "how many days" is a deadline before it is an
# amount.
ASKS: dict[Kind, re.Pattern[str]] = {
    Kind.DEADLINE: _any(
        r"\bhow (?:soon|long|quickly|fast|many (?:days|hours|weeks|months|years))\b",  # gdpr_user -6.5
        r"\bby when\b",  # gdpr_user -2
        r"언제까지",  # ko_dev -1, ko_user +1.5
        r"얼마나 (?:지나|기다려|걸리|걸려|오래|있어야)",  # reworded: ko_user 2, ko_dev 1
        r"bao lâu",  # vi_user -2
        r"bao nhiêu ngày",  # reworded: vi_user 3, vi_off_topic 1
        r"mấy (?:giờ|ngày|tuần|tháng|năm)\b"),  # vi_user -4
    Kind.LIST: _any(
        r"\bwhat (?:\w+ ){0,2}(?:elements|information|items|details|particulars|contents?|points|things|statements)\b",
        # ^ gdpr_user -1.5
        r"\bwhat (?:\w+ ){0,8}(?:contain|include|cover|state|specify|set out|list|go in|require)\b",  # gdpr_user -2
        r"\bminimum content\b",  # gdpr_user -2
        r"(?:어떤|무슨) (?:게|것들?이|서류|일)",  # ko_user -1.5
        r"những nội dung",  # vi_user -2
        r"những (?:thông tin|giấy tờ|tài liệu) (?:gì|nào)"),  # vi_user -2
    Kind.AMOUNT: _any(
        r"\bhow (?:much|many|big|high|large)\b",  # reworded: gdpr_user 1
        r"\bwhat(?:'s| is)? (?:the )?(?:maximum|minimum|amount|fine|penalty|fee|sum|percentage|rate|threshold|limit|"
        r"cap|age)\b",  # reworded: gdpr_user 1, obliqa150 1
        r"\bis there an? (?:\w+ )?(?:threshold|limit|cap|minimum|maximum)\b",  # reworded: gdpr_user 1, gdpr_off_topic 1
        r"몇\s*(?:명|세|원|퍼센트|개|병상|살|배|%)",  # reworded: ko_user 2, ko_dev 1
        r"bao nhiêu"),  # vi_user -4.5
    Kind.DEFINITION: _any(r"뜻"),  # ko_user -2
    Kind.WHO: _any(
        r"\bwhich (?:\w+ ){0,2}(?:authority|body|person|party|court|entity|organisation|organization)\b"),  # gdpr -3.5
    # A permission asked ("Can we give … without asking?") is answered by the rule with its conditions (fit.whole,
    # fit.settle): tests/test_answer_starters.py's paraphrased research question fails without it; no set moves.
    # Not "could": "could we face" asks what may befall, not what is allowed (tests/test_answer_sanctions.py).
    Kind.CONDITION: _any(r"\b(?:can|may) (?:we|i|you|they|a|an|the|our|it|he|she)\b"),
}

# Of the texts that carry a list, those that say what something must contain ("shall contain at least:"), rather
# than introduce a list of cases or conditions ("required in the case of:"): a question after required elements
# is answered by these.
ELEMENTS = _any(
    r"\b(?:contains?|includes?|specify|specifies|set out|sets out|states?|describe|describes) "
    r"(?:at (?:the )?least|as a minimum)\b")  # gdpr_user -4 (in CARRIES' list: -2)

_NUMBER_WORDS = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|"
                 r"sixty|ninety)")
CARRIES: dict[Kind, re.Pattern[str]] = {
    Kind.DEADLINE: _any(
        rf"\b{_NUMBER_WORDS}(?:-| )(?:calendar |business |working |clear )?(?:days?|hours?|weeks?|months?|years?)\b",
        # ^ gdpr_user -2.5
        r"\bwithout (?:undue|unreasonable) delay\b",  # gdpr_user -2
        r"\bat the latest\b",  # gdpr_user -2
        r"\bnot later than\b",  # reworded: hipaa_demo_user 2
        r"\d+\s*(?:일|시간|개월|년|주)\s*(?:이내|전|까지|내)",  # ko_dev -1, ko_user +1.5
        r"즉시",  # reworded: ko_user 1, ko_dev 1
        r"\d+\s*(?:ngày|giờ|tháng|năm)",  # vi_user -6
        r"chậm nhất",  # reworded: vi_user 1
        r"trong thời hạn"),  # reworded: vi_user 2, vi_off_topic 1
    Kind.LIST: _any(ELEMENTS.pattern, r"다음 각 호"),  # ko_user -1.5
    # The words that designate, not an authority's name: a paragraph with "the supervisory authority" or "the court"
    # as its subject says what that body does, not which body it is.
    Kind.WHO: _any(r"\b(?:responsible|liable|competent|designat\w+|appoint\w*|entitled|right to)\b"),  # gdpr -3.5
    # What settles a permission's rule among its siblings (fit.settle; the same test as Kind.CONDITION's pattern).
    Kind.CONDITION: _any(r"\bprovided that\b"),
    Kind.AMOUNT: _any(
        r"\bup to\b",  # reworded: gdpr_user 2
        r"이상의",  # reworded: ko_user 2, ko_dev 1
        r"\d[\d.]*\s*(?:đồng|%)",  # vi_user -2
        r"\d+\s*tuổi"),  # vi_user -2.5
}  # No wording marks a definition's text as carrying one: no set lost without "means" or "말한다".
# "phạt", "phạt tiền": tests/test_answer_sanctions.py's Vietnamese fines fail without them.
SANCTION_ASKED = _any(r"과태료", r"\bfines?\b", r"phạt")  # ko_user -2, gdpr_user -4
# A provision's text that sets a sanction (the lead-in of a penalty list, a penalty article).
SANCTION_STATED = _any(r"\bfines?\b", r"과태료", r"phạt tiền")  # gdpr_user -4, ko_user -2
_ORDER = (Kind.DEADLINE, Kind.LIST, Kind.AMOUNT, Kind.DEFINITION, Kind.WHO, Kind.CONDITION)


def asked_kind(question: str) -> Kind | None:
    """The first kind whose wording the question uses; None when it asks nothing of these kinds."""
    return next((kind for kind in _ORDER if ASKS[kind].search(question)), None)


def asks_sanction(question: str) -> bool:
    """Whether the question asks about a penalty, a fine or another sanction."""
    return bool(SANCTION_ASKED.search(question))


def lists_elements(text: str) -> bool:
    """Whether the text says what something must contain (ELEMENTS), not only that a list follows."""
    return bool(ELEMENTS.search(text))


def carries(kind: Kind | None, text: str) -> bool:
    """Whether the text holds the kind of content asked for (a lead-in's items count for a list)."""
    return kind in CARRIES and bool(CARRIES[kind].search(text))


# A clause stops at these: the stated content is quoted up to the end of its clause.
_CLAUSE_END = re.compile(r"[.;:](?:\s|$)|\n")
STATED_CHARS = 160


def asked_content(kind: Kind | None, text: str) -> str | None:
    """The verbatim words of `text` that state an asked-for deadline or amount, from the first such expression
    to the end of its clause (at most STATED_CHARS, cut at a word)."""
    if kind not in (Kind.DEADLINE, Kind.AMOUNT):
        return None
    found = CARRIES[kind].search(text)
    if found is None:
        return None
    end = _CLAUSE_END.search(text, found.end())
    stated = text[found.start(): end.start() if end else len(text)].strip(" ,")
    if len(stated) > STATED_CHARS:
        stated = stated[:STATED_CHARS].rsplit(" ", 1)[0].rstrip(" ,") + " …"
    return stated
