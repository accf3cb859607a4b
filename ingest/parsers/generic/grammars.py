"""Heading grammars as data: which line starts which kind of legal unit, per drafting tradition.

A grammar is an ordered list of levels. `rank` orders nesting (a heading closes every open unit of
the same or a deeper rank); levels of one rank are alternatives (an English provision can be called
Article, Rule or Clause). Every pattern is matched against one stripped line with `fullmatch` and
names its groups `num`, and optionally `title` and `rest`; quantifiers are bounded.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from core.domain import LegalUnit, UnitType
from ingest.parsers.generic import korean, vi_codification, vi_gazette
from ingest.parsers.generic.vi_codification import CODIFIED_ARTICLE


class Scope(StrEnum):
    """Where a unit's key and label start from."""

    FRESH = "fresh"  # "Article 15": addressed on its own within the document
    PARENT = "parent"  # "(3)" in "Article 15(3)": extends its parent's address
    ANCESTOR = "ancestor"  # "1.1": extends the nearest FRESH ancestor, skipping the "1." it sits under


@dataclass(frozen=True)
class Level:
    name: str
    rank: int
    unit_type: UnitType
    segment: str  # id and key segment: art, cl, pt …
    patterns: tuple[re.Pattern[str], ...]
    label: str  # standalone label, "{num}" filled in: "Article {num}"
    suffix: str = ""  # appended to the parent's label when scope is not FRESH: "({num})"
    scope: Scope = Scope.FRESH
    # Worded headings ("Article 5", "Điều 5", "제5조") identify a grammar; bare numbering does not.
    distinctive: bool = True
    # The number sequence this level counts in, to tell "(i)" the letter from "(i)" the roman numeral.
    sequence: str = "arabic"
    # An annex or a form: what follows it (a contract template's own "Điều 1", a form's "6. Vốn điều lệ")
    # is its content, not the document's articles, until the next annex or form.
    appendix: bool = False


@dataclass(frozen=True)
class Grammar:
    code: str  # "en", "vi", "ko"
    language: str
    levels: tuple[Level, ...]
    # Joins the document's short name and a unit label: "Circular 30/2024 Article 5".
    label_joiner: str = " "
    # Reads what the parsed units say about themselves (tier, amendment history, repeal) into them.
    annotate: Callable[[list[LegalUnit]], None] | None = None
    # Amending texts quote whole provisions after "replaced by the following:"; quoted lines are
    # words of the amended act, never headings of this one (see quotes.py).
    quotations: bool = False
    # Says whether a worded heading may start on this line given the line before it: a line that starts
    # with "Điều 16," only because the sentence above wrapped is not a heading.
    may_open: Callable[[str, str], bool] | None = None
    # The words an amending item starts with ("Sửa đổi …", "Bãi bỏ …"): such an item continuing this
    # document's numbering ends a quotation its publisher left open.
    instruction: re.Pattern[str] | None = None
    # A line (other than one ending in ':') after which a quotation opens: an amending item.
    introduces_quote: Callable[[str], bool] | None = None


def _line(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# "Article 15", "Article 15. Title", "Article 15 - Title", "ARTICLE 15: TITLE"; a line that goes on
# with lower-case prose ("Article 15 of Circular 30 applies") is a sentence, not a heading.
_EN_TAIL = r"(?:\s*[.:\-–—]\s*(?P<title>[^\n]{0,300})|\s+(?P<rest>[A-Z(\"“][^\n]{0,300}))?"
_ROMAN = r"[IVXLCDM]{1,8}"
_ROMAN_LOWER = r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}|xiv|xvi{0,3}|xix|xx)"
_EN_NUM = r"\d{1,4}[A-Za-z]?(?:\.\d{1,4}){0,5}"

