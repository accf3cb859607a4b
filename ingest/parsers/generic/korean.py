"""What Korean statutes say about their own units: authority tier, amendment history, repeal, delegation.

- Tier from the title: 법률 1, 시행령 (대통령령) 2, 시행규칙 (총리령·부령) 3, 고시·훈령·예규 4.
- `<개정 2010.1.18, 2024.9.20>` / `<신설 2009.1.30>` and `[본조신설 …]` / `[전문개정 …]` are the
  unit's amendment history, never citations (they name no amending act): metadata["amendment_history"]
  is a JSON list of {action, date, note}, the same record other grammars' amendment notes give.
- A unit that reads only "삭제 <2025.6.20>" has been repealed: status repealed, with the date.
- "대통령령으로 정하는" / "보건복지부령으로 정한다" delegate to a lower tier: the authorities are noted,
  the matching DELEGATES_TO / SPECIFIES pair comes from the answering decree's citation.
"""
from __future__ import annotations

import json
import re

from core.domain import LegalUnit, UnitType

# The words that delegate: "대통령령으로 정하는", "보건복지부령으로 정한다", "총리령으로 정하는 바에 따라".
DELEGATION = re.compile(r"(?P<authority>대통령령|총리령|[가-힣]{1,12}부령)(?:으로|로)\s?(?:정하는|정한다|정할\s?수|정하여야)")

_DATE = r"\d{4}\s?\.\s?\d{1,2}\s?\.\s?\d{1,2}\.?"
_DATES = rf"{_DATE}(?:\s?,\s?{_DATE}){{0,60}}"
_TAG = re.compile(rf"<(?P<kind>개정|신설)\s?(?P<dates>{_DATES})>")
_NOTE = re.compile(rf"\[(?P<kind>본조신설|전문개정|제목개정|본조삭제)\s?(?P<dates>{_DATES})\]")
# Only the unit's own mark before "삭제": "제2조 삭제 <…>", "① 삭제 <…>", "1. 삭제", "가. 삭제", "제7장 삭제".
_REPEALED = re.compile(
    rf"(?:제\s?\d{{1,4}}\s?[조장절편](?:의\s?\d{{1,3}})?(?:\s?\([^)\n]{{0,200}}\))?|[①-⑳]|\d{{1,3}}(?:의\d{{1,2}})?\.|[가나다라마바사아자차카타파하]\.)?"
    rf"\s{{0,5}}삭제\s?<(?P<dates>{_DATES})>"
)
_ONE_DATE = re.compile(r"(\d{4})\s?\.\s?(\d{1,2})\s?\.\s?(\d{1,2})")
_ACTIONS = {"개정": "amended", "전문개정": "amended", "제목개정": "amended", "신설": "inserted", "본조신설": "inserted",
            "본조삭제": "deleted", "삭제": "deleted"}
_TIERS = (("시행규칙", 3), ("시행령", 2), ("고시", 4), ("훈령", 4), ("예규", 4), ("지침", 4), ("규칙", 3), ("법률", 1), ("법", 1))


def tier_of(title: str) -> int:
    """'의료법 시행령' → 2: the authority tier a Korean instrument's title states."""
    name = title.strip()
    return next((tier for ending, tier in _TIERS if name.endswith(ending)), 1)


def annotate(units: list[LegalUnit]) -> None:
    """Tier, amendment history, repeal and delegation metadata on each unit of one Korean document."""
    if not units:
        return
    _addenda_addresses(units)
    tier = tier_of(units[0].label)
    by_id = {unit.id: unit for unit in units}
    for unit in units:
        unit.tier = tier
        for match in _TAG.finditer(unit.text):
            _add_history(unit, match.group("kind"), match.group("dates"), match.group(0))
        for match in _NOTE.finditer(unit.text):
            # "[본조신설 2009.1.30]" closes an article but is read into its last paragraph or item.
            owner = _article_of(unit, by_id)
            _add_history(owner, match.group("kind"), match.group("dates"), match.group(0))
            if match.group("kind") == "본조삭제":
                owner.metadata["status"] = "repealed"
        repealed = _REPEALED.match(" ".join(unit.text.split()))
        if repealed and unit.type is not UnitType.DOCUMENT:
            unit.metadata["status"] = "repealed"
            _add_history(unit, "삭제", repealed.group("dates"), f"삭제 <{repealed.group('dates')}>")
        authorities = list(dict.fromkeys(m.group("authority") for m in DELEGATION.finditer(unit.text)))
        if authorities:
            unit.metadata["delegates_to"] = ", ".join(authorities)


def _addenda_addresses(units: list[LegalUnit]) -> None:
    """Each 부칙 restarts at 제1조: its units are addressed "부칙 <제20292호,2007.9.28> 제1조" (key
    …:addenda:2:art:1), so that neither they nor citations of the main body's 제1조 take the other's place."""
    short, root_key = units[0].label, units[0].keys[0] if units[0].keys else ""
    owner: dict[str, tuple[str, str]] = {}  # unit id → (label, key) of the 부칙 it sits in
    owner_date: dict[str, str] = {}  # unit id → the date its 부칙 was promulgated
    count = 0
    for unit in units[1:]:
        if unit.keys and unit.keys[0].startswith(f"{root_key}:addenda:"):
            count += 1
            label = f"{short} 부칙" + (f" <{unit.title}>" if unit.title else "")
            owner[unit.id] = (label, f"{root_key}:addenda:{count}")
            unit.label, unit.keys = label, [owner[unit.id][1]]
            # "<제35597호,2025.6.20>": the amending act's number and date, the date of its instructions.
            promulgated = _ONE_DATE.search(unit.title or "")
            if promulgated:
                unit.metadata["promulgated"] = "{:04d}-{:02d}-{:02d}".format(*map(int, promulgated.groups()))
                owner_date[unit.id] = unit.metadata["promulgated"]
        elif unit.parent_id in owner:
            owner[unit.id] = owner[unit.parent_id]
            if owner_date.get(unit.parent_id):
                unit.metadata["promulgated"] = owner_date[unit.id] = owner_date[unit.parent_id]
            label, key = owner[unit.id]
            unit.label = f"{label} {unit.label.removeprefix(short).strip()}"
            unit.keys = [key + k.removeprefix(root_key) for k in unit.keys]


def _article_of(unit: LegalUnit, by_id: dict[str, LegalUnit]) -> LegalUnit:
    node = unit
    while node.type is not UnitType.ARTICLE and node.parent_id in by_id:
        node = by_id[node.parent_id]
    return node if node.type is UnitType.ARTICLE else unit


def _add_history(unit: LegalUnit, kind: str, written: str, note: str) -> None:
    history = json.loads(unit.metadata.get("amendment_history", "[]"))
    for y, m, d in _ONE_DATE.findall(written):
        entry = {"action": _ACTIONS[kind], "date": f"{int(y):04d}-{int(m):02d}-{int(d):02d}", "note": note}
        if entry not in history:
            history.append(entry)
    unit.metadata["amendment_history"] = json.dumps(history, ensure_ascii=False)
