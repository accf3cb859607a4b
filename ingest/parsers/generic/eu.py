"""EU acts as the Official Journal lays them out: identity, preamble and recitals, annexes, notes.

    REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL      ← identity
    of 27 April 2016 / on the protection … (General Data Protection Regulation)  ← title, short title
    THE EUROPEAN PARLIAMENT …, Having regard to …, Whereas:                     ← preamble (citations)
    (1) … (173) …                                                               ← recitals
    HAVE ADOPTED THIS REGULATION:  Article 1 … Article 99                       ← enacting terms
    Done at Brussels, …  (1) OJ C 229 …                                         ← signature, footnotes
    ANNEX I …                                                                   ← annexes

Recitals give reasons, not rules: they are units of their own type under a preamble unit, never
clauses of the enacting terms. A delegated or implementing act is authority tier 2 below the act
that empowers it ("Having regard to Regulation (EU) 2020/1503 …, and in particular Article 19(7)
thereof"); the citation finder (citations/eu.py) types that empowerment.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from core.domain import LegalUnit, UnitType
from ingest.parsers.generic.grammars import ENGLISH, Grammar, Level, _line
from ingest.parsers.generic.identity import Identity
from ingest.parsers.generic.keys import doc_key, number_name_keys, title_name_key, unit_key

TRADITION = "eu"
_HEAD_LINES = 12

# "REGULATION (EU) 2016/679 OF THE …", "COMMISSION DELEGATED REGULATION (EU) 2024/358",
# "DIRECTIVE 95/46/EC OF THE …", "COUNCIL REGULATION (EC) No 1/2003".
TITLE_LINE = re.compile(
    r"(?P<issuer>COMMISSION|COUNCIL)?\s?(?P<kind>DELEGATED|IMPLEMENTING)?\s?"
    r"(?P<type>REGULATION|DIRECTIVE|DECISION)\s(?:\((?P<series>EU|EC|EEC|EU,\sEuratom|Euratom)\)\s)?"
    r"(?P<no>No\s)?(?P<number>\d{1,4}/\d{1,4}(?:/(?:EU|EC|EEC|Euratom))?)(?:\sOF\sTHE\s(?P<author>[A-Z ,]{1,120}))?"
)
_SHORT_TITLE = re.compile(r"\((?P<short>[A-Z][\w\s\-’']{3,80}(?:Regulation|Directive|Decision|Act))\)\s*$")
_SUPPLEMENTS = re.compile(
    r"^(?P<verb>supplementing|implementing|amending)\s(?P<act>(?:Regulation|Directive|Decision)\s(?:\([A-Za-z, ]{2,14}\)\s)?(?:No\s)?\d{1,4}/\d{1,4}(?:/[A-Z]{2,3})?)"
)
_DATE_LINE = re.compile(r"of\s\d{1,2}\s[A-Z][a-z]{2,8}\s\d{4}")
_PREAMBLE_START = re.compile(r"THE\s[A-Z][A-Z ,]{4,120},|Having\sregard\s")
_WHEREAS = re.compile(r"Whereas\s?:?")
_ADOPTED = re.compile(r"HA(?:VE|S)\sADOPTED\sTHIS\s[A-Z ]{3,40}:?")
_DONE_AT = re.compile(r"Done\sat\s[A-Z][\w\s\-]{1,40},\s.{4,40}")
_ANNEX = re.compile(r"ANNEX(?:\s+(?:[IVXLC]{1,8}|\d{1,3}))?")
_RECITAL = re.compile(r"\((?P<num>\d{1,3})\)\s*(?P<rest>.{0,100000})")
_TITLE_MAX = 250

# The OJ puts an article's title on the next line, so "Article 45 of Regulation (EU) No 909/2014 is
# amended as follows:" is a sentence, not the heading of an Article 45 (case matters here).
_EU_PATTERNS = {
    "article": (_line(r"(?:Article|ARTICLE)\s(?P<num>\d{1,3}[a-z]{0,2})(?:\s*[.:\-–—]\s*(?P<title>[^\n]{0,300}))?"),),
}

# Annexes sit beside the enacting terms: one rank above every English level, so "Part A" inside an
# annex nests in it instead of closing it.
EU_GRAMMAR = Grammar(
    code=ENGLISH.code,
    language=ENGLISH.language,
    levels=(
        Level("annex", 0, UnitType.ANNEX, "annex",
              (_line(r"ANNEX(?:\s+(?P<num>[IVXLC]{1,8}|\d{1,3}))?(?:\s*[.:\-–—]\s*(?P<title>[^\n]{0,300}))?"),),
              "Annex {num}"),
        *(dataclasses.replace(level, rank=level.rank + 1, patterns=_EU_PATTERNS.get(level.name, level.patterns))
          for level in ENGLISH.levels),
    ),
    label_joiner=", ",
    quotations=True,
)


@dataclass
class Front:
    """The lines of one EU act, cut where the Official Journal layout changes role."""

    head: list[str]
    preamble: list[str]
    recitals: list[tuple[str, list[str]]]
    body: list[str]
    notes: list[str] = field(default_factory=list)


def title_match(texts: list[str]) -> re.Match[str] | None:
    for text in [t.strip() for t in texts if t.strip()][:_HEAD_LINES]:
        match = TITLE_LINE.fullmatch(text)
        if match:
            return match
    return None


def is_eu_act(texts: list[str]) -> bool:
    """An OJ act names itself in a title line and adopts its enacting terms with 'HAVE ADOPTED'."""
    return title_match(texts) is not None and any(_ADOPTED.fullmatch(t.strip()) for t in texts)


def act_name(type_word: str, series: str | None, number: str, no: bool, issuer: str | None = None,
             kind: str | None = None) -> str:
    """'Regulation (EU) 2016/679', 'Regulation (EC) No 45/2001', 'Commission Delegated Regulation (EU) 2024/358'."""
    words = [w.capitalize() for w in (issuer, kind) if w]
    words.append(type_word.capitalize())
    if series:
        words.append(f"({series})")
    words.append(f"No {number}" if no else number)
    return " ".join(words)


def identify_eu(texts: list[str], identity: Identity) -> None:
    """Name the act as it names itself; number and short title become the keys citations use."""
    match = title_match(texts)
    if match is None:
        return
    name = act_name(match["type"], match["series"], match["number"], bool(match["no"]), match["issuer"], match["kind"])
    type_word = match["type"].lower()
    head = [t.strip() for t in texts if t.strip()]
    start = head.index(match.group(0).strip())
    title_lines = [name + (f" of the {_author(match['author'])}" if match["author"] else "")]
    for text in head[start + 1 : start + 4]:
        if _DATE_LINE.match(text) or text.startswith(("on ", "supplementing ", "implementing ", "amending ", "laying ")):
            title_lines.append(text)
    identity.short_name = name
    identity.title = " ".join(title_lines)[:300]
    identity.names += [name, f"{match['type'].capitalize()} {match['number']}"]
    identity.keys += number_name_keys(type_word, match["number"])
    identity.metadata.update({"number": match["number"], "doc_type": type_word, "tradition": TRADITION})
    for text in title_lines[1:]:
        short = _SHORT_TITLE.search(text)
        if short:
            identity.names.append(short["short"])
            identity.keys.append(title_name_key(short["short"]))
            identity.metadata["short_title"] = short["short"]
        parent = _SUPPLEMENTS.match(text)
        if parent and parent["verb"] in ("supplementing", "implementing"):
            identity.metadata["supplements"] = parent["act"]
    if match["kind"]:
        # Delegated and implementing acts rank below the legislative act that empowers them.
        identity.metadata["instrument"] = f"{match['kind'].lower()} {type_word}"
        identity.metadata["authority_tier"] = "2"
    else:
        identity.metadata["authority_tier"] = "1"
    identity.names = list(dict.fromkeys(identity.names))
    identity.keys = list(dict.fromkeys(identity.keys))


def _author(words: str) -> str:
    """'EUROPEAN PARLIAMENT AND OF THE COUNCIL' → 'European Parliament and of the Council'."""
    small = {"and", "of", "the"}
    return " ".join(w.lower() if w.lower() in small else w.capitalize() for w in words.split())


def split_front(texts: list[str]) -> Front | None:
    """Head, preamble, recitals, enacting terms + annexes, and the signature with its footnotes."""
    stripped = [t.strip() for t in texts]
    adopted = next((i for i, t in enumerate(stripped) if _ADOPTED.fullmatch(t)), None)
    if adopted is None:
        return None
    start = next((i for i, t in enumerate(stripped[:adopted]) if _PREAMBLE_START.match(t)), adopted)
    whereas = next((i for i in range(start, adopted) if _WHEREAS.fullmatch(stripped[i])), adopted)
    done = next((i for i in range(adopted, len(texts)) if _DONE_AT.fullmatch(stripped[i])), len(texts))
    annex = next((i for i in range(done, len(texts)) if _ANNEX.fullmatch(stripped[i])), len(texts))
    return Front(
        head=texts[:start],
        preamble=texts[start : whereas + 1],
        recitals=_recitals(texts[whereas + 1 : adopted]),
        body=texts[adopted:done] + texts[annex:],
        notes=texts[done:annex],
    )


def _recitals(texts: list[str]) -> list[tuple[str, list[str]]]:
    """'(N) …' opens recital N when N continues the count; other lines continue the open recital."""
    recitals: list[tuple[str, list[str]]] = []
    for text in texts:
        match = _RECITAL.fullmatch(text.strip())
        if match and int(match["num"]) == len(recitals) + 1:
            recitals.append((match["num"], [text]))
        elif recitals:
            recitals[-1][1].append(text)
    return recitals


def front_units(front: Front, corpus: str, doc_id: str, slug: str, identity: Identity) -> list[LegalUnit]:
    """The preamble unit with one recital unit per recital, and a notes unit for signature and footnotes."""
    short = identity.short_name
    preamble_id = f"{doc_id}/preamble"
    units = [LegalUnit(id=preamble_id, corpus=corpus, document_id=doc_id, type=UnitType.PREAMBLE,
                       label=f"{short}, preamble", text=_join(front.preamble), parent_id=doc_id,
                       keys=[f"{doc_key(slug)}:preamble"])]
    for num, lines in front.recitals:
        units.append(LegalUnit(id=f"{preamble_id}/rec-{num}", corpus=corpus, document_id=doc_id, type=UnitType.RECITAL,
                               label=f"{short}, recital {num}", text=_join(lines), parent_id=preamble_id,
                               keys=[unit_key(slug, [("rec", num)])]))
    if any(t.strip() for t in front.notes):
        units.append(LegalUnit(id=f"{doc_id}/notes", corpus=corpus, document_id=doc_id, type=UnitType.PASSAGE,
                               label=f"{short}, signature and notes", text=_join(front.notes), parent_id=doc_id,
                               metadata={"role": "notes"}, keys=[f"{doc_key(slug)}:notes"]))
    return units


def title_from_second_line(units: list[LegalUnit]) -> None:
    """OJ layout puts an article's title on the line after 'Article 5': take it as the title."""
    for unit in units:
        if unit.type not in (UnitType.ARTICLE, UnitType.CHAPTER, UnitType.SECTION, UnitType.ANNEX) or unit.title:
            continue
        lines = [line for line in unit.text.split("\n") if line.strip()]
        if len(lines) >= 2 and len(lines[1]) <= _TITLE_MAX and not lines[1].rstrip().endswith((".", ";", ":", ",")):
            unit.title = lines[1].strip()


def _join(lines: list[str]) -> str:
    return "\n".join(lines).strip()
