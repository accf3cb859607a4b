"""What kind of answer a question asks for (a deadline, required elements, a condition, who, an amount, a
definition), and whether a provision's text carries that kind of content. Read by patterns in English, Korean and
Vietnamese: the question's wording says what is asked more reliably than its topic words.
"""
from __future__ import annotations

import re
from enum import StrEnum


class Kind(StrEnum):
    DEADLINE = "deadline"
    LIST = "list"
    CONDITION = "condition"
    WHO = "who"
    AMOUNT = "amount"
    DEFINITION = "definition"


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I)


# Checked in this order: "how many days" is a deadline before it is an amount. No pattern echoes one dev
# question's wording or names one corpus's topic ("are we a … or a …", "is that still personal data", "charge me",
# "gọi là … hay", "말하는 건가요"): removed in issue 49, each had won its one question (bench/results/TRIED.md).
# Gains of each kind's question patterns, questions lost with the kind off (issue 49, bench.ablate; TRIED.md): deadline
# gdpr_user 5, vi_user 2, ko_user 1, ko_dev 1; list gdpr_user 4, ko_user 3, vi_user 2; amount vi_user 4, gdpr_user 1;
# definition gdpr_user 1, ko_user 1; who gdpr_user 2 (vi_user +1); condition gdpr_user 1, and the demo's research
# starter (fit.settle, fit.whole).
ASKS: dict[Kind, re.Pattern[str]] = {
    Kind.DEADLINE: _any(
        r"\bhow (?:soon|long|quickly|fast|many (?:days|hours|weeks|months|years))\b", r"\bby when\b",
        r"\b(?:deadline|time ?limit|time frame|timeframe|within what)\b", r"\bwhen (?:must|should|do|does|is) .{0,40}\bby\b",
        r"\bhow much time\b",
        r"언제까지", r"기한", r"며칠", r"기간", r"이내에?",
        r"얼마나 (?:지나|기다려|걸리|걸려|오래|있어야)", r"몇\s*(?:년|개월|달|주|시간)\s*(?:이내|안에|만에|동안|지나|뒤|후)",
        r"언제부터",
        r"bao lâu", r"thời hạn", r"bao nhiêu ngày", r"chậm nhất", r"khi nào phải", r"mấy (?:giờ|ngày|tuần|tháng|năm)\b",
        r"hạn chót"),
    Kind.LIST: _any(
        r"\bwhat (?:\w+ ){0,2}(?:elements|information|items|details|particulars|contents?|points|things|statements)\b",
        r"\bwhat (?:\w+ ){0,8}(?:contain|include|cover|state|specify|set out|list|go in|require)\b",
        r"\b(?:has|have|needs?) to go in\b", r"\bminimum content\b", r"\bwhich (?:information|details|elements)\b",
        r"기재\s*사항", r"포함(?:해야|되어야|하여야)", r"무엇을 (?:기재|포함)", r"어떤 (?:내용|사항|정보)",
        r"뭐뭐", r"(?:어떤|무슨) (?:게|것들?이|서류|일)", r"(?:뭐|무엇)가 있",
        r"những nội dung", r"nội dung (?:gì|nào|gồm)", r"bao gồm những", r"gồm những", r"những (?:thông tin|giấy tờ|tài liệu) (?:gì|nào)"),
    Kind.AMOUNT: _any(
        r"\bhow (?:much|many|big|high|large)\b", r"\bwhat(?:'s| is)? (?:the )?(?:maximum|minimum|amount|fine|penalty|fee|sum|"
        r"percentage|rate|threshold|limit|cap|age)\b", r"\bis there an? (?:\w+ )?(?:threshold|limit|cap|minimum|maximum)\b",
        r"얼마", r"금액", r"과태료", r"벌금", r"몇\s*(?:명|세|원|퍼센트|개|병상|살|배|%)",
        r"bao nhiêu", r"mức phạt", r"số tiền", r"mức (?:tối đa|tối thiểu)"),
    Kind.DEFINITION: _any(
        r"\bwhat (?:is|are|does) (?:meant by|an? |the )?.{0,40}\bmean\b", r"\bwhat counts as\b", r"\bdoes (?:that|this|it) (?:still )?count as\b",
        r"\bwhat (?:is|are) the definitions? of\b", r"\bhow (?:is|are) .{0,40}\bdefined\b", r"\bdefine\b",
        r"\bwhat qualifies as\b",
        r"(?:이)?란 무엇", r"의미", r"정의", r"뜻",
        r"là gì", r"được hiểu là", r"định nghĩa", r"nghĩa là", r"được (?:coi|xem|gọi) là", r"thế nào là"),
    Kind.WHO: _any(
        r"^\s*who\b", r"[.?!]\s*who\b", r"\bto whom\b", r"\bwhich (?:\w+ ){0,2}(?:authority|body|person|party|court|entity|organisation|organization)\b",
        r"\bwho (?:is|are|do|does|can|must|should|may)\b",
        r"누가", r"누구", r"주체",
        r"(?-i:\b[Aa]i\b)", r"cơ quan nào", r"người nào"),
    Kind.CONDITION: _any(
        r"^\s*(?:when|in what|under what|in which)\b", r"\b(?:is it|are we|am i|is that) (?:allowed|permitted|lawful|legal|ok|okay)\b",
        r"\b(?:can|may|could) (?:we|i|you|they|a|an|the|our|it|he|she)\b",
        r"\bdoes (?:it|he|she|that) (?:have|need) to\b",
        r"\b(?:exception|exempt|unless|circumstances|conditions)\b",
        r"경우", r"할 수 있(?:나요|습니까|는지)", r"가능(?:한가요|합니까|한지)", r"예외", r"허용",
        r"수 있(?:나요|습니까|을까요)", r"도 (?:되나요|될까요|돼요|되는지|괜찮)", r"괜찮(?:나요|을까요|은가요)",
        r"trường hợp nào", r"khi nào", r"có được", r"được phép", r"điều kiện", r"ngoại lệ"),
}

