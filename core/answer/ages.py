"""Ages a question states ("con mới được 2 tuổi", "아이가 3살", "my 15-year-old") and the age conditions a provision
sets ("dưới 36 tháng tuổi", "18세 미만", "under the age of 16").

A paragraph whose every age condition fails for the stated age is not the one that applies when a sibling's hold.
Ages are kept in months (Vietnamese law writes an infant's age so); only words that say age are read ("at least 5
years" is as often a period).
"""
from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass


def _vi(tag: str) -> str:
    return rf"(?P<n{tag}>\d{{1,3}})\s*(?:(?P<m{tag}>tháng tuổi)|tuổi)"


def _ko(tag: str) -> str:
    return rf"(?:만\s*)?(?P<n{tag}>\d{{1,3}})\s*(?:세(?![대금율입출])|살)"


def _en(tag: str) -> str:
    return rf"(?P<n{tag}>\d{{1,3}})(?:[- ]years?[- ]old|\s+years? of age|[- ](?P<m{tag}>months?)[- ]old)"


def _en_threshold(tag: str) -> str:
    return rf"(?:the age of\s+(?P<nt{tag}>\d{{1,3}})(?:\s+years)?|{_en(tag)})"


Compare = Callable[[float, float], bool]
# The words around an age that make it a condition, and how an age must compare with its threshold to meet it.
# Listed longest first: "chưa đủ 18 tuổi" is under 18, though "đủ 18 tuổi" within it reads as 18 or over.
_CONDITIONS: tuple[tuple[re.Pattern[str], Compare], ...] = tuple(
    (re.compile(pattern, re.I), compare) for pattern, compare in (
        (rf"(?:chưa đủ|không đủ|dưới)\s+{_vi('')}", operator.lt),
        (rf"(?:từ đủ|từ|đủ)\s+{_vi('')}(?:\s+trở lên)?", operator.ge),
        (rf"trên\s+{_vi('')}", operator.gt),
        (rf"{_vi('')}\s+trở lên", operator.ge),
        *((rf"{_ko('')}\s*{word}", compare) for word, compare in (
            ("미만", operator.lt), ("이하", operator.le), ("이상", operator.ge), ("초과", operator.gt))),
        (rf"{_ko('')}(?:가|이) 되지 아니한", operator.lt),
        (rf"\b(?:under|below|younger than|less than)\s+{_en_threshold('')}", operator.lt),
        (rf"\b(?:at least|not less than)\s+{_en_threshold('')}", operator.ge),
        (rf"\b(?:over|older than|above)\s+{_en_threshold('')}", operator.gt),
        (rf"(?:\baged\s+(?P<na>\d{{1,3}})|{_en_threshold('')}) (?:or|and) (?:over|older|above)\b", operator.ge),
    ))
# An age the question tells of someone: a number with a word for age that no condition's words surround.
_STATED = re.compile(rf"{_vi('v')}|{_ko('k')}|{_en('e')}|\baged\s+(?P<na>\d{{1,3}})\b", re.I)


@dataclass(frozen=True)
class AgeCondition:
    compare: Compare
    months: float

    def holds(self, months: float) -> bool:
        return self.compare(months, self.months)


def _age(match: re.Match[str]) -> tuple[float, int]:
    """The age in months (a number of years or, with a word for months, of months) and where its number starts."""
    groups = match.groupdict()
    name = next(k for k, v in groups.items() if k.startswith("n") and v)
    in_months = any(v for k, v in groups.items() if k.startswith("m"))
    number = int(groups[name])
    return float(number if in_months else number * 12), match.start(name)


def age_conditions(text: str) -> list[AgeCondition]:
    """The age conditions the text sets, one per age it writes (the first, longest reading of it)."""
    found: dict[int, AgeCondition] = {}
    for pattern, compare in _CONDITIONS:
        for match in pattern.finditer(text):
            months, start = _age(match)
            found.setdefault(start, AgeCondition(compare, months))
    return list(found.values())


def stated_ages(question: str) -> list[float]:
    """The ages, in months, that the question states as facts; a threshold it writes ("dưới 16 tuổi") is not one."""
    conditions = [m.span() for pattern, _ in _CONDITIONS for m in pattern.finditer(question)]
    return [_age(m)[0] for m in _STATED.finditer(question)
            if not any(start <= m.start() < end for start, end in conditions)]


def meets(conditions: list[AgeCondition], ages: list[float]) -> bool:
    """Whether one of the stated ages meets every condition: the text is the case for that age."""
    return any(all(c.holds(age) for c in conditions) for age in ages)


def fails(conditions: list[AgeCondition], ages: list[float]) -> bool:
    """Whether no condition holds for any stated age. A text that sets one case and its contrary ("at least 16
    years old … where the child is below the age of 16 years") holds for every age, and never fails."""
    return bool(conditions) and not any(c.holds(age) for c in conditions for age in ages)
