"""Vietnamese Official Gazette (Công báo) furniture, removed before any heading is read.

Text extracted from gazette pages carries what the printer put around the law:

    CÔNG BÁO/Số 30/Ngày 21-01-2026        ← page header, with the bare page number above or below it
    11
    Ký bởi: CÔNG BÁO NƯỚC CỘNG HÒA …       ← digital-signature block (or "Người ký: / Email: /
    Cơ quan: VĂN PHÒNG CHÍNH PHỦ              Cơ quan: / Thời gian ký:"), anywhere, even between an
    Ngày ký: 2026-01-22 15:47:40 +07:00       instruction's closing quote and the next instruction
    [daky]                                ← signature placeholder
    Nơi nhận:                             ← the distribution list after the signature
    - Như Điều 3; …

None of it is law and all of it can fall mid-sentence or inside a quoted replacement text, so the lines
go before parsing; everything else is kept, in order (line numbers of what stays are not preserved). The same
blocks come with text taken from a web page ("Nơi nhận:- Ban Bí thư …" on one line, "KT. BỘ TRƯỞNG … (Đã ký)"),
so every text is cleaned, not only gazette pages; each pattern is a whole line of Vietnamese furniture.
"""
from __future__ import annotations

import re

PAGE_HEADER = re.compile(r"\s{0,12}CÔNG\s{0,2}BÁO\s{0,2}/\s{0,2}Số\s{0,2}[\d\s+]{1,20}/\s{0,2}Ngày\s{0,2}[\d\s\-/.]{6,14}\s{0,6}")
_PAGE_NUMBER = re.compile(r"\s{0,12}\d{1,4}\s{0,6}")
_SIGNATURE_START = re.compile(r"\s{0,6}(?:Người\s+ký|Ký\s+bởi)\s{0,2}:[^\n]{0,300}")
_SIGNATURE_FIELD = re.compile(r"\s{0,6}(?:Email|Cơ\s+quan|Thời\s+gian\s+ký|Ngày\s+ký)\s{0,2}:[^\n]{0,300}")
_PLACEHOLDER = re.compile(r"\s{0,6}[\[(]\s{0,2}(?:daky|đã\s+ký|ký)\s{0,2}[\])]\s{0,6}", re.I)
# The signer's capacity above the signature: "TM. CHÍNH PHỦ", "KT. BỘ TRƯỞNG", "KT. BỘ TRƯỞNGTHỨ TRƯỞNG(Đã ký)Nguyễn Đức Chi".
_SIGNER = re.compile(r"\s{0,6}(?:TM|KT|Q|TL|TUQ)\.\s{0,2}(?P<capacity>[^()\n]{2,80})(?:\(Đã ký\)[^\n]{0,80})?")
_BANNER = re.compile(r"\s{0,6}(?:PHẦN\s+)?VĂN\s+BẢN\s+(?:QUY\s+PHẠM\s+PHÁP\s+LUẬT|HỢP\s+NHẤT|KHÁC)\s{0,6}")
_RECIPIENTS = re.compile(r"\s{0,6}Nơi\s+nhận\s{0,2}:[^\n]{0,3000}")
_RECIPIENT_ITEM = re.compile(r"\s{0,6}[-–+•]\s{0,3}[^\n]{1,300}")
_SIGNATURE_BLOCK_FIELDS = 4




