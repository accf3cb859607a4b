"""Regexes of the ADGM citation grammar; the logic that assembles them lives in citations/adgm.py.

Every repetition is bounded and no unbounded quantifier nests inside another, so matching time
stays linear in the text whatever it holds (100 KB without a newline, thousands of citations).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

# A cited number: '3.8.1', '15.11.A.2', 'A4.3.12', '3.6A.4', '225'. Segments have at most three
# digits so that years ('2015') never read as numbers; a number never starts or ends inside a dotted run.
_NUM = r"(?:A\d{1,2}\.)?\d{1,3}[A-Z]?(?:\.(?:\d{1,3}[A-Z]?|[A-Z](?=\.\d))){0,6}"
_SUB = r"(?:\s?\((?:\d{1,3}|[a-z]{1,5}|[A-Z])\)){0,5}"
NUMBER = re.compile(rf"(?<![\w.])(?P<num>{_NUM})(?P<sub>{_SUB})(?P<close>(?<=\d)[a-z]\))?(?![\w]|\.\d)")

# The word that says what kind of unit is cited; "sub paragraph" is written three ways.
HEAD = (
    r"(?i:(?:sub[- ]?)?(?:rules?|sections?|paragraphs?|paras?)|chapters?|parts?|schedules?"
    r"|appendix|appendices|app|annex(?:es)?|articles?)"
)
# A candidate abbreviation ("MIR", "COBS", "FSMR"); checked against the corpus names before use.
DOC_WORD = r"\b[A-Z][A-Za-z]{1,7}"

# Just before a number: "MIR Rule ", "(COBS) Rule ", "Rule COBS ", "section ", "GEN ". Searched on a short window
# ending at the number, hence the "$" anchor.
BEFORE = re.compile(
    rf"(?:\(?(?P<doc1>{DOC_WORD})\)?\s{{1,3}})?(?P<head>{HEAD})\.?\s{{1,3}}(?:(?P<doc2>{DOC_WORD})\s{{1,3}})?$"
    rf"|(?P<doc3>{DOC_WORD})\s{{1,3}}$"
)
BEFORE_WINDOW = 48

# Between two numbers of one list: ", ", " and ", " or ", " to ", "-", ", and Rule ".
BETWEEN = re.compile(
    rf"\s{{0,3}}(?P<sep>[,;])?\s{{0,3}}(?P<word>and/or|and|or|to|through|-|–|—)?\s{{0,3}}"
    rf"(?:{HEAD}\.?\s{{1,3}})?(?:{DOC_WORD}\s{{1,3}})?"
)
BETWEEN_MAX = 40
RANGE_WORDS = frozenset({"to", "through", "-", "–", "—"})

# More sub-paragraphs of the same number: "Rule 9.1.1(3) or (4)", "3.10.7(f), (g) and (h)", "214(1)-(2)".
MORE_SUBS = re.compile(r"\s{0,2}(?:,\s{0,2})?(?:and|or|to|-|–)?\s{0,2}\((?P<sub>\d{1,3}|[a-z]{1,5}|[A-Z])\)")
MORE_SUBS_MAX = 12

# After a list: " of ", " in the ", " under ", ", of the ", " to " ("paragraph 88 of Schedule 1 to FSMR").
AFTER_LINK = re.compile(r"\s{0,3}(?:,\s{0,2})?(?i:of|in|under|within|to)\s{1,3}(?:(?i:the)\s{1,3})?")
THIS_DOCUMENT = re.compile(r"(?i:this|these)\s{1,3}(?i:rulebook|rules|regulations|module|guidance|document)\b")
CONTAINER = re.compile(r"(?i:(?P<kind>app(?:endix)?|schedule))\s?(?P<number>\d{1,3})\b")
ABBREVIATION = re.compile(DOC_WORD + r"\b")
# "the Guidance on Mining": guidance is cited by its topic, not by its title.
GUIDANCE_TOPIC = re.compile(r"Guidance\s{1,3}(?:on|for)\s{1,3}(?:the\s{1,3})?(?P<topic>[A-Z][\w-]{1,30}(?:\s{1,3}[A-Z][\w-]{1,30}){0,3})")

# Outside law: kept as External nodes. Titles may join capitalised words with small lower-case ones.
EXTERNAL_LAW = re.compile(
    r"\b(?:UAE\s{1,3})?(?:Federal\s{1,3}(?:Decree\s{1,3})?Law|(?:Cabinet|Ministerial)\s{1,3}(?:Decision|Resolution)|Decree)"
    r"\s{1,3}No\.?\s{0,2}\(?\d{1,4}\)?(?:\s{1,3}of\s{1,3}\d{4})?"
    r"|\b[A-Z][A-Za-z&'’-]{1,20}(?:\s{1,3}(?:[A-Z][A-Za-z&'’-]{1,20}|and|of|for|on|the)){0,7}"
    r"\s{1,3}(?:Regulations|Act|Law|Rules|Ordinance|Directive|Code)\s{1,3}(?:of\s{1,3})?\d{4}\b"
)

_DASHES = r"\-–—"


def title_pattern(titles: Iterable[str]) -> re.Pattern[str] | None:
    """One alternation of the corpus's document titles, longest first, spaces and dashes loose."""
    alternatives = []
    for title in sorted(set(titles), key=len, reverse=True):
        words = [re.escape(w) for w in re.split(rf"[\s{_DASHES}]+", title) if w]
        if words:
            alternatives.append(rf"[\s{_DASHES}]{{1,5}}".join(words))
    if not alternatives:
        return None
    return re.compile(r"\b(?:the\s{1,3})?(?:" + "|".join(alternatives) + r")(?![\w])", re.I)
