"""Vietnamese codification (Pháp điển) and Vietnamese unit notes: the rules, apart from the grammar table.

A Pháp điển topic gathers articles of many Luật / Nghị định / Thông tư under codified numbers
("Điều 2.2.TT.4.1." = topic 2.2, a Thông tư, its 4th document, article 1). Each article is followed
by a provenance note naming the source article and every act that amended it:
  (Điều 3 Nghị định số 54/2017/NĐ-CP …, có hiệu lực thi hành kể từ ngày 01/07/2017, có nội dung được
   sửa đổi, có nội dung được bổ sung bởi Điều 5 Nghị định số 155/2018/NĐ-CP có hiệu lực … 12/11/2018)
and cross-links "(Điều này có nội dung liên quan đến Điều 2.2.LQ.12. …)". Repealed parts read
"c) (được bãi bỏ)". The export ends with an article index ("Danh sách điều khoản") that repeats
every heading; it is not part of the text.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from core.domain import LegalUnit, UnitType
from ingest.parsers.generic.keys import Segment, doc_type, number_name_keys, path_of_key

# "2.2.TT.4.1", "39.16.LQ.23", "2.2.LQ.7c": topic.subtopic.type-code.document[.article] (a Luật's
# articles are numbered as in the Luật, inserted ones with their letter)
CODIFIED_NUMBER = r"\d{1,3}\.\d{1,3}\.[A-ZĐ]{2,5}\.\d{1,4}[a-zđ]?(?:\.\d{1,4}[a-zđ]?){0,2}"
CODIFIED_ARTICLE = re.compile(rf"Điều\s{{1,3}}(?P<num>{CODIFIED_NUMBER})\.?(?:\s{{1,3}}(?P<title>[^\n]{{0,300}}))?")

# "Điều 12 Luật số 25/2008/QH12": the whole source article (a "Khoản 2 Điều 12 …" source is only part of it).
_WHOLE_ARTICLE = re.compile(r"Điều\s+(?P<num>\d{1,4}[a-zđ]?)\s")

# A heading that opens an index of the articles rather than text.
_INDEX_TITLE = re.compile(r"(?:danh\s+sách\s+điều\s+khoản|mục\s+lục)\s*", re.I)

_ACT_TYPES = (r"Bộ\s+luật|Luật|Pháp\s+lệnh|Nghị\s+định|Nghị\s+quyết(?:\s+liên\s+tịch)?|Thông\s+tư(?:\s+liên\s+tịch)?"
              r"|Quyết\s+định|Chỉ\s+thị")
_ACT_NUMBER = r"\d{1,5}(?:/\d{4})?/[A-ZĐ0-9][A-Za-zĐđ0-9\-]{0,30}"
# "Điều 3 Nghị định số 54/2017/NĐ-CP", "khoản 2 Điều 1 Thông tư liên tịch số 37/2015/TTLT-BYT-BTC"
_PROVISION = (rf"(?:(?:[Đđ]iểm\s+[a-zđ]\s+)?(?:[Kk]hoản\s+\d{{1,3}}\s+)?Điều\s+\d{{1,4}}[a-zđ]?\s+)?"
              rf"(?P<type>{_ACT_TYPES})\s+(?:số\s+)?(?P<number>{_ACT_NUMBER})")
PROVENANCE = re.compile(rf"\(\s{{0,3}}(?P<source>{_PROVISION})(?P<rest>[^\n]{{0,3000}})\)\s*")
_EFFECTIVE = re.compile(r"có\s+hiệu\s+lực(?:\s+thi\s+hành)?\s+(?:kể\s+)?từ\s+ngày\s+(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})")
# "có nội dung được sửa đổi, có nội dung được bổ sung bởi Điều 5 …", "có nội dung bị bãi bỏ bởi …"
AMENDED_BY = re.compile(
    rf"(?P<verbs>(?:(?:có\s+nội\s+dung\s+)?(?:được|bị)\s+(?:sửa\s+đổi|bổ\s+sung|bãi\s+bỏ|thay\s+thế)(?:\s*,\s*|\s+)){{1,4}})"
    rf"(?:bởi|tại)\s+(?P<by>{_PROVISION})"
)
_VERB_KINDS = (("sửa đổi", "amended"), ("bổ sung", "supplemented"), ("bãi bỏ", "repealed"), ("thay thế", "replaced"))
RELATED_NOTE = re.compile(r"\(\s{0,3}(?:Điều|Chương|Mục|Phần)\s+này\s+có\s+nội\s+dung\s+liên\s+quan\s+đến\s[^\n]{1,20000}\)\s*")
# The whole body of a unit that was repealed: "(được bãi bỏ)", "Được bãi bỏ", "(đã bị bãi bỏ)."
REPEALED_BODY = re.compile(r"\(?\s{0,3}(?:đã\s+)?(?:được|bị)\s+bãi\s+bỏ\s{0,3}\)?\s*\.?\s*", re.I)
_EMPHASIS = re.compile(r"[*_]{1,3}")  # Markdown bold / italic around a mark


@dataclass(frozen=True)
class Amendment:
    kinds: tuple[str, ...]  # amended / supplemented / repealed / replaced
    by: str  # the amending provision, as written: "Điều 5 Nghị định số 155/2018/NĐ-CP"
    by_number: str  # its act's number
    effective_date: str | None


# A heading the export glued to the end of the previous paragraph: "… hiện hành.Điều 2.2.LQ.13. Mức đóng …".
_GLUED_HEADING = re.compile(rf"(?<=\S)(?=Điều\s{{1,3}}{CODIFIED_NUMBER}\.\s)")


def split_glued_headings(texts: list[str]) -> list[str]:
    """Each codified heading on a line of its own. Only a heading stuck to the character before it is split
    off: a cross-link note lists codified articles after "; " and stays one line."""
    out: list[str] = []
    for text in texts:
        out.extend(_GLUED_HEADING.split(text) if "Điều" in text else [text])
    return out


def is_codification(texts: list[str]) -> bool:
    """Two or more codified article headings make a document a codification."""
    return sum(1 for t in texts if CODIFIED_ARTICLE.fullmatch(t.strip())) >= 2


def body_lines(lines: list, heading_of) -> list:
    """The lines before an article-index section (a heading "Danh sách điều khoản" / "Mục lục" and
    everything under it); `heading_of(line)` gives a line's Markdown heading depth or None."""
    for n, line in enumerate(lines):
        depth = heading_of(line)
        if depth and _INDEX_TITLE.fullmatch(line.text.strip()):
            end = next((m for m in range(n + 1, len(lines)) if (heading_of(lines[m]) or 99) <= depth), len(lines))
            return [*lines[:n], *lines[end:]]
    return lines


