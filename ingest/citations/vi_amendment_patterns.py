"""Regexes of the Vietnamese amending grammar (vi_amendments.py holds the logic).

An amending Thông tư / Nghị định / Luật writes each instruction as one sentence: a verb, the provisions
it acts on (finest first: "điểm a, điểm c khoản 2 Điều 7 và khoản 3"), optionally the amended act, and
"như sau:" before the quoted new text:

    Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP     ← names the act for its items
    5. Sửa đổi, bổ sung điểm a, điểm c, điểm d khoản 2 Điều 7 và khoản 3 như sau:
    10. Bổ sung Điều 15a như sau:            b) Bổ sung khoản 3 vào Điều 7 như sau:
    b) Bãi bỏ khoản 2 và khoản 4 Điều 5, khoản 4 Điều 7, Điều 13;
    1. Thay thế cụm từ “A” bằng cụm từ “B” tại khoản 1 Điều 38;
    b) Thay thế Mẫu số 01, Mẫu số 02 … tương ứng bằng Mẫu số 01, Mẫu số 02 … ban hành kèm theo Nghị định này;

Every repetition is bounded; each pattern runs over one instruction sentence.
"""
from __future__ import annotations

import re

_SP = r"\s{1,3}"
# "Thay cụm từ “A” bằng cụm từ “B”" is the older drafting of "thay thế cụm từ" (never "thay đổi").
_VERB = r"(?:sửa{_SP}đổi|sửa|bổ{_SP}sung|bãi{_SP}bỏ|thay{_SP}thế|thay(?={_SP}(?:cụm{_SP}từ|từ|các{_SP}từ)(?!\w))|đính{_SP}chính|bỏ)".replace("{_SP}", _SP)

# An instruction's first words, after the item's own label ("5.", "b)", "-", an opening quote).
LABEL = re.compile(r"\s{0,6}(?:[“\"]\s{0,2})?(?:\d{1,3}\.|[a-zđ]\)|[-–+•])?\s{0,3}(?:[“\"]\s{0,2})?")
START = re.compile(rf"(?i:{_VERB})(?!\w)")
# The verb run at the start: "Sửa đổi, bổ sung", "Bãi bỏ, thay thế, bổ sung", "Sửa đổi tên".
VERBS = re.compile(rf"(?i:(?P<verbs>{_VERB}(?:\s{{0,3}}(?:,|và)?{_SP}{_VERB}){{0,3}}))(?!\w)")
# A later instruction in the same sentence run: "…khoản 4 Điều 7; thay thế cụm từ …".
NEXT_INSTRUCTION = re.compile(rf"(?<=[.;])\s{{1,3}}(?=(?i:{_VERB}){_SP})")

# “…” phrases are words, never provisions; curly or straight, one level of nesting kept inside.
QUOTED = re.compile(r"“[^“”]{0,2000}(?:“[^“”]{0,400}”[^“”]{0,2000}){0,3}”|\"[^\"\n]{0,2000}\"")
WORDS = re.compile(rf"(?i:cụm{_SP}từ|từ|các{_SP}từ|câu)\s{{0,3}}$")

# Provisions, finest first. "tên Điều" (the article's title) may stand without a number.
TOKEN = re.compile(
    rf"(?<!\w)(?P<title>(?i:tên|tiêu{_SP}đề){_SP}(?:của{_SP})?)?(?P<kind>(?i:điểm|khoản|điều|mục|chương|phụ{_SP}lục|mẫu{_SP}số|mẫu))"
    rf"(?:{_SP}(?P<num>\d{{1,4}}[a-zđ]?)(?=[\s,;.:)]|$)|{_SP}(?P<roman>[IVXLC]{{1,6}})(?![\w])|{_SP}(?P<letter>[a-zđ])(?![\w]))?"
)
# More numbers of the same kind after one kind word: "điểm a, b và d", "các Điều 9, 10".
MORE_NUMBERS = re.compile(rf"\s{{0,3}}(?:,|và|hoặc){_SP}(?!(?i:điểm|khoản|điều|mục|chương|phụ|mẫu|tên)\b)(?P<num>\d{{1,4}}[a-zđ]?|[a-zđ]|[IVXLC]{{1,6}})(?![\w/])")
# "Điều 10 đến Điều 14", "khoản 2 - khoản 5": a span of one kind.
RANGE = re.compile(r"\s{0,3}(?:đến|tới|-|–)\s{0,3}")
# "gạch đầu dòng thứ nhất của điểm g": a dash of a point is no unit of its own; the point is the target.
DASH = re.compile(rf"(?i:(?:các{_SP})?gạch{_SP}đầu{_SP}dòng[^,;]{{0,30}}?(?:của|tại){_SP})")

