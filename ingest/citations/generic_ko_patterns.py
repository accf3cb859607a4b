"""Korean citation regexes (법률 / 시행령 / 시행규칙 drafting); the logic is in generic_ko.py.

Group names mean the same thing in every pattern:
  num, branch     제5조의2 → num 5, branch 2;   cl 제N항;  pt, ptb 제N호(의M);  sp 가목
  self            "이 법", "이 영", "이 규칙": the citing document
  kname           「개인정보 보호법」: another instrument by its title (an alias may follow: (이하 "법"이라 한다))
  same            "같은 법", "같은 영", "동법", "같은 법 시행령": the instrument named just before
  word            an unbracketed name before the article: "법", "영" (aliases), "의료법", "의료법 시행령"
  amending        "법률 제10609호 의료법 일부개정법률": the addenda (부칙) of an amending act
Every repetition is bounded and no group repeats an unbounded group: matching stays linear.
"""
from __future__ import annotations

import re

_ART = r"제\s?(?P<num>\d{1,4})\s?조(?:의\s?(?P<branch>\d{1,3}))?"
_CL = r"제\s?(?P<cl>\d{1,3})\s?항"
_PT = r"제\s?(?P<pt>\d{1,3})\s?호(?:의\s?(?P<ptb>\d{1,2}))?"
# 가목 … 하목: the fourteen letters, not the syllable range 가-하 (which holds "제", "목" and most of Hangul).
_ITEM_LETTERS = "가나다라마바사아자차카타파하"
_SP = rf"(?P<sp>[{_ITEM_LETTERS}])\s?목(?!적)"
_TAIL = rf"(?:\s?{_CL})?(?:\s?{_PT})?(?:\s?{_SP})?"
_INSTRUMENT_WORD = r"(?:[가-힣ㆍ·]{1,30}\s)?시행(?:령|규칙)|[가-힣ㆍ·]{0,30}(?:법|법률|영|령|규칙|규정)"
_QUOTE_OPEN = "\"“'‘"
_QUOTE_CLOSE = "\"”'’"

# "「개인정보 보호법」 제5조제2항제3호", "이 법 제5조의2", "법 제4조제5항", "같은 법 시행령 제18조제2호".
PROVISION = re.compile(
    r"(?:(?<![가-힣])(?P<self>이\s?(?:법|영|령|규칙|규정|고시|훈령|예규))"
    r"|「(?P<kname>[^」\n]{1,80})」(?:\s?\(이하\s?[^()\n]{1,40}\))?"
    r"|(?P<same>(?:같은\s?(?:법|영|령|규칙)|동법|동령)(?:\s?시행(?:령|규칙))?)"
    rf"|(?<![가-힣A-Za-z0-9」)])(?P<word>{_INSTRUMENT_WORD})"
    r")?\s{0,2}"
    + _ART
    + _TAIL
)

# "법률 제10609호 의료법 일부개정법률 부칙 제2조제1항": the amending act's addenda, not this document's.
ADDENDA = re.compile(
    r"(?P<amending>(?:법률|대통령령|총리령|[가-힣]{1,12}부령)\s?제\s?\d{1,6}\s?호\s?[^\n<>]{0,60}?(?:개정)?(?:법률|령|규칙)\s?)?"
    r"부칙(?:\s?\([^)\n]{0,40}\))?\s?"
    + _ART
    + _TAIL
)

# "같은 조 제2항", bare "제2항 제1호": parts of the article cited just before, or of the citing one.
PARAGRAPH = re.compile(rf"(?P<same>같은\s?조\s?)?{_CL}(?:\s?{_PT})?(?:\s?{_SP})?")
# "같은 항 제1호", bare "제3호", "제3호가목".
ITEM = re.compile(rf"(?P<same>같은\s?항\s?)?{_PT}(?:\s?{_SP})?")
# "같은 호 가목", bare "나목" (never "항목", "다목적").
SUBITEM = re.compile(rf"(?P<same>같은\s?호\s?)?(?<![가-힣]){_SP}")

# What may stand between two citations of one list or range: "제1항 및 제2항", "제4항부터 제6항까지",
# "제4조제5항 단서 또는 제6항". Only then does the second inherit the first's instrument and article.
QUALIFIER = r"(?:본문|단서|전단|후단|각\s?호\s?외의\s?부분|각\s?호|까지)"
LIST_GAP = re.compile(rf"\s{{0,2}}(?:{QUALIFIER}\s{{0,2}}){{0,2}}(?P<joint>[,ㆍ·、]|및|또는|와|과|이나|나|부터|내지|[~～])?\s{{0,2}}")
RANGE_JOINTS = frozenset({"부터", "내지", "~", "～"})

# The decree or rules answering a delegation: 법 제4조제5항 단서에서 "대통령령으로 정하는 경우"란 …
ANSWER = re.compile(
    rf"\s{{0,2}}(?:{QUALIFIER}\s{{0,2}}){{0,2}}에서\s{{0,2}}[{_QUOTE_OPEN}](?P<quote>[^{_QUOTE_CLOSE}\n]{{1,400}})[{_QUOTE_CLOSE}](?:이)?란"
)
# What may open an article or paragraph before the citation that answers a delegation: its heading, ①.
OPENING = re.compile(
    r"(?:제\s?\d{1,4}\s?조(?:의\s?\d{1,3})?\s?(?:\([^)\n]{0,200}\))?)?\s{0,5}[①-⑳]?\s{0,3}"
)
# "…에 따라" (pursuant to): the answering form; "…에 따른 위원회" only names a thing the act set up.
IN_ACCORDANCE = re.compile(rf"\s{{0,2}}(?:{QUALIFIER}\s{{0,2}}){{0,2}}에\s?따라")

# 「의료법」(이하 "법"이라 한다): an alias the rest of the document cites the instrument by.
ALIAS = re.compile(
    rf"「(?P<name>[^」\n]{{1,80}})」\s?\(이하\s?[{_QUOTE_OPEN}](?P<alias>[^{_QUOTE_CLOSE}\n]{{1,20}})[{_QUOTE_CLOSE}](?:이)?라\s?한다\)"
)
# "「약사법」 일부를 다음과 같이 개정한다." opens an amending act's instructions to that instrument
# (in a 부칙 or an amending act); "의료법 시행령 일부를 …" names it without brackets.
AMENDING_INTRO = re.compile(
    r"(?:「(?P<kname>[^」\n]{1,80})」|(?P<plain>[가-힣ㆍ·][가-힣ㆍ·\s]{0,60}?))\s?(?:일부|전부)를\s?다음과\s?같이\s?개정한다"
)
# An instruction's verb right after the provision it changes: "제5조 중 …", "제40조를 삭제한다",
# "제3조를 다음과 같이 한다", "제2항을 각각 삭제한다".
INSTRUCTION = re.compile(
    rf"\s{{0,2}}(?:{QUALIFIER}\s{{0,2}}){{0,2}}(?:중(?:\s|$)|[을를]\s?(?:각각\s)?(?:삭제한다|삭제하고|다음과\s?같이\s?(?:한다|하며|하고)))"
)
HANGUL = re.compile("[\uac00-\ud7a3]")
