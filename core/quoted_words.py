"""The new words an amending provision quotes for the unit it amends.

An EU amending point writes its instruction and then the words that stand from its date, in quotation marks:

    (a) paragraph 3 is replaced by the following:
    ‘3. A CCP shall maintain … in accordance with Regulation (EU) 2022/2554 … (*2).
    (*2) Regulation (EU) 2022/2554 … (OJ L 333, 27.12.2022, p. 1).’;

The wording is the quotation alone: not the instruction, the quotation marks, the instruction's closing
punctuation or the Official Journal's footnote printed inside the quotation. One quotation for several
targets ("paragraphs 3 and 4 are replaced by the following: ‘3. … 4. …’") gives each its own paragraph or point.
An instruction that quotes nothing has no words to give (None), and a provision that is no instruction gives
its own words (an amending article that is itself the new text).
"""
from __future__ import annotations

import re

_OPENING = "‘“"
# The line that introduces quoted words: "… is replaced by the following:", "… are inserted:", "… as follows:".
_INTRODUCES = re.compile(
    r"\b(?:(?:is|are)\s(?:hereby\s)?(?:replaced|substituted|inserted|added|amended)\b[^\n]{0,300}|as\sfollows)\s?:\s*$"
)
_FOOTNOTE = re.compile(r"^\s*\(\*\d{1,3}\)\s")
_CLOSING = re.compile(r"\s*[’”]\s*[.;,]?\s*\"?\s*$")
# The unit's own number at the end of its label: "Article 26(3)" → 3 (a paragraph), "… 27g(8)(c)" → c (a point).
_LAST = re.compile(r"\((?P<num>\d{1,3}[a-z]?)\)$|\((?P<lbl>[a-z]{1,4})\)$")


def quoted_words(amending_text: str, target_label: str = "") -> str | None:
    """The words `amending_text` quotes for the unit labelled `target_label` (see the module's docstring)."""
    lines = amending_text.strip().splitlines()
    intro = next((n for n, line in enumerate(lines) if _INTRODUCES.search(line) and line.lstrip()[:1] not in _OPENING), None)
    if intro is None:
        return amending_text
    quoted = [line for line in lines[intro + 1:] if not _FOOTNOTE.match(line)]
    if not quoted or quoted[0].lstrip()[:1] not in _OPENING:
        return None
    quoted[0] = quoted[0].lstrip()[1:]
    quoted[-1] = _CLOSING.sub("", quoted[-1])
    return _own_part(quoted, target_label) or "\n".join(quoted).strip()


def _own_part(lines: list[str], label: str) -> str | None:
    """Where the quotation holds this unit among its siblings, the lines from its number to the next sibling's."""
    last = _LAST.search(label.strip())
    if last is None:
        return None
    mark, sibling = ((rf"{re.escape(last['num'])}\.\s", r"\d{1,3}[a-z]?\.\s") if last["num"]
                     else (rf"\({re.escape(last['lbl'])}\)\s", r"\([a-z]{1,4}\)\s"))
    starts = [n for n, line in enumerate(lines) if re.match(sibling, line.strip())]
    if len(starts) < 2:
        return None  # one unit quoted: all of it is this unit's
    start = next((n for n in starts if re.match(mark, lines[n].strip())), None)
    if start is None:
        return None
    end = next((n for n in starts if n > start), len(lines))
    return "\n".join(lines[start:end]).strip()
