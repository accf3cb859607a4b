"""Typed pieces an EU citation resolves through: the act cited, the provision path, its lawyer's label.

Paths use the generic parser's key segments (art, cl, pt, sp, annex, sec, rec), so a path into an
ingested act is that act's unit key; into an act not ingested it names an External node
("Directive 95/46/EC, Article 25(6)").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.citations import eu_patterns as P
from ingest.parsers.generic.eu import act_name
from ingest.parsers.generic.keys import Segment, number_name_keys, title_name_key

_TREATIES = {
    "tfeu": "TFEU", "the tfeu": "TFEU", "the treaty on the functioning of the european union": "TFEU",
    "teu": "TEU", "the teu": "TEU", "the treaty on european union": "TEU",
}
_CHARTER = "Charter of Fundamental Rights of the European Union"
_DIVISIONS = {"sec": "Section", "part": "Part", "title": "Title", "ch": "Chapter"}


@dataclass(frozen=True)
class Act:
    """A cited act: its name as written by lawyers and the name keys an ingested copy would carry."""

    name: str
    kind: str  # regulation, directive, decision, treaty
    keys: tuple[str, ...] = ()


def act_from(match: re.Match[str]) -> Act | None:
    """The act a match's atype/anum or treaty groups name, if any."""
    groups = match.groupdict()
    if groups.get("anum"):
        kind = groups["atype"].lower()
        name = act_name(groups["atype"], groups.get("series"), groups["anum"], bool(groups.get("no")))
        return Act(name, kind, tuple(number_name_keys(kind, groups["anum"])))
    if groups.get("short"):
        short = " ".join(groups["short"].split())
        return Act(short, short.rsplit(" ", 1)[-1].lower(), (title_name_key(short),))
    treaty = groups.get("treaty") or groups.get("direct")
    if treaty:
        words = " ".join(treaty.split()).lower()
        return Act(_TREATIES.get(words, _CHARTER), "treaty")
    return None


def article_items(items: str) -> list[list[Segment]]:
    """'6(1) and (4)' → [art 6 cl 1], [art 6 cl 4]; '15 to 18' → 15, 16, 17, 18; '13 and 14' → 13, 14."""
    paths: list[list[Segment]] = []
    words = P.ITEM_SPLIT.findall(items)
    parts = P.ITEM_SPLIT.split(items)
    for position, part in enumerate(parts):
        match = P.ITEM.fullmatch(part.strip())
        if match is None:
            continue
        if match["num"]:
            if position and "to" in words[position - 1] and paths and not match["subs"] and _is_int(match["num"]):
                first = paths[-1][0][1]
                if _is_int(first) and 0 < int(match["num"]) - int(first) <= 50:
                    paths += [[("art", str(n))] for n in range(int(first) + 1, int(match["num"]))]
            paths.append([("art", match["num"]), *subs_path(match["subs"])])
        elif paths:
            # "(4)" after "Article 6(1) and": a sibling of the previous item's first level below the article.
            paths.append([paths[-1][0], *subs_path(match["subs"])])
    return paths


def subs_path(subs: str) -> list[Segment]:
    """'(1)(a)(ii)' → cl 1, pt a, sp ii: a number is a paragraph, a letter a point, a numeral below it a sub-point."""
    path: list[Segment] = []
    for value in P.LABEL_VALUE.findall(subs or ""):
        kinds = {kind for kind, _ in path}
        if value[0].isdigit() and "cl" not in kinds and "pt" not in kinds:
            path.append(("cl", value))
        elif "pt" in kinds and "sp" not in kinds and P.ROMAN.fullmatch(value):
            path.append(("sp", value))
        elif "pt" not in kinds:
            path.append(("pt", value))
    return path


def labels_of(points: str | None) -> list[str]:
    """'points (a) to (d)' → a, b, c, d; '(4) to (23)' → 4 … 23; '(c) and (e)' → c, e."""
    text = points or ""
    values: list[str] = []
    previous_end = 0
    for match in P.LABEL_VALUE.finditer(text):
        value = match.group(1)
        between = text[previous_end : match.start()]
        if values and " to " in between:
            values += _span(values[-1], value)[1:-1]
        values.append(value)
        previous_end = match.end()
    return list(dict.fromkeys(values))


def _span(first: str, last: str) -> list[str]:
    if first.isdigit() and last.isdigit() and 0 < int(last) - int(first) <= 50:
        return [str(n) for n in range(int(first), int(last) + 1)]
    if len(first) == len(last) == 1 and first.isalpha() and last.isalpha() and 0 < ord(last) - ord(first) <= 25:
        return [chr(c) for c in range(ord(first), ord(last) + 1)]
    return [first, last]


def point_alternatives(base: list[Segment], label: str) -> list[list[Segment]]:
    """A point under base; a numbered point of an article without paragraphs ('point (7) of Article 4')
    may have been parsed as the article's numbered paragraph, so that reading is the second choice."""
    kinds = {kind for kind, _ in base}
    if "pt" in kinds:
        return [[*base, ("sp", label)]]
    paths = [[*base, ("pt", label)]]
    if label[0].isdigit() and "cl" not in kinds:
        paths.append([*base, ("cl", label)])
    return paths


def provision_label(path: tuple[Segment, ...] | list[Segment]) -> str:
    """[art 6, cl 1, pt a] → 'Article 6(1)(a)'; [annex I, sec A, pt 4] → 'Annex I, Section A, point 4'."""
    words: list[str] = []
    for kind, value in path:
        if kind == "art":
            words.append(f"Article {value}")
        elif kind == "annex":
            words.append(f"Annex {value}".strip())
        elif kind in _DIVISIONS:
            words.append(f"{_DIVISIONS[kind]} {value}")
        elif kind == "rec":
            words.append(f"recital {value}")
        elif words and words[-1].startswith("Article"):
            words[-1] += f"({value})"
        elif kind == "cl":
            words.append(f"paragraph {value}")
        else:
            # Annex points: "point 4", "point (c)", as the annex numbers them.
            words.append(f"point {value}" if value[0].isdigit() else f"point ({value})")
    return ", ".join(words)


def external_key(act: Act, path: tuple[Segment, ...] | list[Segment]) -> str:
    """A key no unit carries: the mention resolves to an External node named by act and provision."""
    return "eu-ext:" + act.name + (":" + provision_label(path) if path else "")


def external_name(act: Act, path: tuple[Segment, ...] | list[Segment]) -> str:
    label = provision_label(path)
    if act.kind == "treaty" and label:
        return f"{label} {act.name}" if act.name in ("TFEU", "TEU") else f"{act.name}, {label}"
    return f"{act.name}, {label}" if label else act.name


def _is_int(value: str) -> bool:
    return value.isdigit()
