"""What a document says about itself: its type and number, its title, when it takes effect.

Best effort and deterministic: the opening lines name the instrument ("Circular 30/2024/TT-BYT",
"Số: 30/2024/TT-BYT … THÔNG TƯ", "개인정보 보호법"), and a closing article states the effective date.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from ingest.parsers.generic.keys import DOC_TYPES, doc_type, number_name_keys, title_name_key

_HEAD_LINES = 25

_TYPE_WORDS = "|".join(sorted((re.escape(w) for w in DOC_TYPES), key=len, reverse=True))
# "Circular No. 30/2024/TT-BYT", "Thông tư số 30/2024/TT-BYT", "Decree 45/2019"
NUMBERED_INSTRUMENT = re.compile(
    rf"(?<!\w)(?P<type>{_TYPE_WORDS})\s{{1,3}}(?:No\.?\s{{0,2}}|số\s{{1,2}})?(?P<number>\d{{1,5}}/\d{{4}}(?:/[A-ZĐ0-9][A-ZĐ0-9\-]{{0,24}})?)",
    re.I,
)
# The Vietnamese header gives the number alone ("Số: 30/2024/TT-BYT"); its code says the type.
VI_NUMBER_LINE = re.compile(r"(?<!\w)Số\s{0,2}[:.]?\s{0,3}(?P<number>\d{1,5}/\d{4}/[A-ZĐ0-9][A-ZĐ0-9\-]{0,24})", re.I)
VI_TYPE_CODES: dict[str, tuple[str, str]] = {
    "TT": ("circular", "Thông tư"),
    "NĐ": ("decree", "Nghị định"),
    "ND": ("decree", "Nghị định"),
    "QĐ": ("decision", "Quyết định"),
    "QD": ("decision", "Quyết định"),
    "QH": ("law", "Luật"),
    "NQ": ("resolution", "Nghị quyết"),
    "CT": ("directive", "Chỉ thị"),
}
# The kind of act on a header line of its own, or followed by its title: "LUẬT", "LUẬT AN NINH MẠNG 2018".
VI_KIND_LINE = re.compile(r"(?P<kind>BỘ LUẬT|LUẬT|PHÁP LỆNH|NGHỊ ĐỊNH|THÔNG TƯ(?: LIÊN TỊCH)?|NGHỊ QUYẾT|QUYẾT ĐỊNH)(?:\s{1,3}(?P<title>\S.{1,200}))?")
# The first provision heading ends the header: "Điều 1.", "Article 1", "제1조".
PROVISION_HEADING = re.compile(r"(?:Điều|Article|ARTICLE|Section|SECTION|§)\s{0,3}\d|제\s?\d{1,4}\s?조")
# "Số: 95/2025/TT-BTC" at the start of a line: the number block, not a sentence citing a number.
_OWN_NUMBER_LINE = re.compile(r"\s{0,12}Số\s{0,2}:\s{0,3}\d{1,5}/\d{4}/[A-ZĐ]")
# Words before an act's number that make it the act acted on: "sửa đổi, bổ sung một số điều của", "bãi bỏ".
_AMENDED_ACT = re.compile(r"(?:sửa\s+đổi|bổ\s+sung|bãi\s+bỏ|thay\s+thế|hướng\s+dẫn|của)[^.;]{0,120}$", re.I)
_VI_CODE = re.compile(r"/(?P<code>[A-ZĐ]{2})(?:-|\d|$)")
# A title line that names a statute: "Data Protection Act 2021", "개인정보 보호법 시행령".
EN_TITLE = re.compile(r"(?:The\s)?(?P<title>(?:[A-Z][\w'’()\-]{0,30}\s){0,10}(?:Act|Regulations|Rules|Code|Ordinance|Law)(?:\s\d{4})?)")
KO_TITLE = re.compile(r"(?P<title>[가-힣A-Za-z0-9·\s]{1,60}(?:법|법률|시행령|시행규칙|규칙|규정|고시|훈령|지침))")

_MONTHS = {m: i for i, m in enumerate(
    ("january february march april may june july august september october november december").split(), 1)}
_EN_DATE = r"(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(?P<m1>[A-Z][a-z]{2,8}),?\s(?P<y1>\d{4})|(?P<m2>[A-Z][a-z]{2,8})\s(?P<d2>\d{1,2}),?\s(?P<y2>\d{4})|(?P<iso>\d{4}-\d{2}-\d{2})"
EFFECTIVE: tuple[re.Pattern[str], ...] = (
    re.compile(
        rf"(?:(?:ha(?:s|ve)|take|takes|shall\stake|come|comes|shall\scome|enter|enters|shall\senter)\s(?:effect|into\s(?:force|effect))"
        rf"|effective)\s(?:from|on|as\sof)\s(?:the\s)?(?:{_EN_DATE})",
        re.I,
    ),
    re.compile(r"có\shiệu\slực(?:\sthi\shành)?\s(?:kể\s)?từ\sngày\s(?P<vd>\d{1,2})\stháng\s(?P<vm>\d{1,2})\snăm\s(?P<vy>\d{4})", re.I),
    re.compile(r"có\shiệu\slực(?:\sthi\shành)?\s(?:kể\s)?từ\sngày\s(?P<sd>\d{1,2})/(?P<sm>\d{1,2})/(?P<sy>\d{4})", re.I),
    re.compile(r"(?P<ky>\d{4})\s?(?:년|\.)\s?(?P<km>\d{1,2})\s?(?:월|\.)\s?(?P<kd>\d{1,2})\s?(?:일|\.)?\s?부터\s?시행"),
)
KO_ON_PROMULGATION = re.compile(r"공포한\s?날부터\s?시행")
# The header law.go.kr prints above a Korean statute: "[시행 2024. 9. 20.] [법률 제20445호, 2024. 9. 20., 일부개정]".
# It states the version's own effective date; a 부칙's "…부터 시행한다" may be the first enactment's.
_KO_DATE = r"(?P<{p}y>\d{{4}})\s?\.\s?(?P<{p}m>\d{{1,2}})\s?\.\s?(?P<{p}d>\d{{1,2}})\.?"
KO_HEADER_EFFECTIVE = re.compile(r"\[\s?시행\s?" + _KO_DATE.format(p="k") + r"\s?\]")
KO_HEADER_PROMULGATED = re.compile(
    r"\[\s?(?P<number>(?:법률|대통령령|총리령|[가-힣]{1,12}부령|[가-힣]{1,12}규칙)\s?제\s?\d{1,6}\s?호)\s?,\s?"
    + _KO_DATE.format(p="p") + r"\s?,?\s?(?P<kind>[가-힣]{1,8})?\s?\]"
)
# Front-matter fields that state a date, by what their name says (English, Korean, Vietnamese).
_FRONT_EFFECTIVE = re.compile(r"effective|in_force|commencement|시행(?:일|일자)?$|hiệu\s?lực", re.I)
_FRONT_PROMULGATED = re.compile(r"promulgat|enacted|adopted|공포(?:일|일자)$|ban\s?hành", re.I)
_FRONT_NUMBER = re.compile(r"공포번호|promulgation_?number", re.I)
_ANY_DATE = re.compile(r"(?P<y>\d{4})\s?[-./년]\s?(?P<m>\d{1,2})\s?[-./월]\s?(?P<d>\d{1,2})|(?P<c>\d{8})")
# The Official Journal's date above an EU act, and the act-wide sentences of its final article.
_OJ_DATE = re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})")
_EU_IN_FORCE = re.compile(
    r"This\s(?:Regulation|Directive|Decision)\sshall\senter\sinto\sforce\son\sthe\s(?P<nth>\w{3,12})\sday\s"
    r"following\s(?:that\sof\s)?its\spublication\sin\sthe\sOfficial\sJournal"
    r"|This\s(?:Regulation|Directive|Decision)\sshall\senter\sinto\sforce\son\sthe\s(?P<nth2>day)\sof\sits\spublication",
)
_EU_APPLIES = re.compile(rf"(?:^|\n|\.\s)(?:It|This\s(?:Regulation|Directive|Decision))\sshall\sapply\sfrom\s(?:{_EN_DATE})")
REPEALED_MARK = re.compile(r"\((?:repealed|revoked|hết hiệu lực|폐지)\)", re.I)


@dataclass
class Identity:
    title: str
    short_name: str  # what labels are prefixed with
    names: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)


def identify(lines: list[str], stem: str, title_hint: str | None, language: str) -> Identity:
    """The document's names, name keys and dates, from its text; the file stem when it says nothing."""
    head = [line.strip() for line in lines if line.strip()][:_HEAD_LINES]
    title = title_hint or (head[0] if head else stem)
    identity = Identity(title=title[:300], short_name=stem)
    _numbered(identity, head, language, lines)
    if not title_hint and "number" in identity.metadata:
        # Headers put the issuing body first ("MINISTRY OF HEALTH"); the instrument is the better title.
        identity.title = title = identity.short_name
    _titled(identity, title, language)
    if language == "vi":
        _vi_titled(identity, head)
    _dates(identity, "\n".join(lines))
    _eu_dates(identity, head, "\n".join(lines))
    if any(REPEALED_MARK.search(line) for line in head[:5]):
        identity.metadata["status"] = "repealed"
    identity.names = list(dict.fromkeys(identity.names))
    identity.keys = list(dict.fromkeys(identity.keys))
    return identity