# Of the texts that carry a list, those that say what something must contain ("shall contain at least:", "the
# following information:"), rather than introduce a list of cases or conditions ("required in the case of:",
# "if any of the following conditions are met:"): a question after required elements is answered by these.
ELEMENTS = _any(
    r"\b(?:contains?|includes?|specify|specifies|set out|sets out|states?|describe|describes) (?:at (?:the )?least|as a minimum)\b",
    r"\b(?:shall|must) (?:at least )?(?:contain|include|specify|set out)\b",
    r"\bthe following (?:information|particulars|elements|details|items|contents?|matters)\b",
    r"\bminimum (?:content|information|particulars)\b",
    r"사항을 포함", r"포함(?:되어야|하여야)", r"기재하여야", r"기재사항",
    r"(?:gồm|bao gồm) (?:các|những) nội dung", r"(?:các|những) nội dung (?:chủ yếu|cơ bản|sau)")

_NUMBER_WORDS = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|"
                 r"sixty|ninety)")
CARRIES: dict[Kind, re.Pattern[str]] = {
    Kind.DEADLINE: _any(
        rf"\b{_NUMBER_WORDS}(?:-| )(?:calendar |business |working |clear )?(?:days?|hours?|weeks?|months?|years?)\b",
        r"\bwithout (?:undue|unreasonable) delay\b", r"\bno later than\b", r"\bnot later than\b", r"\bpromptly\b",
        r"\bimmediately\b", r"\bbefore the (?:end|expiry)\b", r"\bat the latest\b",
        r"\d+\s*(?:일|시간|개월|년|주)\s*(?:이내|전|까지|내)", r"지체\s*없이", r"즉시",
        r"\d+\s*(?:ngày|giờ|tháng|năm)", r"chậm nhất", r"ngay sau khi", r"trong thời hạn"),
    Kind.LIST: _any(
        ELEMENTS.pattern, r"\bthe following\b", r"[:—–]\s*$", r"\b(?:shall|must) (?:contain|include|specify|set out|state)\b",
        r"다음 각 호", r"다음의 사항", r"다음 사항",
        r"sau đây", r"bao gồm[:]", r"gồm[:]", r"các nội dung"),
    Kind.CONDITION: _any(
        r"\bunless\b", r"\bexcept\b", r"\bprovided that\b", r"\bonly (?:if|where|when)\b", r"\bon condition\b",
        r"\bsubject to\b", r"\bshall not apply\b", r"\bdoes not apply\b", r"\b(?:where|if|when)\b.{0,200}\bmay\b",
        r"\bmay\b.{0,120}\bwithout\b", r"\bpermitted\b", r"\bin any case where\b", r"\bone of the following\b",
        r"경우", r"다만", r"제외", r"예외", r"할 수 있다",
        r"trường hợp", r"\btrừ\b", r"\bnếu\b", r"được phép", r"không áp dụng"),
    # The words that designate, not an authority's name: a paragraph with "the supervisory authority" or "the court"
    # as its subject says what that body does, not which body it is.
    Kind.WHO: _any(
        r"\b(?:responsible|liable|competent|designat\w+|appoint\w*|entitled|right to)\b", r"\bshall be (?:carried out|performed) by\b",
        r"책임", r"권한", r"지정", r"담당",
        r"(?:자|사람|기관|법인|단체)(?:가|이) 아니면", r"해당하는 (?:자|사람|기관)",
        r"에게 (?:신고|보고|통보|제출|신청|제공|알려)",
        r"chịu trách nhiệm", r"có thẩm quyền", r"có quyền"),
    Kind.AMOUNT: _any(
        r"\d[\d,.]*\s*(?:%|per ?cent|percent|eur\b|euros?\b|dollars?\b|usd\b)", r"[$€£]\s?\d", r"\bup to\b", r"\bmaximum\b",
        r"\bminimum\b", r"\bnot (?:exceed|exceeding|more than|less than)\b", r"\bat least \d",
        r"\d[\d,]*\s*원", r"만\s*원", r"이하의", r"이상의",
        r"\d[\d.]*\s*(?:đồng|%)", r"tối đa", r"tối thiểu", r"không quá", r"\d+\s*tuổi"),
    Kind.DEFINITION: _any(
        r"\bmeans\b", r"\bshall mean\b", r"\bis defined\b", r"\brefers to\b", r"\bfor the purposes? of this\b",
        r"(?:이)?란\s", r"말한다", r"를 말한다",
        r"được hiểu là", r"là việc"),
}
SANCTION_ASKED = _any(r"처벌", r"벌금", r"과태료", r"벌칙", r"징역", r"제재", r"불이익", r"\bpenalt", r"\bfines?\b",
                      r"\bfined\b", r"\bsanction", r"\bpunish", r"\bprison", r"\boffen[cs]e", r"\bcriminal",
                      r"phạt", r"\btù\b", r"chế tài", r"truy cứu", r"xử lý")
