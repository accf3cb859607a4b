"""Citation regexes for the generic format (English, Vietnamese drafting); logic is in generic.py.

Korean drafting has its own: generic_ko_patterns.py.

A comma never joins two numbers into a pair: "Article 5, Decree 12" and "제5조의2, 제1조부터" are
lists of separate citations, each matched on its own.
Every repetition is bounded and no group repeats an unbounded group, so matching stays linear in
the text: a 100 KB line or 10,000 citations in one unit cannot make the engine backtrack.
Group names shared across patterns mean the same thing everywhere:
  num/num2  provision numbers (a range or pair when num2 is set), range = the word between them
  kind      Article / Section / § / Rule (English only; Vietnamese and Korean say "article")
  cl, pt, sp, subs   clause, point, sub-point, and English parenthesised subdivisions "(3)(a)"
  self      "this Circular", "이 법": the citing document;  dtype+dnum: a numbered instrument
  dtitle / kname: an instrument cited by title;  same: "같은 법/조/항", the one cited just before
"""
from __future__ import annotations

import re

from ingest.parsers.generic.vi_codification import CODIFIED_NUMBER

_SP = r"\s{1,3}"
_OPT_SP = r"\s{0,3}"
_EN_NUM = r"\d{1,4}[A-Za-z]?(?:\.\d{1,4}){0,5}"
_SUBS = r"(?:\([0-9A-Za-z]{1,5}\)){0,5}"
_EN_TYPES = r"Circular|Decree|Law|Decision|Resolution|Directive|Regulation|Order|Notice|Ordinance"
_VI_TYPES = (r"[Tt]hông\s{1,2}tư(?:\s{1,2}liên\s{1,2}tịch)?|[Nn]ghị\s{1,2}định|[Bb]ộ\s{1,2}luật|[Ll]uật|[Qq]uyết\s{1,2}định"
             r"|[Nn]ghị\s{1,2}quyết(?:\s{1,2}liên\s{1,2}tịch)?|[Cc]hỉ\s{1,2}thị|[Pp]háp\s{1,2}lệnh|[Hh]iến\s{1,2}pháp")
# "số" as sources write it: precomposed, or with the tone mark as a combining character (both occur in
# one Pháp điển export; an unmatched "số" made "Điều 3 Nghị định số 54/2017/NĐ-CP" the citing act's Điều 3).
_SO = "s(?:ố|ô\u0301|o\u0302\u0301)"
_INSTRUMENT_NUMBER = r"\d{1,5}/\d{4}(?:/[A-ZĐ0-9][A-ZĐ0-9\-]{0,24})?"

# "point (a) of paragraph 2 of Article 5", "Clause 3, Article 12": finer parts written first.
_EN_LEAD_POINT = rf"(?:(?i:point|letter|sub-?paragraph){_SP}\(?(?P<pt>[a-z]{{1,4}})\)?{_OPT_SP}(?:,|of){_SP})?"
_EN_LEAD_CLAUSE = rf"(?:(?i:paragraph|clause){_SP}\(?(?P<cl>\d{{1,3}})\)?{_OPT_SP}(?:,|of){_SP})?"

EN_PROVISION = re.compile(
    rf"(?<![\w§]){_EN_LEAD_POINT}{_EN_LEAD_CLAUSE}"
    rf"(?P<kind>(?i:articles?|art\.|sections?|sec\.|§§?|rules?)){_OPT_SP}"
    rf"(?P<num>{_EN_NUM})(?P<subs>{_SUBS})"
    rf"(?:{_OPT_SP}(?P<range>to|through|and|or|-|–){_OPT_SP}(?:(?i:articles?|sections?|rules?|§){_OPT_SP})?"
    rf"(?P<num2>{_EN_NUM})(?P<subs2>{_SUBS}))?"
    rf"(?:{_SP}(?:of|in|under){_SP}(?:the{_SP})?"
    rf"(?:(?P<self>(?:this|the{_SP}present){_SP}(?:{_EN_TYPES}|Regulations|Rules|Act|Code))"
    rf"|(?P<dtype>{_EN_TYPES}){_SP}(?:No\.?{_OPT_SP})?(?P<dnum>{_INSTRUMENT_NUMBER})"
    rf"|(?P<dtitle>(?:[A-Z][\w'’\-]{{0,30}}\s){{1,8}}(?:Act|Regulations|Rules|Code|Ordinance|Law)(?:\s\d{{4}})?)))?"
)

# "paragraph 2 of this Article", "point (a), clause 1 of this Article", "this Section".
EN_THIS_PROVISION = re.compile(
    rf"(?<!\w){_EN_LEAD_POINT}{_EN_LEAD_CLAUSE}(?i:this){_SP}(?P<what>Article|Section|Rule)\b"
)

