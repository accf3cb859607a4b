"""Citation and amendment-instruction regexes for EU acts; the logic is in eu.py and eu_amendments.py.

Group names:
  lpts / tpts   points written before ("point (a) of") or after (", point (h)") the article
  lpara         "paragraph 2 of Article 5";  lsub / tsub: a subparagraph ordinal (not a unit)
  items         "6(1)", "15 to 22 and 34", "6(1) and (4)": the article list
  direct        "Article 263 TFEU";  self: "this Regulation";  that: "that Directive";  thereof
  atype, series, no, anum: a numbered act ("Regulation (EU) No 182/2011", "Directive 95/46/EC")
  treaty        the Treaties and the Charter by name
All repetitions are bounded so that matching stays linear on long lines.
"""
from __future__ import annotations

import re

ORD = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
LABEL = r"\((?:[a-z]{1,4}|\d{1,3}[a-z]?)\)"
_JOIN = r"(?:,\s|\sand\s|\sor\s|\sto\s|\sand/or\s|,\sand\s)"
LABELS = rf"{LABEL}(?:{_JOIN}{LABEL}){{0,12}}"
NUM = r"\d{1,3}[a-z]{0,2}"
SUBS = r"(?:\(\d{1,3}[a-z]?\)|\([a-z]{1,4}\)){0,4}"
ITEMS = rf"{NUM}{SUBS}(?:{_JOIN}(?:Articles?\s)?(?:{NUM}{SUBS}|\(\d{{1,3}}[a-z]?\)(?:\([a-z]{{1,4}}\)){{0,3}})){{0,12}}"
ITEM = re.compile(rf"(?P<num>{NUM})?(?P<subs>{SUBS})")
ITEM_SPLIT = re.compile(rf"{_JOIN}(?:Articles?\s)?")
LABEL_VALUE = re.compile(r"\(([a-z]{1,4}|\d{1,3}[a-z]?)\)")
ROMAN = re.compile(r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}|xiv|xvi{0,3}|xix|xx)")

_ACT = (
    r"(?:(?:Commission|Council)\s)?(?:(?:Delegated|Implementing|Framework)\s)?"
    r"(?P<atype>Regulation|Directive|Decision)\s(?:\((?P<series>EU|EC|EEC|EU,\sEuratom|Euratom|CFSP)\)\s)?"
    r"(?P<no>No\s)?(?P<anum>\d{1,4}/\d{1,4}(?:/(?:EU|EC|EEC|Euratom|JHA|CFSP))?)(?![\d/])"
)
_TREATY = (
    r"(?P<treaty>(?:the\s)?TFEU|(?:the\s)?TEU|the\sTreaty\son\sthe\sFunctioning\sof\sthe\sEuropean\sUnion"
    r"|the\sTreaty\son\sEuropean\sUnion|the\sCharter(?:\sof\sFundamental\sRights(?:\sof\sthe\sEuropean\sUnion)?)?)"
)
# An act by its short title: "the General Data Protection Regulation". A title followed by a number is the numbered
# act's own words ("the Delegated Regulation (EU) 2022/2115" is _ACT's).
_SHORT_WORDS = r"(?:[A-Z][A-Za-z\-]{1,30}\s){1,8}(?:Regulation|Directive|Decision)"
_SHORT = rf"[Tt]he\s(?P<short>{_SHORT_WORDS})(?!\s(?:\((?:EU|EC|EEC|Euratom)|No\s|\d))"
_TAIL = (
    rf"(?:\s(?P<direct>TFEU|TEU)\b"
    rf"|,?\s(?:of|in|under)\s(?:(?P<self>this\s(?:Regulation|Directive|Decision))"
    rf"|(?P<that>that\s(?:Regulation|Directive|Decision|Treaty))|{_ACT}|{_SHORT}|{_TREATY})"
    rf"|\s(?P<thereof>thereof)\b)?"
)

PROVISION = re.compile(
    rf"(?<![\w(])(?:(?P<lpts>(?i:p)oints?\s{LABELS})\s(?:of|in)\s)?"
    rf"(?:(?:the\s)?(?P<lsub>{ORD})\s(?:subparagraph|sentence)\sof\s)?"
    rf"(?:(?i:p)aragraph\s(?P<lpara>\d{{1,3}})\s(?:of|in)\s)?"
    rf"(?P<kind>Articles?)\s(?P<items>{ITEMS})(?!\w)"
    rf"(?:,\s(?P<tsub>{ORD})\s(?:subparagraph|paragraph|sentence))?"
    rf"(?:,\s(?P<tpts>points?\s{LABELS}))?"
    rf"{_TAIL}"
)

