"""Staged application: the provisions a version's own addenda start later than the act.

"이 법은 공포 후 1년이 경과한 날부터 시행한다. 다만, 제46조제1항 후단의 개정규정은 공포 후 2년이 경과한 날부터
시행한다": the amended words of 제46조제1항 stand only from the second date. Read from the addenda (부칙) of the
version's own promulgation number; a date counted from promulgation ("공포 후 6개월이 경과한 날") is the day after
the period ends, as the Korean statute on dates counts it (law.go.kr's 시행일자 agree).
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Protocol

from dateutil.relativedelta import relativedelta

_WHEN = (r"(?P<when>공포한\s?날|공포\s?후\s?(?P<n>\d{1,3})\s?(?P<unit>개월|년|일)이?\s?경과한\s?날"
         r"|(?P<y>\d{4})\s?년\s?(?P<m>\d{1,2})\s?월\s?(?P<d>\d{1,2})\s?일)")
# One clause of the proviso: "<provisions>의 개정규정은 <when>부터 시행" (several joined by "…시행하고,").
_CLAUSE = re.compile(r"(?P<list>[^.다]*?)의?\s?개정규정(?:[^은]{0,40})?은\s?" + _WHEN + r"\s?부터\s?시행")
_PROVISO = re.compile(r"다만\s?,")
_ARTICLE = re.compile(r"제\s?(?P<a>\d{1,4})\s?조(?:의\s?(?P<s>\d{1,3}))?(?P<rest>(?:\s?제\s?\d{1,3}\s?(?:항|호))*)")
_RANGE = re.compile(_ARTICLE.pattern + r"\s?부터\s?" + _ARTICLE.pattern.replace("?P<", "?P<b_") + r"\s?까지")


class Dated(Protocol):
    promulgated: str
    number: str


def staged_dates(addenda: str, version: Dated) -> dict[str, str]:
    """{"제46조제1항": "2027-04-02"}: each provision the version's own addenda start after the act, with its date."""
    own = _own_addenda(addenda, version.number)
    if not own or not version.promulgated:
        return {}
    out: dict[str, str] = {}
    for sentence in re.split(r"(?<=다)\.\s", own):
        proviso = _PROVISO.search(sentence)
        if proviso is None or "시행" not in sentence:
            continue
        for clause in _CLAUSE.finditer(sentence[proviso.end():]):
            start = _date(clause, version.promulgated)
            if start is None:
                continue
            for provision in _provisions(clause.group("list")):
                out.setdefault(provision, start)
    return out


def _own_addenda(text: str, number: str) -> str:
    """The addenda of this promulgation: from "부칙 <제N호" to the next addenda heading."""
    if not number:
        return ""
    start = re.search(rf"부칙\s?(?:\([^)]*\))?\s?<\s?제\s?{re.escape(number)}\s?호", text)
    if start is None:
        return ""
    end = re.search(r"\n\s*부칙\s?(?:\([^)]*\))?\s?<", text[start.end():])
    return text[start.end(): start.end() + end.start()] if end else text[start.end():]


def _date(clause: re.Match[str], promulgated: str) -> str | None:
    if clause.group("y"):
        try:
            return date(int(clause.group("y")), int(clause.group("m")), int(clause.group("d"))).isoformat()
        except ValueError:
            return None
    base = date.fromisoformat(promulgated)
    if clause.group("n") is None:
        return base.isoformat()
    n, unit = int(clause.group("n")), clause.group("unit")
    delta = relativedelta(months=n) if unit == "개월" else relativedelta(years=n) if unit == "년" else relativedelta(days=n)
    return (base + delta + timedelta(days=1)).isoformat()


def _provisions(listed: str) -> list[str]:
    """The provisions a proviso lists, ranges of articles ("제13조의2부터 제13조의6까지") spelled out."""
    out: list[str] = []
    for span in _RANGE.finditer(listed):
        a, b = span.group("a"), span.group("b_a")
        s, t = span.group("s"), span.group("b_s")
        if a == b and s and t:
            out += [f"제{a}조의{k}" for k in range(int(s), int(t) + 1)]
        elif not s and not t:
            out += [f"제{k}조" for k in range(int(a), int(b) + 1)]
    listed = _RANGE.sub(" ", listed)
    for match in _ARTICLE.finditer(listed):
        article = f"제{match.group('a')}조" + (f"의{match.group('s')}" if match.group("s") else "")
        out.append(article + re.sub(r"\s", "", match.group("rest")))
    return list(dict.fromkeys(out))


_PROVISION = re.compile(r"제\d{1,4}조(?:의\d{1,3})?(?:제\d{1,3}(?:항|호))*")


def provision_of(label: str) -> str | None:
    """"응급의료에 관한 법률 제46조제1항" → "제46조제1항"; None for the addenda's own units."""
    if "부칙" in label:
        return None
    match = _PROVISION.search(label.replace(" ", ""))
    return match.group(0) if match else None


def staged_start(label: str, staged: dict[str, str]) -> str | None:
    """The later start a proviso gives this unit: listed itself, or inside a listed provision."""
    own = provision_of(label)
    if own is None:
        return None
    for provision, start in staged.items():
        if own == provision or own.startswith(provision + "제"):
            return start
    return None
