"""Regexes of the CFR citation grammar (tokenizers only; the logic that combines them is in cfr.py).

Every pattern is anchored at a position (`.match(text, pos)`) or is a flat alternation scanned once, and
every repetition is bounded: the grammar walks a citation list item by item in Python instead of
matching it with one nested regex, so hostile input cannot backtrack catastrophically.
"""
from __future__ import annotations

import re

# Where a citation starts. Named groups say which grammar continues from there.
ANCHOR = re.compile(
    r"(?P<sign>§§?)[ \t]{0,3}"
    r"|(?P<section_word>\b[Ss]ections?)[ \t]{1,3}(?=\d{1,3}\.\d)"
    r"|\b(?P<cfr_title>\d{1,2})[ \t]{0,2}(?:CFR|C\.[ \t]?F\.[ \t]?R\.)[ \t]{1,3}(?P<cfr_parts>[Pp]arts?[ \t]{1,3})?"
    r"|\b(?P<usc_title>\d{1,2})[ \t]{0,2}U\.[ \t]?S\.[ \t]?C\.[ \t]{0,3}(?=\d)"
    r"|(?P<statute_word>\b[Ss]ections?)[ \t]{1,3}(?=\d{1,5}\b|\d{1,5}[A-Za-z(-])"
    r"|(?P<paragraph_word>\b[Pp]aragraphs?)[ \t]{1,3}(?=\()"
    r"|(?P<subpart_word>\b[Ss]ubparts?)[ \t]{1,3}(?=[A-Z]{1,2}\b)"
    r"|(?P<part_word>\b[Pp]arts?)[ \t]{1,3}(?=\d{1,3}\b(?!\.\d))"
    r"|\b[Tt]his[ \t](?P<this_scope>subpart|part)\b"
    r"|\b(?:Public[ \t]Law|Pub\.[ \t]?L\.)[ \t]{0,3}(?P<public_law>\d{2,3}-[ \t]?\d{1,4})"
    # A bare "164.508" with no sign before it (the finder keeps it only if the corpus has that section).
    r"|(?<![\w.\-/§$])(?P<bare>\d{3})(?=\.\d{1,4}(?![\d.]\d))"
)

# "164.508", and other titles' "1c.107".
SECTION_NUMBER = re.compile(r"(?P<part>\d{1,3}[a-z]{0,2})\.(?P<section>\d{1,5}[a-z]?)(?![\d.]\d)")
# "(a)(2)(ii)": up to six levels, each marker short.
PARAGRAPH_PATH = re.compile(r"(?:\((?:[a-z]{1,4}|\d{1,3}|[A-Z]{1,3})\)){1,6}")
MARKER = re.compile(r"\(([^()]{1,4})\)")
# Between two list items: ", ", " and ", ", or ", " through "…
# "§ 160.404-160.408" writes a range with a dash.
SEPARATOR = re.compile(
    r"[ \t]{0,3}(?:,[ \t]{0,3}(?:(?:and/or|and|or)[ \t]{1,3})?|(?:and/or|and|or)[ \t]{1,3}"
    r"|(?P<range>through[ \t]{1,3}|[-\u2013\u2014][ \t]{0,2}))"
)
# A list item may repeat its sign or word: "§ 164.310, § 164.312", "paragraph (a) or paragraph (b)".
SECTION_SIGN = re.compile(r"(?:§§?|[Ss]ections?)[ \t]{0,3}")
PARAGRAPH_SIGN = re.compile(r"[Pp]aragraphs?[ \t]{1,3}")

# What a relative paragraph list is relative to.
PARAGRAPH_SCOPE = re.compile(
    r"[ \t]{0,3}of[ \t]{1,3}(?:"
    r"this[ \t](?P<this>section|paragraph|definition|subpart|part)\b"
    r"|the[ \t]definition\b(?P<definition>)"
    r"|(?:§|[Ss]ection)[ \t]{0,3}(?=\d{1,3}\.\d)"
    r")"
)

# Any other "of …" after a paragraph list ("of section 1128A of the Act", "of such section") places it
# somewhere this grammar does not follow.
OTHER_SCOPE = re.compile(r"[ \t]{0,3}of[ \t]{1,3}(?!this\b)\S")

SUBPART_LETTER = re.compile(r"(?P<letter>[A-Z]{1,2})\b")
# "subpart C of part 160 (of this subchapter)", "subpart E of this part".
SUBPART_SCOPE = re.compile(r"[ \t]{0,3}of[ \t]{1,3}(?:this[ \t]part\b|(?:this[ \t])?part[ \t]{1,3}(?P<part>\d{1,3})\b)")
PART_NUMBER = re.compile(r"(?P<part>\d{1,3})\b(?!\.\d)")
# "part 164, subpart E" names a subpart after its part.
PART_SUBPART = re.compile(r",?[ \t]{0,3}[Ss]ubpart[ \t]{1,3}(?P<letter>[A-Z]{1,2})\b")

USC_SECTION = re.compile(r"(?P<number>\d{1,5}[a-z]{0,3}(?:-[ \t]?\d{1,5}[a-z]{0,3}){0,2})(?P<path>(?:\([0-9A-Za-z]{1,4}\)){0,6})")
STATUTE_SECTION = re.compile(r"(?P<number>\d{1,5}[A-Za-z]?(?:-[ \t]?\d{1,5})?)(?P<path>(?:\([0-9A-Za-z]{1,4}\)){0,6})")
# The law a "section N" belongs to: "of the Act", "of the PHS Act", "of ERISA", "of Public Law 111-5".
STATUTE_SCOPE = re.compile(
    r"[ \t]{0,3}of[ \t]{1,3}(?:the[ \t]{1,3})?(?P<law>"
    r"Public[ \t]Law[ \t]\d{2,3}-[ \t]?\d{1,4}|Pub\.[ \t]?L\.[ \t]?\d{2,3}-[ \t]?\d{1,4}"
    r"|ERISA|(?:[A-Z][A-Za-z.]{0,20}[ \t]){0,8}Act\b)"
)
