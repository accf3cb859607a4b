"""Consolidated texts (văn bản hợp nhất, VBHN): amendment footnotes → the amendment history of the unit they mark.

A VBHN prints the amended text with a footnote where each change was made, the body at the page foot after
a rule (a blank line once the text is extracted):

    c)2 Đối với dịch vụ kỹ thuật đặt stent …          ← marker fused to the text ("c)2", "thi hành2", "263" = STT 26 + 3)
    2 Khoản này được sửa đổi, bổ sung theo quy định tại khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT,
    có hiệu lực kể từ ngày 01 tháng 3 năm 2018.

The footnote is provenance of the consolidated words, not an instruction of this text: it leaves the body (a
quoted "Điều 10. …" of the amending act inside it would otherwise become articles here) and its marked unit
records {marker, action, by, act, date, note} in metadata["amendment_history"]. Footnotes that only quote the
amending act's bases or effect clauses leave the body and record nothing.
"""
from __future__ import annotations

import json
import re

from core.domain import LegalUnit

_ACT_NUMBER = re.compile(r"\d{1,5}/\d{4}/[A-ZĐ]")
_FOOTNOTE = re.compile(r"\s{0,3}(?P<n>\d{1,3})\s{1,3}(?P<text>\S[^\n]{0,2000})")
_AMENDED = re.compile(
    r"(?:được|bị)\s+(?P<verb>sửa\s+đổi(?:,\s+bổ\s+sung)?|bổ\s+sung|bãi\s+bỏ|thay\s+thế)[^.;]{0,80}?"
    r"(?:theo\s+quy\s+định\s+tại|theo|tại|bởi)\s+(?P<by>(?:[Đđ]iểm\s+[a-zđ]\s+)?(?:[Kk]hoản\s+\d{1,3}\s+)?Điều\s+\d{1,4}[a-zđ]?"
    r"\s+(?:của\s+)?(?P<type>Thông\s+tư(?:\s+liên\s+tịch)?|Nghị\s+định|Luật|Quyết\s+định|Nghị\s+quyết)\s+(?:số\s+)?"
    r"(?P<act>\d{1,5}/\d{4}/[A-ZĐ0-9][A-ZĐ0-9\-]{0,24}))"
)
_DATE = re.compile(r"hiệu\s+lực[^.]{0,40}?ngày\s+(?P<d>\d{1,2})\s+tháng\s+(?P<m>\d{1,2})\s+năm\s+(?P<y>\d{4})")
_ACTIONS = {"sửa đổi": "amended", "bổ sung": "inserted", "bãi bỏ": "repealed", "thay thế": "replaced"}
_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use marks: where a footnote's marker stood, until units are built
_PLACED = re.compile(f"{_OPEN}(\\d{{1,3}}){_CLOSE}")
_LOOK_BACK = 250
_ROW_NUMBER = re.compile(r"\s{0,6}(?P<n>\d{2,6})(?=\s|$)")


def split_footnotes(texts: list[str]) -> tuple[list[str], dict[int, dict[str, str]]]:
    """The body without its footnotes (markers replaced by placeholders) and each amendment footnote's record."""
    bodies: dict[int, tuple[int, list[str]]] = {}  # number → (index of its rule line, lines)
    drop: set[int] = set()
    expected = 1
    n = 0
    while n < len(texts):
        if texts[n].strip() or not _starts(texts, n + 1, expected):
            n += 1
            continue
        rule, current = n, None
        n += 1
        while n < len(texts):
            line = texts[n]
            start = _FOOTNOTE.fullmatch(line)
            if start and int(start["n"]) == expected:
                current = expected
                bodies[current] = (rule, [start["text"]])
                expected += 1
            elif current is not None and (line.strip() or _quote_open(bodies[current][1])):
                if line.strip():
                    bodies[current][1].append(line.strip())
            else:
                break
            drop.add(n)
            n += 1
    if not bodies:
        return texts, {}
    kept = list(texts)
    records: dict[int, dict[str, str]] = {}
    for number, (rule, lines) in bodies.items():
        _place_marker(kept, number, rule, drop)
        record = _record(number, " ".join(lines))
        if record:
            records[number] = record
    return [t for i, t in enumerate(kept) if i not in drop], records


def _starts(texts: list[str], n: int, expected: int) -> bool:
    """Footnote `expected` starts on line n: after a blank line (the page-foot rule), its number, and an act
    named in its first lines ("3 Tên thuốc này được sửa đổi … Thông tư số 50/2017/TT-BYT"), which a table
    row that happens to start with the same number does not have."""
    start = _FOOTNOTE.fullmatch(texts[n]) if n < len(texts) else None
    return start is not None and int(start["n"]) == expected and bool(_ACT_NUMBER.search(" ".join(texts[n: n + 2])))


def _quote_open(lines: list[str]) -> bool:
    text = " ".join(lines)
    return text.count('"') % 2 == 1 or text.count("“") > text.count("”")


def _place_marker(texts: list[str], number: int, rule: int, drop: set[int]) -> None:
    """Mark the nearest line above the footnote that carries its number fused to a word ("thi hành2", "c)2",
    "N-B14") or to a table's row number ("263": row 26, footnote 3)."""
    fused = re.compile(rf"(?<=[^\s\d]){number}(?!\d)")
    for index in range(rule - 1, max(-1, rule - _LOOK_BACK), -1):
        if index in drop:
            continue
        line = texts[index]
        match = fused.search(line)
        row = _ROW_NUMBER.match(line)
        if match is None and row and len(row["n"]) > len(str(number)) and row["n"].endswith(str(number)):
            cut = row.end("n") - len(str(number))
            texts[index] = line[:cut] + f"{_OPEN}{number}{_CLOSE}" + line[row.end("n"):]
            return
        if match is not None:
            texts[index] = line[: match.start()] + f"{_OPEN}{number}{_CLOSE}" + line[match.end():]
            return


def _record(number: int, text: str) -> dict[str, str] | None:
    match = _AMENDED.search(text)
    if match is None:
        return None
    verb = " ".join(match["verb"].split())
    action = next(a for words, a in _ACTIONS.items() if verb.startswith(words))
    record = {"marker": str(number), "action": action, "by": " ".join(match["by"].split()), "act": match["act"],
              "note": text[:600]}
    date = _DATE.search(text, match.end())
    if date:
        record["date"] = f"{int(date['y']):04d}-{int(date['m']):02d}-{int(date['d']):02d}"
    return record


def attach(units: list[LegalUnit], records: dict[int, dict[str, str]]) -> None:
    """Each marked unit gets its footnotes' records as amendment history; the placeholders leave the text."""
    for unit in units:
        markers = [int(m) for m in _PLACED.findall(unit.text + unit.title)]
        if not markers:
            continue
        unit.text = _PLACED.sub("", unit.text)
        unit.title = _PLACED.sub("", unit.title)
        found = [records[m] for m in dict.fromkeys(markers) if m in records]
        if found:
            known = json.loads(unit.metadata.get("amendment_history", "[]"))
            unit.metadata["amendment_history"] = json.dumps([*known, *found], ensure_ascii=False)
            unit.metadata["amended_by"] = "; ".join(dict.fromkeys(r["by"] for r in found))
