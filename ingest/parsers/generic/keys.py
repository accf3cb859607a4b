"""Address keys shared by the generic parser (which gives them to units) and its citation finder.

Unit keys:     gen:<doc-slug>                      the document
               gen:<doc-slug>:art:15:cl:3:pt:a     a provision, by its path below the nearest
                                                   freestanding heading (chapters are not in it)
Name keys:     gen-name:<kind>:<normalised name>   on the document unit, so that "Article 15 of
                                                   Circular 30/2024" finds the file that is Circular 30/2024
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

Segment = tuple[str, str]  # ("art", "15")

_SLUG_JUNK = re.compile(r"[^\w]+")
_NAME_JUNK = re.compile(r"[^\w/.\-]+")

# Document types by what they are, whatever the language they are named in.
DOC_TYPES: dict[str, str] = {
    "circular": "circular", "thông tư": "circular", "thông tư liên tịch": "circular",
    "code": "code", "bộ luật": "code", "constitution": "constitution", "hiến pháp": "constitution",
    "nghị quyết liên tịch": "resolution",
    "decree": "decree", "nghị định": "decree",
    "law": "law", "luật": "law", "act": "law",
    "decision": "decision", "quyết định": "decision",
    "resolution": "resolution", "nghị quyết": "resolution",
    "directive": "directive", "chỉ thị": "directive",
    "ordinance": "ordinance", "pháp lệnh": "ordinance",
    "regulation": "regulation", "order": "order", "notice": "notice",
}


def slugify(text: str) -> str:
    """File stem → id segment: lower case, words kept (any script), everything else one '-'."""
    return _SLUG_JUNK.sub("-", text.lower()).strip("-_") or "document"


def fold(text: str) -> str:
    """Lower case without Latin diacritics ('Thông tư' → 'thong tu'); Hangul is left composed."""
    decomposed = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    stripped = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFC", stripped)


def doc_key(slug: str) -> str:
    return f"gen:{slug}"


def unit_key(slug: str, path: Sequence[Segment]) -> str:
    return ":".join([doc_key(slug), *(f"{kind}:{num}" for kind, num in path)])


def doc_type(word: str) -> str | None:
    return DOC_TYPES.get(word.strip().lower())


def number_name_keys(kind: str | None, number: str) -> list[str]:
    """Keys for a numbered instrument, most specific first.

    "Circular 30/2024/TT-BYT" answers to its type + full number, its full number, its type +
    number/year and number/year alone: citations shorten numbers ("Circular 30/2024").
    """
    number = fold(number).strip(" .")
    short = "/".join(number.split("/")[:2])
    numbers = [number] if short == number else [number, short]
    keys: list[str] = []
    for value in numbers:
        if kind:
            keys.append(f"gen-name:no:{kind}:{value}")
        keys.append(f"gen-name:no:{value}")
    return keys


def title_name_key(title: str) -> str:
    """Key for an instrument cited by its title ("Data Protection Act 2021", "「개인정보 보호법」")."""
    cleaned = _NAME_JUNK.sub("-", fold(title).strip(" \"'“”「」『』")).strip("-")
    return f"gen-name:title:{cleaned}"


def path_of_key(key: str) -> list[Segment]:
    """gen:<slug>:art:15:cl:3 → [("art","15"), ("cl","3")] (the path part of a unit key)."""
    parts = key.split(":")[2:]
    return [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
