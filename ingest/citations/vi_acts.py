"""The act a Vietnamese amending instruction speaks of: named by its number ("Thông tư số 44/2022/TT-BTC") or by its
title ("Luật Bảo hiểm y tế", "LUẬT ĐIỆN LỰC").

A Law that amends a Law writes the amended act's number once, in its preamble ("Quốc hội ban hành Luật sửa đổi, bổ
sung một số điều của Luật điện lực số 28/2004/QH11") or with a short name ("… Luật Bảo hiểm y tế số 25/2008/QH12 …
(sau đây gọi là Luật Bảo hiểm y tế)"), and names it by title everywhere else ("Điều 1. Sửa đổi, bổ sung một số điều
của Luật Bảo hiểm y tế"). `StatedActs` reads those statements, so that a title resolves to the number the document
gave it. A title the document never numbers stays a title: it finds an ingested act whose own header gives that
title (identity.py), else names an External.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.citations import vi_amendment_patterns as P
from ingest.parsers.generic.keys import doc_type, fold, number_name_keys, title_name_key


@dataclass(frozen=True)
class ActRef:
    """An act as the instruction writes it: "Thông tư" + "44/2022/TT-BTC", or "Luật" + title "Bảo hiểm y tế"."""

    dtype: str
    number: str
    title: str = ""

    def name(self) -> str:
        return f"{self.dtype} số {self.number}" if self.number else f"{self.dtype} {self.title}"

    def keys(self) -> list[str]:
        """Name keys: its number's when it has one (a new Law often bears the title of the one it repeals, so a number
        is never traded for a title), else its title's."""
        if self.number:
            return number_name_keys(doc_type(self.dtype), self.number)
        return [title_name_key(f"{self.dtype} {self.title}")] if self.title else []

    def same_number(self, other: ActRef | None) -> bool:
        return other is not None and bool(self.number) and self.number == other.number


def act_of(match: re.Match[str], text: str) -> ActRef:
    """A numbered act match (P.ACT) → ActRef; the words between its type and number are its title."""
    title = text[match.end("dtype"): match.start("dnum")]
    title = re.sub(r"(?i:\s+số)?\s*$", "", title).strip()
    return ActRef(_dtype(match.group("dtype")), match.group("dnum"), title if _is_title(title) else "")


def _dtype(words: str) -> str:
    return " ".join(words.split()).lower().capitalize()


def _is_title(words: str) -> bool:
    return bool(words) and words[0].isalpha() and P.THIS_ACT.search(f"Luật {words}") is None


def _key(dtype: str, title: str) -> str:
    return " ".join(fold(f"{dtype} {title}").replace(",", " ").split())


class StatedActs:
    """The acts a document numbers, by the titles it gives them (first statement wins)."""

    def __init__(self, text: str = "") -> None:
        self._by_title: dict[str, ActRef] = {}
        for match in P.ACT.finditer(text):
            act = act_of(match, text)
            if act.title:
                self._by_title.setdefault(_key(act.dtype, act.title), act)
        for called in P.CALLED.finditer(text):
            named = P.TITLED.match(called.group("name").strip())
            # The act it names is the sentence's first numbered act ("Luật … số 25/2008/QH12 … đã được sửa đổi … theo
            # Luật số 32/2013/QH13, … (sau đây gọi là Luật Bảo hiểm y tế)": the later numbers are its amenders).
            start = max(text.rfind(mark, 0, called.start()) for mark in (".\n", ";", "\n\n")) + 1
            first = P.ACT.search(text, start, called.start())
            if named and first:
                act = act_of(first, text)
                self._by_title.setdefault(_key(named.group("dtype"), named.group("title")),
                                          ActRef(act.dtype, act.number, named.group("title")))

    def find(self, region: str) -> tuple[int, ActRef] | None:
        """The first act named by title in `region` and where it starts: with the number the document stated for that
        title, else by its title alone when it is written as one (capitalised)."""
        for match in P.TITLED.finditer(region):
            words = _title_words(match.group("title"))
            dtype = _dtype(match.group("dtype"))
            # The longest stated title the words start with: "Luật điện lực, khoản 2" is "Luật điện lực".
            for end in range(len(words), 0, -1):
                stated = self._by_title.get(_key(dtype, " ".join(words[:end])))
                if stated is not None:
                    return match.start(), stated
            title = " ".join(words).split(",", 1)[0].strip()
            if title[:1].isupper():
                return match.start(), ActRef(dtype, "", title)
        return None


def _title_words(title: str) -> list[str]:
    """The title's words; an upper-case title ("ĐIỆN LỰC") ends at the first word that is not."""
    words = title.split()
    if words and words[0].isupper():
        cut = next((n for n, word in enumerate(words) if not word.isupper()), len(words))
        words = words[:cut]
    return words