def provenance_notes(text: str) -> list[re.Match[str]]:
    """Every provenance note in a unit's own text (a clause taken from another source article has its own)."""
    return [m for m in (PROVENANCE.fullmatch(line.strip()) for line in text.splitlines()) if m]


def amendments(note: str) -> list[Amendment]:
    out = []
    for match in AMENDED_BY.finditer(note):
        verbs = match.group("verbs")
        kinds = tuple(kind for words, kind in _VERB_KINDS if re.search(words.replace(" ", r"\s+"), verbs))
        tail = note[match.end(): match.end() + 120]
        date = _EFFECTIVE.match(tail.strip()) or _EFFECTIVE.search(tail.split(";")[0])
        out.append(Amendment(kinds, " ".join(match.group("by").split()), match.group("number"), _iso(date)))
    return out


def annotate(units: list[LegalUnit]) -> None:
    """Source article, amendment history and repealed status from the notes, in place.

    Cross-link notes move from the last clause they happen to follow up to the article they are
    about ("Điều này" = the article), so their REFERENCES start there. A clause's own note is
    recorded on the clause and added to its article's history.
    """
    by_id = {u.id: u for u in units}
    for unit in units:
        _move_related_notes(unit, by_id)
    for unit in units:
        notes = provenance_notes(unit.text)
        if notes:
            _record_source(unit, notes[0])
            history = [a for note in notes for a in amendments(note.group("rest"))]
            article = unit if unit.type is UnitType.ARTICLE else _ancestor(unit, by_id, UnitType.ARTICLE)
            for target in {id(u): u for u in (unit, article) if u is not None}.values():
                _add_history(target, history)
        if _repealed(unit):
            unit.metadata["status"] = "repealed"
    for unit in units:
        if unit.type is UnitType.ARTICLE and "source_document" in unit.metadata:
            _add_source_keys(unit, units, by_id)