def _numbered(identity: Identity, head: list[str], language: str, lines: list[str] | None = None) -> None:
    # A line in brackets cites another act ("(Điều 1 Luật số 25/2008/QH12 …)"), and so do the articles;
    # only the header before the first provision names this one.
    end = next((n for n, line in enumerate(head) if PROVISION_HEADING.match(line)), len(head))
    head = [line for line in head[:end] if not line.startswith("(")]
    # A Vietnamese header's "Số: 146/2018/NĐ-CP" is the document's own number by the drafting rules; a gazette
    # page may print that block after the text has begun, so a "Số:" line anywhere is read before any act a
    # title names ("Sửa đổi … của Thông tư số 44/2022/TT-BTC" names the act it amends, not this one).
    own = [line for line in (lines or []) if _OWN_NUMBER_LINE.match(line)] if language == "vi" else []
    for line in [*own[:1], *head]:
        match = VI_NUMBER_LINE.search(line)
        if match and language == "vi" and _AMENDED_ACT.search(line[: match.start()]):
            continue
        if match:
            number = match.group("number")
            code = _VI_CODE.search(number)
            kind, word = VI_TYPE_CODES.get(code.group("code"), (None, "")) if code else (None, "")
            _add_number(identity, kind, word, number, language)
            identity.metadata["number_from"] = "number block"
            return
    for line in head:
        match = NUMBERED_INSTRUMENT.search(line)
        if match and language == "vi" and _AMENDED_ACT.search(line[: match.start()]):
            continue
        if match:
            kind, number = doc_type(match.group("type")), match.group("number")
            _add_number(identity, kind, match.group("type"), number, language)
            return