ENGLISH = Grammar(
    code="en",
    language="English",
    levels=(
        Level("part", 0, UnitType.PART, "part",
              (_line(rf"PART\s+(?P<num>{_ROMAN}|\d{{1,3}}[A-Z]?){_EN_TAIL}", re.I),), "Part {num}"),
        Level("chapter", 1, UnitType.CHAPTER, "ch",
              (_line(rf"CHAPTER\s+(?P<num>{_ROMAN}|\d{{1,3}}[A-Z]?){_EN_TAIL}", re.I),), "Chapter {num}"),
        Level("section", 2, UnitType.SECTION, "sec",
              (_line(rf"(?:SECTION|§)\s*(?P<num>{_EN_NUM}){_EN_TAIL}", re.I),), "Section {num}"),
        Level("article", 3, UnitType.ARTICLE, "art",
              (_line(rf"ARTICLE\s+(?P<num>{_EN_NUM}|{_ROMAN}){_EN_TAIL}", re.I),), "Article {num}"),
        Level("rule", 3, UnitType.RULE, "rule",
              (_line(rf"RULE\s+(?P<num>{_EN_NUM}){_EN_TAIL}", re.I),), "Rule {num}"),
        Level("clause", 4, UnitType.CLAUSE, "cl",
              (_line(rf"(?:CLAUSE|PARAGRAPH)\s+(?P<num>\d{{1,3}}[A-Za-z]?){_EN_TAIL}", re.I),
               _line(r"(?P<num>\d{1,3})\.\s+(?P<rest>[^\n]{1,100000})"),
               _line(r"\((?P<num>\d{1,3})\)\s*(?P<rest>[^\n]{0,100000})")),
              "Clause {num}", "({num})", Scope.PARENT, distinctive=False),
        Level("subclause", 5, UnitType.CLAUSE, "cl",
              (_line(r"(?P<num>\d{1,3}(?:\.\d{1,3}){1,4})\.?\s+(?P<rest>[^\n]{1,100000})"),),
              "Clause {num}", " clause {num}", Scope.ANCESTOR, distinctive=False, sequence="dotted"),
        Level("point", 6, UnitType.POINT, "pt",
              (_line(r"\((?P<num>[a-z]{1,2})\)\s*(?P<rest>[^\n]{0,100000})"),
               _line(r"(?P<num>[a-z])\)\s+(?P<rest>[^\n]{1,100000})")),
              "({num})", "({num})", Scope.PARENT, distinctive=False, sequence="alpha"),
        Level("subpoint", 7, UnitType.POINT, "sp",
              (_line(rf"\((?P<num>{_ROMAN_LOWER})\)\s*(?P<rest>[^\n]{{0,100000}})"),),
              "({num})", "({num})", Scope.PARENT, distinctive=False, sequence="roman"),
        # "(A)": the fourth level of a US CFR paragraph, 217.20(c)(1)(v)(A).
        Level("subsubpoint", 8, UnitType.POINT, "ssp",
              (_line(r"\((?P<num>[A-Z]{1,2})\)\s+(?P<rest>[^\n]{1,100000})"),),
              "({num})", "({num})", Scope.PARENT, distinctive=False, sequence="upper"),
    ),
)

# Vietnamese legal drafting (Law on Promulgation of Legal Documents): Phần > Chương > Mục > Điều >
# Khoản "1." > Điểm "a)".
_VI_TAIL = r"(?:\s*[.:\-–—]\s*(?P<title>[^\n]{0,300}))?"
VIETNAMESE = Grammar(
    code="vi",
    language="Vietnamese",
    levels=(
        Level("part", 0, UnitType.PART, "part",
              (_line(rf"PHẦN\s+(?P<num>THỨ\s+\w{{1,12}}|{_ROMAN}|\d{{1,3}}){_VI_TAIL}", re.I),), "Phần {num}"),
        Level("chapter", 1, UnitType.CHAPTER, "ch",
              (_line(rf"CHƯƠNG\s+(?P<num>{_ROMAN}|\d{{1,3}}){_VI_TAIL}", re.I),), "Chương {num}"),
        Level("section", 2, UnitType.SECTION, "sec",
              (_line(rf"MỤC\s+(?P<num>\d{{1,3}}){_VI_TAIL}", re.I),), "Mục {num}", " mục {num}", Scope.PARENT),
        Level("article", 3, UnitType.ARTICLE, "art",
              (CODIFIED_ARTICLE, _line(rf"Điều\s+(?P<num>\d{{1,4}}[a-zđ]?){_VI_TAIL}")), "Điều {num}"),
        Level("clause", 4, UnitType.CLAUSE, "cl",
              (_line(r"(?P<num>\d{1,3})\.\s+(?P<rest>[^\n]{1,100000})"),),
              "Khoản {num}", " khoản {num}", Scope.PARENT, distinctive=False),
        Level("point", 5, UnitType.POINT, "pt",
              (_line(r"(?P<num>[a-zđ])\)\s*(?P<rest>[^\n]{0,100000})"),),
              "Điểm {num}", " điểm {num}", Scope.PARENT, distinctive=False, sequence="alpha"),
        # "Phụ lục I", "PHỤ LỤC 02: …", "Mẫu số 01", "Mẫu số 01. Mẫu Giấy phép": alone on their line or with a
        # title after a mark; "Phụ lục I ban hành kèm theo …" is a sentence that wrapped.
        Level("annex", 0, UnitType.ANNEX, "annex",
              (_line(rf"(?:PHỤ\s+LỤC|Phụ\s+lục)(?:\s+(?:số\s+)?(?P<num>{_ROMAN}|\d{{1,3}}[a-z]?))?{_VI_TAIL}"),),
              "Phụ lục {num}", appendix=True),
        Level("form", 1, UnitType.ANNEX, "form",
              (_line(rf"(?:Mẫu|MẪU)\s+(?:số|SỐ)\s+(?P<num>\d{{1,3}}[a-zđ]?(?:/[\w\-]{{1,20}})?){_VI_TAIL}"),),
              "Mẫu số {num}", " Mẫu số {num}", Scope.PARENT, appendix=True),
    ),
    annotate=vi_codification.annotate,
    quotations=True,
    may_open=vi_gazette.may_open_heading,
    instruction=vi_gazette.INSTRUCTION_START,
    introduces_quote=vi_gazette.introduces_quote,
)