# Bare "paragraph 2", "clause 3(b)", "point (c)": parts of the article (or clause) being read.
EN_BARE_PART = re.compile(
    rf"(?<!\w)(?:(?P<clword>(?i:paragraphs?|clauses?)){_SP}\(?(?P<cl>\d{{1,3}})\)?(?P<subs>{_SUBS})"
    rf"|(?i:points?|letters?|sub-?paragraphs?){_SP}\((?P<pt>[a-z]{{1,4}})\))"
)

# "điểm a khoản 1 Điều 5 Thông tư 30/2024/TT-BYT", "Điều 5 đến Điều 7", "khoản 3 Điều 12 của Luật này".
_VI_LEAD = rf"(?:(?i:điểm){_SP}(?P<pt>[a-zđ]){_OPT_SP},?{_OPT_SP})?(?:(?i:khoản){_SP}(?P<cl>\d{{1,3}}){_OPT_SP},?{_OPT_SP})?"
VI_PROVISION = re.compile(
    rf"(?<!\w){_VI_LEAD}(?i:điều){_SP}(?P<num>\d{{1,4}}[a-zđ]?)(?!\w)"
    rf"(?:{_OPT_SP}(?P<range>đến|và|-|–){_OPT_SP}(?:(?i:điều){_SP})?(?P<num2>\d{{1,4}}[a-zđ]?)(?!\w))?"
    rf"(?:{_OPT_SP},?{_OPT_SP}(?:của{_SP})?"
    rf"(?:(?P<self>(?:{_VI_TYPES}|[Vv]ăn{_SP}bản){_SP}này)"
    rf"|(?P<dtype>{_VI_TYPES}){_SP}(?:{_SO}{_SP})?(?P<dnum>{_INSTRUMENT_NUMBER})))?"
)

# "Điều 2.2.LQ.12": a codified (Pháp điển) article, always of the codification being read.
VI_CODIFIED = re.compile(rf"(?<!\w){_VI_LEAD}(?i:điều){_SP}(?P<num>{CODIFIED_NUMBER})(?![\w])")

# "khoản 2 Điều này", "điểm a khoản 1 Điều này": parts of the citing article.
VI_THIS_ARTICLE = re.compile(rf"(?<!\w){_VI_LEAD}(?i:điều){_SP}này(?!\w)")

# Bare "khoản 2", "điểm b khoản này", "điểm c": parts of the article / clause being read.
VI_BARE_PART = re.compile(
    rf"(?<!\w)(?:(?i:điểm){_SP}(?P<pt>[a-zđ])(?!\w){_OPT_SP},?{_OPT_SP})?(?i:khoản){_SP}(?:(?P<cl>\d{{1,3}})|(?P<thiscl>này))(?!\w)"
    rf"|(?<!\w)(?i:điểm){_SP}(?P<pt_only>[a-zđ])(?!\w)"
)

# A whole instrument with no provision: "Luật Bảo hiểm y tế số 25/2008/QH12", "Nghị định số 146/2018/NĐ-CP",
# "Directive 2014/65/EU". A provision pattern at the same place is longer and wins (_non_overlapping).
VI_ACT = re.compile(
    rf"(?<!\w)(?P<dtype>{_VI_TYPES})(?:(?:{_SP}[^\s\d,;:()\[\]]{{1,15}}){{1,8}}?{_SP}{_SO}|{_SP}{_SO})?{_SP}"
    rf"(?P<dnum>{_INSTRUMENT_NUMBER})(?![\w/])"
)
EN_ACT = re.compile(rf"(?<![\w/])(?P<dtype>{_EN_TYPES}){_SP}(?:No\.?{_OPT_SP})?(?P<dnum>{_INSTRUMENT_NUMBER})(?![\w/])")

PAREN_PART = re.compile(r"\(([0-9A-Za-z]{1,5})\)")
ROMAN_LOWER = re.compile(r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}|xiv|xvi{0,3}|xix|xx)")

# An act's English name stated beside its own: "the Medical Service Act (의료법)", "「의료법」(Medical Service Act)".
_EN_NAME = r"(?:[A-Z][\w'’\-]{0,30}\s){0,8}(?:Act|Decree|Rules|Regulations|Code|Law)"
EN_NAME_STATED = re.compile(
    rf"(?P<en>{_EN_NAME})(?:\sof\s(?:the\s)?(?:Republic\sof\s)?Korea)?\s?\(\s?「?(?P<ko>[가-힣0-9·][가-힣0-9·\s]{{0,60}}?)」?\s?\)"
    rf"|「(?P<ko2>[^」\n]{{1,60}})」\s?\(\s?(?:[Tt]he\s)?(?P<en2>{_EN_NAME})\s?\)"
)