def _add_number(identity: Identity, kind: str | None, word: str, number: str, language: str) -> None:
    english = (kind or "").capitalize()
    vietnamese = next((w for w, k in DOC_TYPES.items() if k == kind and not w.isascii()), "")
    local = {"vi": vietnamese.capitalize(), "en": english}.get(language) or word.strip().capitalize() or english
    identity.short_name = f"{local} {number}".strip()
    identity.names += [identity.short_name, *(f"{w} {number}" for w in (english, vietnamese.capitalize()) if w), number]
    identity.keys += number_name_keys(kind, number)
    identity.metadata["number"] = number
    if kind:
        identity.metadata["doc_type"] = kind


def _titled(identity: Identity, title: str, language: str) -> None:
    pattern = KO_TITLE if language == "ko" else EN_TITLE
    match = pattern.fullmatch(title.strip())
    if not match:
        return
    name = " ".join(match.group("title").split())
    identity.names.append(name)
    identity.keys.append(title_name_key(name))
    if "number" not in identity.metadata and len(name) <= 60:
        identity.short_name = name


def _vi_titled(identity: Identity, head: list[str]) -> None:
    """A Vietnamese header prints the act's kind on a line of its own and its title under it ("LUẬT" / "BẢO HIỂM Y
    TẾ"), or both on one line ("LUẬT AN NINH MẠNG 2018"): "Luật Bảo hiểm y tế" is the name other acts cite it by."""
    end = next((n for n, line in enumerate(head) if PROVISION_HEADING.match(line) or line.startswith("Căn cứ")), len(head))
    for n, line in enumerate(head[:end]):
        kind = VI_KIND_LINE.fullmatch(line)
        if kind is None or not line.isupper():
            continue
        title = kind.group("title") or (head[n + 1] if n + 1 < end else "")
        if not title or not title.isupper():
            return
        name = f"{kind.group('kind').capitalize()} {title[:1]}{title[1:].lower()}"
        undated = re.sub(r"\s\d{4}$", "", name)
        identity.names.append(name)
        identity.keys += list(dict.fromkeys([title_name_key(name), title_name_key(undated)]))
        return