# The amended act, when written: "của Thông tư số 44/2022/TT-BTC", "Nghị định số 112/2021/NĐ-CP".
# Any case: a chapter of a decree that amends several decrees names each in capitals ("… CỦA NGHỊ ĐỊNH SỐ 87/2009/NĐ-CP").
ACT = re.compile(
    r"(?P<dtype>(?i:thông\s{1,2}tư(?:\s{1,2}liên\s{1,2}tịch)?|nghị\s{1,2}định|bộ\s{1,2}luật|luật|quyết\s{1,2}định"
    r"|nghị\s{1,2}quyết(?:\s{1,2}liên\s{1,2}tịch)?|pháp\s{1,2}lệnh))"
    r"(?:\s{1,3}[^\s\d,;:()]{1,15}){0,8}?\s{1,3}(?:(?i:số)\s{1,3})?(?P<dnum>\d{1,5}/\d{4}/[A-ZĐ0-9][A-ZĐ0-9\-]{0,24}|\d{1,5}/\d{4})(?![\w/])"
)
# An act named by its title, without a number: "của Luật Bảo hiểm y tế", "CỦA LUẬT ĐIỆN LỰC", "Bộ luật Tố tụng dân sự".
# The title runs word by word (a comma may join "Phòng, chống …") until a word that starts what follows a title: its
# number or date, "như sau", "đã được sửa đổi", "tại", "và Luật …", "này". "pháp luật về …" names no act.
_TITLE_STOP = (r"(?:số|ngày|năm|như|đã|được|bị|tại|theo|này|đó|trên|có|hết|quy{_SP}định|ban{_SP}hành|và|hoặc|"
               r"luật|bộ{_SP}luật|pháp{_SP}lệnh|nghị{_SP}định|thông{_SP}tư)(?!\w)").replace("{_SP}", _SP)
TITLED = re.compile(
    rf"(?<!\w)(?<!(?i:pháp)\s)(?P<dtype>(?i:bộ{_SP}luật|luật|pháp{_SP}lệnh))\s{{1,3}}"
    rf"(?P<title>(?!(?i:{_TITLE_STOP}))[^\W\d_][\w\-]{{0,19}}(?:(?:,?\s{{1,3}})(?!(?i:{_TITLE_STOP}))[^\W\d_][\w\-]{{0,19}}){{0,12}})"
)
# "(sau đây gọi là Luật Bảo hiểm y tế)", "(sau đây gọi tắt là …)": a short name the document gives an act it numbered.
CALLED = re.compile(r"\(\s{0,2}(?i:sau\s{1,3}đây\s{1,3})?(?i:gọi)(?:\s{1,3}(?i:tắt|chung))?\s{1,3}(?i:là)\s{1,3}(?P<name>[^()]{3,160}?)\s{0,2}\)")

# The passive form, common in amending laws: "1. Khoản 2 Điều 5 được sửa đổi, bổ sung như sau:", "Điều 7 được bãi bỏ.",
# "Cụm từ “A” tại khoản 1 Điều 4 được thay thế bằng cụm từ “B”.", "Điều 5 được bổ sung khoản 3 như sau:".
SUBJECT = re.compile(rf"(?i:(?:các|những){_SP})?(?i:tên|cụm{_SP}từ|từ|các{_SP}từ|điểm|khoản|điều|mục|chương|phụ{_SP}lục|mẫu)(?!\w)")
PASSIVE = re.compile(rf"(?<!\w)(?i:được|bị){_SP}(?P<verbs>(?i:{_VERB})(?:\s{{0,3}}(?:,|và){_SP}(?i:{_VERB})){{0,3}})(?!\w)")
# After a passive verb, the source of a change (a consolidated text's footnote), not an instruction.
PROVENANCE = re.compile(rf"^\s{{0,3}}(?i:theo|bởi|tại|căn{_SP}cứ)(?!\w)")

# "Thông tư số 12/2010/TT-BYT ngày … hết hiệu lực kể từ ngày …": an effect clause that ends a whole act.
EXPIRES = re.compile(r"[^.;]{0,400}?(?<!\w)hết\s{1,3}hiệu\s{1,3}lực(?!\w)")

# "… này" (this act) ends a target list of the amending act's own provisions ("ban hành kèm theo Nghị định này").
THIS_ACT = re.compile(r"(?i:thông{_SP}tư|nghị{_SP}định|luật|quyết{_SP}định|văn{_SP}bản){_SP}này".replace("{_SP}", _SP))

# "Sửa đổi, bổ sung tên Nghị định": the act's own title.
ACT_TITLE = re.compile(rf"(?i:tên){_SP}(?i:của{_SP})?(?i:thông{_SP}tư|nghị{_SP}định|luật|quyết{_SP}định|nghị{_SP}quyết)(?!\w)")

# Where the list of targets ends and what follows says more about the instruction.
INTO = re.compile(rf"(?<!\w)(?i:vào{_SP}(?:sau{_SP}|trước{_SP}|cuối{_SP})?|sau{_SP}|trước{_SP})(?=(?i:điểm|khoản|điều|mục|chương|phụ|mẫu|tên))")
BY = re.compile(rf"(?<!\w)(?i:(?:tương|tướng){_SP}ứng{_SP})?(?i:bằng)(?!\w)")
AT = re.compile(r"(?<!\w)(?i:tại|trong|ở|của)(?!\w)")
EXCEPT = re.compile(rf"(?<!\w)(?i:trừ|ngoại{_SP}trừ)(?!\w)")
AS_FOLLOWS = re.compile(rf"(?i:như{_SP}sau|quy{_SP}định{_SP}(?:như{_SP}sau|về))")
# "một số điều", "các khoản" with no number after them: an umbrella over the items below ("các Điều 9, Điều 10"
# and "các Điều từ Điều 10 đến Điều 14" name their targets).
# "một số phụ lục, mẫu biểu của Thông tư …" names no annex either: it introduces the items that do.
SOME = re.compile(rf"(?i:một{_SP}số|các){_SP}(?i:điều|khoản|điểm|mẫu|cụm|từ|nội{_SP}dung|tên|mục|phụ{_SP}lục|biểu{_SP}mẫu"
                  rf"|quy{_SP}định|văn{_SP}bản)(?!\w|{_SP}(?:\d|(?i:từ|số)\s))")