def strip_furniture(texts: list[str]) -> list[str]:
    """The lines without page headers and their page numbers, signature blocks, placeholders, banners and
    the recipients list ("Nơi nhận:" with its "- …" items)."""
    drop: set[int] = set()
    for n, text in enumerate(texts):
        if PAGE_HEADER.fullmatch(text):
            drop.add(n)
            # One page number per header, above or below it (a layout keeps one side); the other side may
            # be a table's bare row number.
            for step in (-1, 1):
                near = _next_filled(texts, n, step)
                if near is not None and near not in drop and _PAGE_NUMBER.fullmatch(texts[near]):
                    drop.add(near)
                    break
        elif _SIGNATURE_START.fullmatch(text):
            drop.add(n)
            follow = n + 1
            while follow < len(texts) and follow - n <= _SIGNATURE_BLOCK_FIELDS and _SIGNATURE_FIELD.fullmatch(texts[follow]):
                drop.add(follow)
                follow += 1
        elif _PLACEHOLDER.fullmatch(text) or _BANNER.fullmatch(text) or _signer(text):
            drop.add(n)
        elif _RECIPIENTS.fullmatch(text):
            drop.add(n)
            follow = n + 1
            while follow < len(texts) and _RECIPIENT_ITEM.fullmatch(texts[follow]):
                drop.add(follow)
                follow += 1
    return [t for n, t in enumerate(texts) if n not in drop]


def _signer(text: str) -> bool:
    """The capacity is written in capitals (Vietnamese capitals interleave with small letters in Unicode, so
    no character range tells them apart)."""
    match = _SIGNER.fullmatch(text)
    # Written in Vietnamese ("CHÍNH PHỦ", "BỘ TRƯỞNG"): an English "Q. HOW DO I APPLY" stays.
    return match is not None and match["capacity"] == match["capacity"].upper() and not match["capacity"].isascii()


def _next_filled(texts: list[str], n: int, step: int) -> int | None:
    """The nearest non-blank line before (step -1) or after (step 1) line n, at most three lines away."""
    for k in range(1, 4):
        m = n + step * k
        if 0 <= m < len(texts) and texts[m].strip():
            return m
    return None


# A line ending in a comma or a word that needs its object ("… quy định tại", "… khoản 4 Điều 7, Điều 13,") goes
# on in the next line, whatever that line starts with. Case matters: the document-type line "THÔNG TƯ" above
# "Điều 1." ends nothing.
_GOES_ON = re.compile(
    r"(?:[,(“\-–]|(?<!\w)(?:và|hoặc|của|tại|theo|các|đến|từ|với|bởi|trong|về|cho|là|số|khoản\s+\d{1,3}|điểm\s+[a-zđ]|"
    r"Điều\s+\d{1,4}[a-zđ]?|Thông\s+tư|Nghị\s+định|Luật|Quyết\s+định))\s*$"
)


# The enacting formula closes the preamble, whatever mark it ends with ("Quốc hội ban hành Luật … số 28/2004/QH11,").
_ENACTING = re.compile(r"^\s{0,6}[^\W\d_].{0,200}?(?<!\w)ban\s+hành\s+(?:Luật|Bộ\s+luật|Pháp\s+lệnh|Nghị\s+định|Thông\s+tư|Nghị\s+quyết|Quyết\s+định)(?!\w)")


def may_open_heading(previous: str, line: str) -> bool:
    """A worded heading ("Điều 16.", "Phụ lục II") starts a unit only after a line that can end one."""
    return not _GOES_ON.search(previous) or _ENACTING.match(previous) is not None


# An amending item's first words: "Sửa đổi, bổ sung khoản 1 …", "Bổ sung Điều 5a …", "Bãi bỏ …", "Thay thế cụm từ …".
INSTRUCTION_START = re.compile(r"[“\"]?\s{0,2}(?:Sửa\s+đổi|Sửa\s+tên|Bổ\s+sung|Bãi\s+bỏ|Thay\s+thế|Đính\s+chính|Bỏ\s+cụm\s+từ)(?!\w)", re.I)


_ITEM_LABEL = re.compile(r"\s{0,6}(?:Điều\s{1,3}\d{1,4}[a-zđ]?\s{0,3}[.:]|\d{1,3}\.|[a-zđ]\)|[-–+•])?\s{0,3}")


def introduces_quote(previous: str) -> bool:
    """An amending item ("Điều 1. Sửa đổi, bổ sung Điều 6", "2. Bổ sung Điều 5a") introduces the quotation under it,
    with or without "như sau:"."""
    label = _ITEM_LABEL.match(previous)
    return bool(INSTRUCTION_START.match(previous[label.end():] if label else previous))