# A provision's text that sets a sanction (the lead-in of a penalty list, a penalty article): narrower than a
# question's SANCTION_ASKED, whose "xử lý" or "offence" a provision writes about many other things.
SANCTION_STATED = _any(r"\bfines?\b", r"\bpenalt(?:y|ies)\b", r"\bimprisonment\b", r"벌금", r"과태료", r"징역",
                       r"phạt tiền", r"phạt cảnh cáo", r"phạt tù")
_ORDER = (Kind.DEADLINE, Kind.LIST, Kind.AMOUNT, Kind.DEFINITION, Kind.WHO, Kind.CONDITION)


def asked_kind(question: str) -> Kind | None:
    """The first kind whose wording the question uses; None when it asks nothing of these kinds."""
    return next((kind for kind in _ORDER if ASKS[kind].search(question)), None)


_ENUMERATES = _any(r"^\s*(?:when|in what|under what|in which)\b", r"\bwhat (?:are the )?(?:cases|circumstances|conditions)\b",
                   r"어떤 경우", r"trường hợp nào", r"những trường hợp")


def enumerates(question: str) -> bool:
    """Whether the question asks for every case of a rule ("When may …?") rather than whether one case fits."""
    return bool(_ENUMERATES.search(question))


def asks_sanction(question: str) -> bool:
    """Whether the question asks about a penalty, a fine or another sanction."""
    return bool(SANCTION_ASKED.search(question))


def lists_elements(text: str) -> bool:
    """Whether the text says what something must contain (ELEMENTS), not only that a list follows."""
    return bool(ELEMENTS.search(text))


def carries(kind: Kind | None, text: str) -> bool:
    """Whether the text holds the kind of content asked for (a lead-in's items count for a list)."""
    return kind is not None and bool(CARRIES[kind].search(text))


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