RELATIVE = re.compile(
    rf"(?<![\w(])(?:(?:(?P<lpts>(?i:p)oints?\s{LABELS})\s(?:of|in)\s)?"
    rf"(?:(?:the\s)?(?P<lsub>{ORD})\s(?:subparagraph|sentence)\s(?:of\s)?)?"
    rf"(?i:p)aragraphs?\s(?P<paras>\d{{1,3}}(?:{_JOIN}\d{{1,3}}){{0,8}})(?!\w)"
    rf"(?:,\s(?P<tsub>{ORD})\ssubparagraph)?(?:,\s(?P<tpts>points?\s{LABELS}))?"
    rf"(?:\sof\s(?P<thisart>this\sArticle))?"
    rf"|(?P<bpts>(?i:p)oints?\s{LABELS})(?:\s(?:of|in)\s(?:the\s)?(?:{ORD}\ssubparagraph|this\s(?:paragraph|subparagraph)))?)"
)

ACT_NAME = re.compile(rf"(?<![\w/]){_ACT}|(?<!\w){_SHORT}|(?<!\w){_TREATY}(?!\w)")
# "… repealing Directive 95/46/EC (General Data Protection Regulation)": the short title an act's full citation gives it.
STATED_SHORT = re.compile(rf"\((?P<stated>{_SHORT_WORDS})\)")
PARAS_SPLIT = re.compile(_JOIN)

# Amending acts ----------------------------------------------------------------------------------
# "(a) in paragraph 8, point (c) is replaced by the following:", "Article 2 is amended as follows:",
# "In Article 6 of Regulation (EU) 2016/1011, the following paragraph is added:", "X is deleted".
INSTRUCTION = re.compile(
    r"(?:\((?:[a-z]{1,4}|\d{1,3})\)\s{1,3}|\d{1,3}\.\s{1,3})?"
    r"(?:(?i:in)\s(?P<where>[^,:‘’“”]{1,200}?),\s)?"
    r"(?P<target>[^:‘’“”]{1,200}?)\s(?P<verb>is|are)\s(?:hereby\s)?"
    r"(?P<action>replaced|deleted|repealed|amended|inserted|added|renumbered)\b(?P<after>[^\n]{0,300})"
)
FOLLOWING = re.compile(
    r"the\sfollowing\s(?:(?P<ord>new\s|\w{1,12}\s)?(?P<kind>Articles?|paragraphs?|subparagraphs?|points?|sentences?|indents?|Annex(?:es)?|Sections?|Chapters?|words?|definitions?))"
)
WORDS = re.compile(r"the\s(?:words?|figures?|date|term|reference)\b")
_SECTION = r"[A-Z0-9]{1,6}(?:\.[A-Z0-9]{1,4}){0,2}"  # "Section A", "Part I.B"
LOC_PART = re.compile(
    rf"(?:the\s)?(?P<ord>{ORD})\s(?P<sub>subparagraph|sentence|indent|paragraph)"
    rf"|(?:the\s)?(?P<annex>Annex(?:es)?)(?:\s(?P<annexv>[IVXLC]{{1,8}}|\d{{1,3}}))?"
    rf"|(?P<section>Sections?|Titles?|Parts?|Chapters?)\s(?P<sectionv>{_SECTION}(?:{_JOIN}{_SECTION}){{0,4}})"
    rf"|(?P<article>Articles?)\s(?P<articlev>{ITEMS})"
    rf"|(?P<para>paragraphs?)\s(?P<parav>\d{{1,3}}[a-z]?(?:{_JOIN}\d{{1,3}}[a-z]?){{0,8}})"
    rf"|(?P<point>points?)\s(?P<pointv>(?:{LABEL}|\d{{1,3}}[a-z]?)(?:{_JOIN}(?:{LABEL}|\d{{1,3}}[a-z]?)){{0,8}})"
    rf"|{_ACT}|{_SHORT}"
)
LOC_GLUE = re.compile(r"\s{0,2}(?:,|(?P<of>of|in|to)(?=\s))?\s{0,2}")
QUOTED_LABEL = re.compile(
    r"[‘“]\s{0,2}(?:Article\s(?P<art>\d{1,3}[a-z]{0,2})|(?P<num>\d{1,3}[a-z]?)\.|\((?P<lbl>[a-z]{1,4}|\d{1,3}[a-z]?)\))"
)
# "Having regard to Regulation (EU) 2020/1503 …, and in particular Article 19(7) thereof"
HAVING_REGARD = re.compile(r"\s{0,3}Having\sregard\sto\s", re.I)