def source_keys(kind: str | None, number: str, path: list[Segment]) -> list[str]:
    """The keys a citation of the source provision produces ("Khoản 1 Điều 4 Nghị định số 70/2015/NĐ-CP",
    or "khoản 1 Điều 4 của Nghị định này" inside it), carried by the codified unit so those find it."""
    tail = ":".join(f"{k}:{num}" for k, num in path)
    return [f"{key}:{tail}" for key in dict.fromkeys([*number_name_keys(kind, number), *number_name_keys(None, number)])]


def _add_source_keys(article: LegalUnit, units: list[LegalUnit], by_id: dict[str, LegalUnit]) -> None:
    whole = _WHOLE_ARTICLE.match(article.metadata.get("source_provision", ""))
    own = next((k for k in article.keys if k.startswith("gen:")), None)
    if whole is None or own is None:
        return
    depth = len(path_of_key(own))
    number = article.metadata["source_document"]
    kind = doc_type(article.metadata.get("source_type", ""))
    for unit in units:
        if unit is article or _ancestor(unit, by_id, UnitType.ARTICLE) is article:
            key = next((k for k in unit.keys if k.startswith("gen:")), None)
            if key:
                unit.keys += source_keys(kind, number, [("art", whole.group("num")), *path_of_key(key)[depth:]])


def _record_source(unit: LegalUnit, note: re.Match[str]) -> None:
    unit.metadata["source_provision"] = " ".join(note.group("source").split())
    unit.metadata["source_document"] = note.group("number")
    unit.metadata["source_type"] = " ".join(note.group("type").split())
    date = _EFFECTIVE.search(note.group("rest").split("bởi")[0])
    if date:
        unit.metadata["effective_date"] = _iso(date) or ""


def _add_history(unit: LegalUnit, history: list[Amendment]) -> None:
    if not history:
        return
    known = json.loads(unit.metadata.get("amendment_history", "[]"))
    known += [{"kinds": list(a.kinds), "by": a.by, "act": a.by_number, "effective_date": a.effective_date} for a in history]
    unit.metadata["amendment_history"] = json.dumps(known, ensure_ascii=False)
    unit.metadata["amended_by"] = "; ".join(dict.fromkeys(entry["by"] for entry in known))


def _move_related_notes(unit: LegalUnit, by_id: dict[str, LegalUnit]) -> None:
    if unit.type in (UnitType.ARTICLE, UnitType.CHAPTER, UnitType.SECTION, UnitType.PART, UnitType.DOCUMENT):
        return
    lines = unit.text.splitlines()
    notes = [line for line in lines if RELATED_NOTE.fullmatch(line.strip()) and line.strip().startswith("(Điều")]
    if not notes:
        return
    article = _ancestor(unit, by_id, UnitType.ARTICLE)
    if article is None:
        return
    unit.text = "\n".join(line for line in lines if line not in notes).strip()
    article.text = "\n".join([article.text, *notes]).strip()


def _ancestor(unit: LegalUnit, by_id: dict[str, LegalUnit], kind: UnitType) -> LegalUnit | None:
    parent = by_id.get(unit.parent_id or "")
    while parent is not None and parent.type is not kind:
        parent = by_id.get(parent.parent_id or "")
    return parent


def _repealed(unit: LegalUnit) -> bool:
    """The unit's words, after its number ("c)", "3.") and its notes, say only that it was repealed: "c) (được
    bãi bỏ)", "3. ***Được bãi bỏ***", or an article whose only body line under its heading is "(Được bãi bỏ)"."""
    lines = [line.strip() for line in unit.text.strip().splitlines() if line.strip()]
    if unit.type is UnitType.ARTICLE:
        lines = [line for line in lines[1:] if not (PROVENANCE.fullmatch(line) or RELATED_NOTE.fullmatch(line))]
        if len(lines) != 1:
            return False
    first = _EMPHASIS.sub("", lines[0]) if lines else ""
    body = re.sub(r"^(?:\d{1,3}\.|[a-zđ]\))\s*", "", first)
    return bool(body) and REPEALED_BODY.fullmatch(body) is not None


def _iso(match: re.Match[str] | None) -> str | None:
    if match is None:
        return None
    return f"{int(match.group('y')):04d}-{int(match.group('m')):02d}-{int(match.group('d')):02d}"