# Korean statutes: 편 > 장 > 절 > 조 "제5조(목적)" > 항 ①② > 호 "1." > 목 "가.".
_KO_NUM = r"\d{1,4}(?:의\d{1,3})?"
# "제40조 및 제41조를 각각 삭제한다", "제66조의2 중 …": an amending act's instruction, not an article heading.
_KO_INSTRUCTION = r"\s{0,3}(?:중|및|또는|와|과|부터|각|에|,|ㆍ|·)(?:\s|$)"
BRANCH = "의"  # 제5조의2: an article inserted after 제5조 by amendment
# 가. 나. … 하.: the fourteen item letters (the range 가-하 would take in almost every syllable).
HANGUL_ITEMS = "가나다라마바사아자차카타파하"
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
KOREAN = Grammar(
    code="ko",
    language="Korean",
    levels=(
        Level("part", 0, UnitType.PART, "part",
              (_line(rf"제\s?(?P<num>{_KO_NUM})\s?편(?:\s+(?P<title>[^\n]{{0,300}}))?"),), "제{num}편"),
        Level("chapter", 1, UnitType.CHAPTER, "ch",
              (_line(rf"제\s?(?P<num>{_KO_NUM})\s?장(?:\s+(?P<title>[^\n]{{0,300}}))?"),), "제{num}장"),
        Level("section", 2, UnitType.SECTION, "sec",
              (_line(rf"제\s?(?P<num>{_KO_NUM})\s?절(?:\s+(?P<title>[^\n]{{0,300}}))?"),),
              "제{num}절", " 제{num}절", Scope.PARENT),
        Level("article", 3, UnitType.ARTICLE, "art",
              (_line(rf"제\s?(?P<num>\d{{1,4}})\s?조(?:의\s?(?P<branch>\d{{1,3}}))?(?:\s?\((?P<title>[^)\n]{{1,200}})\)|(?=\s|$)(?!{_KO_INSTRUCTION}))\s*(?P<rest>[^\n]{{0,100000}})"),),
              "제{num}조"),
        # 부칙 (addenda: commencement and transition) closes the main body; its own 제1조 restarts.
        Level("addenda", 1, UnitType.CHAPTER, "addenda",
              (_line(r"(?P<num>부\s?칙)(?:\s?\([^)\n]{1,100}\))?(?:\s{0,3}<(?P<title>[^>\n]{1,100})>)?\s*"),), "부칙"),
        Level("paragraph", 4, UnitType.PARAGRAPH, "cl",
              (_line(rf"(?P<num>[{_CIRCLED}])\s*(?P<rest>[^\n]{{0,100000}})"),),
              "제{num}항", "제{num}항", Scope.PARENT, distinctive=False, sequence="circled"),
        Level("item", 5, UnitType.POINT, "pt",
              (_line(rf"(?P<num>{_KO_NUM})\.\s+(?P<rest>[^\n]{{1,100000}})"),),
              "제{num}호", "제{num}호", Scope.PARENT, distinctive=False),
        Level("subitem", 6, UnitType.POINT, "sp",
              (_line(rf"(?P<num>[{HANGUL_ITEMS}])\.\s+(?P<rest>[^\n]{{1,100000}})"),),
              "{num}목", "{num}목", Scope.PARENT, distinctive=False, sequence="hangul"),
    ),
    annotate=korean.annotate,
)

GRAMMARS: dict[str, Grammar] = {g.code: g for g in (ENGLISH, VIETNAMESE, KOREAN)}


def render_label(template: str, num: str) -> str:
    """Fill a label template; a Korean branch article "5의2" is written "제5조의2", not "제5의2조"."""
    main, branch_mark, branch = num.partition(BRANCH)
    if branch_mark and template.endswith("조"):
        return template.format(num=main) + BRANCH + branch
    return template.format(num=num)


def circled_number(mark: str) -> str:
    """'③' → '3': Korean paragraphs are cited by number ("제3항") though written as circled digits."""
    position = _CIRCLED.find(mark)
    return str(position + 1) if position >= 0 else mark