def dates_from_front(identity: Identity, front: dict[str, str]) -> None:
    """A file's own front matter states the version's dates: they win over anything read from the text."""
    for key, value in front.items():
        date = _front_date(value)
        if date is None and value.strip() and (_FRONT_EFFECTIVE.search(key) or _FRONT_PROMULGATED.search(key)):
            # Kept, not dropped: a dated version whose date cannot be read must be refused by name (ingest.versions).
            identity.metadata["date_error"] = f"{key}: {value.strip()!r} is not a date"
        if date and _FRONT_EFFECTIVE.search(key):
            identity.metadata["effective_date"] = date
            identity.metadata["version_dated"] = "effective"
        elif date and _FRONT_PROMULGATED.search(key):
            identity.metadata["promulgated"] = date
            identity.metadata.setdefault("version_dated", "promulgated")
        elif _FRONT_NUMBER.search(key) and value.strip():
            identity.metadata["promulgation_number"] = value.strip()


def _front_date(value: str) -> str | None:
    match = _ANY_DATE.search(value)
    if match is None:
        return None
    if match.group("c"):
        y, m, d = match.group("c")[:4], match.group("c")[4:6], match.group("c")[6:]
    else:
        y, m, d = match.group("y"), match.group("m"), match.group("d")
    return f"{int(y):04d}-{int(m):02d}-{int(d):02d}" if 1 <= int(m) <= 12 and 1 <= int(d) <= 31 else None


def _dates(identity: Identity, text: str) -> None:
    head = "\n".join(text.split("\n", _HEAD_LINES)[:_HEAD_LINES])
    promulgated = KO_HEADER_PROMULGATED.search(head)
    if promulgated:
        identity.metadata["promulgated"] = _iso({"ky": promulgated["py"], "km": promulgated["pm"], "kd": promulgated["pd"]}) or ""
        identity.metadata["promulgation_number"] = " ".join(promulgated["number"].split())
        if promulgated["kind"]:
            identity.metadata["amendment_kind"] = promulgated["kind"]
    header = KO_HEADER_EFFECTIVE.search(head)
    if header:
        identity.metadata["effective_date"] = _iso(header.groupdict()) or ""
        identity.metadata["version_dated"] = "effective"
        return
    for pattern in EFFECTIVE:
        match = pattern.search(text)
        if match:
            date = _iso(match.groupdict())
            if date:
                identity.metadata["effective_date"] = date
                return
    if KO_ON_PROMULGATION.search(text):
        identity.metadata["effective_date"] = "on promulgation"


def _eu_dates(identity: Identity, head: list[str], text: str) -> None:
    """An EU act's dates from its final article: "This Regulation shall enter into force on the twentieth day
    following that of its publication in the Official Journal" (counted from the Journal's date printed above the
    act, "27.12.2022") and "It shall apply from 17 January 2025", the date its provisions, amending ones included,
    take effect when it is later than the entry into force. A provision given another date of its own ("Article 5
    shall apply from …") keeps the act's: only the act as a whole is read here."""
    published = next((m for m in map(_OJ_DATE.fullmatch, head[:3]) if m), None)
    counted = _EU_IN_FORCE.search(text)
    if published and counted and not identity.metadata.get("effective_date"):
        days = {"day": 0, "twentieth": 20, "third": 3, "fifth": 5, "tenth": 10, "first": 1}.get((counted["nth"] or counted["nth2"]).lower())
        if days is not None:
            start = datetime.date(int(published["y"]), int(published["m"]), int(published["d"])) + datetime.timedelta(days=days)
            identity.metadata["effective_date"] = start.isoformat()
    applies = _EU_APPLIES.search(text)
    day = _iso(applies.groupdict()) if applies else None
    if day and day > (identity.metadata.get("effective_date") or ""):
        identity.metadata["applies_from"] = day


def _iso(groups: dict[str, str | None]) -> str | None:
    if groups.get("iso"):
        return groups["iso"]
    for d, m, y in (("d1", "m1", "y1"), ("d2", "m2", "y2"), ("vd", "vm", "vy"), ("sd", "sm", "sy"), ("kd", "km", "ky")):
        year, day = groups.get(y), groups.get(d)
        if year and day:  # the date patterns capture the three together
            month = groups.get(m) or ""
            month_no = int(month) if month.isdigit() else _MONTHS.get(month.lower())
            if month_no:
                return f"{int(year):04d}-{month_no:02d}-{int(day):02d}"
    return None
