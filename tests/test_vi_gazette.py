"""Vietnamese gazette documents: furniture removed, headings only where they can start, annexes as units,
and the amending grammar's instructions as typed edges into the amended act (sentences from real Công báo
texts; the last tests score the shared vi-amendments gold when it is there)."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from core.domain import Edge, EdgeType
from ingest.citations.vi_amendments import Action, parse_instruction
from ingest.graph import CorpusGraph, build_graph
from ingest.parsers.generic.vi_gazette import strip_furniture

ORIGINAL = """CÔNG BÁO/Số 1053 + 1054/Ngày 23-12-2021
3
Số: 112/2021/NĐ-CP
NGHỊ ĐỊNH
Quy định chi tiết một số điều của Luật Người lao động Việt Nam đi làm việc ở nước ngoài theo hợp đồng
Điều 4. Tiền ký quỹ
1. Mức ký quỹ là 01 tỷ đồng.
2. Doanh nghiệp nộp tiền ký quỹ tại ngân hàng.
3. Tiền ký quỹ được rút khi có văn bản của Bộ.
Điều 5. Hồ sơ
1. Hồ sơ gồm:
a) Văn bản đề nghị;
c) Bản sao giấy phép.
2. Doanh nghiệp nộp hồ sơ theo quy định tại khoản 4 Điều 7,
Điều 16, Điều 17 của Nghị định này.
Điều 6. Trách nhiệm của Bộ Kế hoạch và Đầu tư
Bộ Kế hoạch và Đầu tư hướng dẫn thi hành.
Phụ lục I
Mẫu số 01
Giấy phép
Điều 1. Cấp Giấy phép đối với doanh nghiệp
Điều 2. Địa điểm hoạt động
Mẫu số 02. Văn bản đề nghị
"""

AMENDING = """CÔNG BÁO/Số 30/Ngày 21-01-2026
Số: 372/2025/NĐ-CP
NGHỊ ĐỊNH
Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP
Căn cứ Nghị định số 29/2025/NĐ-CP sửa đổi, bổ sung một số điều của Nghị định số 1/2020/NĐ-CP;
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP
1. Sửa đổi, bổ sung khoản 1 và khoản 3 Điều 4 như sau:
“1. Mức ký quỹ là 02 tỷ đồng.
3. Tiền ký quỹ được rút theo “văn bản của Bộ Nội vụ”.
4. Ngân hàng thông báo cho Bộ.”
Ký bởi: CÔNG BÁO NƯỚC CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM
Cơ quan: VĂN PHÒNG CHÍNH PHỦ
Ngày ký: 2026-01-22 15:47:40 +07:00
2. Sửa đổi, bổ sung điểm c khoản 1 và khoản 2 Điều 5 như sau:
“Điều 5. Hồ sơ
c) Bản sao giấy phép đã đổi.”
3. Thay thế cụm từ “Bộ Kế hoạch và Đầu tư” bằng cụm từ “Bộ Tài chính” tại tên của Điều 6.
4. Bổ sung Điều 5a vào sau Điều 5 như sau:
“Điều 5a. Báo cáo
Doanh nghiệp báo cáo hằng năm.”
5. Bãi bỏ Mẫu số 01 tại Phụ lục I và khoản 9 Điều 4.
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2026; khoản 3 Điều 4 được sửa đổi như trên.
"""


def _graph(tmp_path: Path, files: dict[str, str]) -> CorpusGraph:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return build_graph(sorted(tmp_path.iterdir()), "t", "generic")


def _amending_edges(graph: CorpusGraph, source_prefix: str) -> set[tuple[str, str, str, str | None]]:
    return {(e.source.removeprefix(source_prefix), e.target, e.type.value if isinstance(e.type, EdgeType) else e.type, e.action)
            for e in graph.edges if e.source.startswith(source_prefix) and e.type in (EdgeType.AMENDS, EdgeType.REPLACES)}


def test_furniture_lines_go_and_the_law_stays() -> None:
    lines = ["Tiền ký quỹ được rút", "", "CÔNG BÁO/Số 30/Ngày 21-01-2026 ", "11", "", "khi có văn bản;",
             "Người ký: CỔNG THÔNG TIN ĐIỆN TỬ CHÍNH PHỦ", "Email: thongtinchinhphu@chinhphu.vn",
             "Cơ quan: VĂN PHÒNG CHÍNH PHỦ", "Thời gian ký: 16.12.2025 16:44:22 +07:00", "[daky] ",
             "12", "Điện thoại: ........ Email: ........"]
    lines += ["Nơi nhận:- Ban Bí thư Trung ương Đảng; - Thủ tướng, các Phó Thủ tướng Chính phủ;",
              "KT. BỘ TRƯỞNGTHỨ TRƯỞNG(Đã ký)Nguyễn Đức Chi", "TM. CHÍNH PHỦ", "(Đã ký)", "Q. HOW DO I APPLY"]
    kept = [line for line in strip_furniture(lines) if line.strip()]
    # The form field "Email:" of a template is text; only the signature block's fields go.
    assert kept == ["Tiền ký quỹ được rút", "khi có văn bản;", "12", "Điện thoại: ........ Email: ........", "Q. HOW DO I APPLY"]


@pytest.mark.parametrize(("sentence", "action", "targets"), [
    ("Sửa đổi, bổ sung điểm a, điểm c, điểm d khoản 2 Điều 7 và khoản 3 như sau:", Action.AMEND,
     [(("art", "7"), ("cl", "2"), ("pt", "a")), (("art", "7"), ("cl", "2"), ("pt", "c")),
      (("art", "7"), ("cl", "2"), ("pt", "d")), (("art", "7"), ("cl", "3"))]),
    ("Sửa đổi, bổ sung tên Điều và khoản 7 Điều 39 như sau:", Action.AMEND, [(("art", "39"),), (("art", "39"), ("cl", "7"))]),
    ("Bãi bỏ khoản 2 và khoản 4 Điều 5, khoản 4 Điều 7, Điều 13, Điều 14, Điều 16, khoản 2 Điều 23;", Action.REPEAL,
     [(("art", "5"), ("cl", "2")), (("art", "5"), ("cl", "4")), (("art", "7"), ("cl", "4")), (("art", "13"),),
      (("art", "14"),), (("art", "16"),), (("art", "23"), ("cl", "2"))]),
    ("Bãi bỏ tên Mục 1, Mục 2, Mục 3 trong Chương III.", Action.REPEAL,
     [(("ch", "III"), ("sec", "1")), (("ch", "III"), ("sec", "2")), (("ch", "III"), ("sec", "3"))]),
    ("Thay thế Mẫu số 01, Mẫu số 02, Mẫu số 10 tướng ứng bằng Mẫu số 01, Mẫu số 02, Mẫu số 07 ban hành kèm theo Nghị định này;",
     Action.REPLACE, [(("form", "01"),), (("form", "02"),), (("form", "10"),)]),
    ("Bổ sung khoản 3 vào Điều 7 như sau:", Action.ADD, [(("art", "7"),)]),
    ("Bãi bỏ các Điều từ Điều 10 đến Điều 13 Thông tư số 44/2022/TT-BTC.", Action.REPEAL,
     [(("art", "10"),), (("art", "11"),), (("art", "12"),), (("art", "13"),)]),
])
def test_instruction_targets(sentence: str, action: Action, targets: list) -> None:
    instruction = parse_instruction(sentence)
    assert instruction is not None
    assert instruction.action is action
    assert instruction.targets == targets


def test_phrase_replacement_reads_the_words_and_the_whole_act() -> None:
    instruction = parse_instruction("Thay thế cụm từ “Lao động - Thương binh và Xã hội” bằng cụm từ “Nội vụ” tại Thông tư "
                                    "số 44/2022/TT-BTC, trừ cụm từ “Bộ Lao động - Thương binh và Xã hội” quy định tại khoản 4 "
                                    "Điều 7 Thông tư số 44/2022/TT-BTC")
    assert instruction is not None and instruction.action is Action.REPLACE_WORDS
    assert (instruction.words_from, instruction.words_to) == ("Lao động - Thương binh và Xã hội", "Nội vụ")
    assert instruction.targets == [()] and instruction.act is not None and instruction.act.number == "44/2022/TT-BTC"
    umbrella = parse_instruction("Bãi bỏ, thay thế, bổ sung một số mẫu tại Phụ lục I như sau:")
    assert umbrella is not None and umbrella.umbrella and umbrella.action is Action.AMEND
    assert parse_instruction("Thông tư này có hiệu lực thi hành từ ngày 20 tháng 10 năm 2025") is None


def test_amending_document_edges(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"nd112.txt": ORIGINAL, "nd372.txt": AMENDING})
    units = {u.id: u for d in graph.documents for u in d.units}
    # Identity from the document's own number block, not from the act its title amends.
    assert units["t/nd372"].metadata["number"] == "372/2025/NĐ-CP"
    edges = _amending_edges(graph, "t/nd372/")
    assert edges == {
        ("art-1/cl-1", "t/nd112/art-4/cl-1", "AMENDS", "replaced"),
        ("art-1/cl-1", "t/nd112/art-4/cl-3", "AMENDS", "replaced"),
        ("art-1/cl-2", "t/nd112/art-5/cl-1/pt-c", "AMENDS", "replaced"),
        ("art-1/cl-2", "t/nd112/art-5/cl-2", "AMENDS", "replaced"),
        ("art-1/cl-3", "t/nd112/art-6", "AMENDS", "words replaced"),
        ("art-1/cl-4", "t/nd112/art-5a", "AMENDS", "inserted"),
        ("art-1/cl-5", "t/nd112/annex-i/form-01", "REPLACES", "repealed"),
    }
    # Quoted new text is the item's, never the amending act's own structure; the signature block is gone.
    own = [u.label for u in units.values() if u.document_id == "t/nd372" and u.type == "article"]
    assert own == ["Nghị định 372/2025/NĐ-CP Điều 1", "Nghị định 372/2025/NĐ-CP Điều 2"]
    assert [u.id for u in units.values() if u.parent_id == "t/nd372/art-1"] == [f"t/nd372/art-1/cl-{n}" for n in range(1, 6)]
    assert not any("Ký bởi" in u.text or "CÔNG BÁO" in u.text for u in units.values())
    recorded = json.loads(units["t/nd372/art-1/cl-1"].metadata["instructions"])
    assert recorded[0]["targets"] == ["khoản 1 Điều 4", "khoản 3 Điều 4"] and "02 tỷ đồng" in recorded[0]["new_text"]
    # A target the amended act does not have: a REFERENCES edge with the words, and a warning.
    missing = [e for e in graph.edges if e.source == "t/nd372/art-1/cl-5" and e.type is EdgeType.REFERENCES
               and "khoản 9 Điều 4" in (e.citation or "")]
    assert missing and any("khoản 9 Điều 4" in note for note in graph.notes)


def test_wrapped_lines_and_annex_templates_make_no_articles(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"nd112.txt": ORIGINAL})
    document = graph.documents[0]
    articles = [u.label.rsplit(" ", 2)[-2:] for u in document.units if u.type == "article"]
    assert articles == [["Điều", "4"], ["Điều", "5"], ["Điều", "6"]]
    annexes = [u.id.removeprefix("t/nd112/") for u in document.units if u.type == "annex"]
    assert annexes == ["annex-i", "annex-i/form-01", "annex-i/form-02"]
    assert "Điều 1. Cấp Giấy phép" in next(u.text for u in document.units if u.id.endswith("form-01"))


def test_unbalanced_quote_still_ingests_with_a_warning(tmp_path: Path, test_settings) -> None:
    from ingest.cli import render_summary
    from ingest.pipeline import run_ingest

    text = AMENDING.replace("4. Ngân hàng thông báo cho Bộ.”", "4. Ngân hàng thông báo cho Bộ.")
    graph = _graph(tmp_path, {"nd112.txt": ORIGINAL, "nd372.txt": text})
    # The ingest report prints both warnings: the unclosed quotation, and the instruction whose target is missing.
    report = render_summary(run_ingest(sorted(tmp_path.iterdir()), "t", test_settings, "generic", dry_run=True))
    notes = [line for line in report.splitlines() if line.startswith("note: ")]
    assert any("unbalanced quotation marks" in n and "line 8" in n for n in notes)
    assert any("khoản 9 Điều 4" in n and "kept as a reference" in n for n in notes)
    # The warning names the file and the line where the quotation opened (line 8 of nd372.txt) and where it was ended.
    assert any("nd372.txt: unbalanced quotation marks: the quotation opened at line 8 ““1. Mức ký quỹ là 02 tỷ đồng.”" in note
               and "ended before line 14 “2. Sửa đổi, bổ sung điểm c" in note for note in graph.notes), graph.notes
    # The next instruction still starts its own item and still amends.
    assert ("art-1/cl-2", "t/nd112/art-5/cl-2", "AMENDS", "replaced") in _amending_edges(graph, "t/nd372/")


def test_gold_vi_amendments(shared_root: Path) -> None:
    folder = shared_root / "corpora/real/vi-amendments"
    if not folder.exists():
        pytest.skip(f"{folder} not found (set CITEWALK_SHARED)")
    from bench.real.vi_gazette import gazette_checks

    gold = json.loads((folder / "gold_amendments.json").read_text(encoding="utf-8"))
    graph = build_graph(sorted(folder.glob("*.txt")), "g", "generic")
    checks = {c.name: c for c in gazette_checks(graph, gold)}
    # A repealed article reads repealed, by the repealing item, from the amending decree's date in force.
    from core.current_law import ParsedLaw

    units = {u.id: u for d in graph.documents for u in d.units}
    article = next(u.id for u in units.values() if u.document_id.endswith("nghi-dinh-so-112-2021-nd-cp-34959")
                   and u.label.endswith("Điều 13"))
    law = ParsedLaw(units, graph.edges).read(article)
    assert law.repealed and law.repealed_by == "Nghị định 372/2025/NĐ-CP Điều 1 khoản 15 điểm b" and law.repealed_on == "2026-01-01"
    assert float(checks["gazette instructions → edges, recall within one level"].value) >= 0.95
    assert float(checks["gazette instructions → edges, recall at the exact level"].value) >= 0.85
    assert float(checks["gazette amending edges precision"].value) >= 0.95
    assert checks["gazette amending edges outside the amended document"].value == 0
    assert checks["gazette units holding a page header / a signature line"].ok
    assert checks["VBHN amendment footnotes → history entries with the right amender"].ok
    assert checks["VBHN AMENDS/REPLACES edges from the consolidated text to its amender (wrong direction)"].value == 0
    assert checks["gazette articles out of sequence (wrapped lines, annex templates, quoted text)"].value == 0
    assert checks["current law of the gold targets (event, date in force, words in force or repeal)"].ok
    assert checks["phrases replaced throughout an act: units holding the old phrase whose current text no longer does"].ok


VBHN = """Số: 06/VBHN-BYT
THÔNG TƯ
Quy định danh mục, tỷ lệ, điều kiện thanh toán đối với vật tư y tế
Điều 3. Nguyên tắc thanh toán
2. Mức thanh toán:
c)1 Đối với dịch vụ kỹ thuật đặt stent động mạch vành phải sử dụng nhiều hơn
một stent phủ thuốc, mức thanh toán cho tổng chi phí vật tư y tế bao gồm stent thứ hai.

1 Khoản này được sửa đổi, bổ sung theo quy định tại khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT,
có hiệu lực kể từ ngày 01 tháng 3 năm 2018.

d) Các trường hợp khác.
Điều 9. Hiệu lực thi hành2

2 Các điều 10, 11 của Thông tư số 50/2017/TT-BYT có hiệu lực kể từ ngày 01 tháng 3 năm 2018
quy định như sau:
"Điều 10. Hiệu lực thi hành.
1. Thông tư này có hiệu lực thi hành kể từ ngày 01 tháng 3 năm 2018.

Điều 11. Tổ chức thực hiện
Chánh Văn phòng Bộ chịu trách nhiệm thi hành./."

1. Thông tư này có hiệu lực kể từ ngày 01 tháng 6 năm 2017.
"""


def test_vbhn_footnotes_are_history_of_the_marked_unit(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw

    graph = _graph(tmp_path, {"vbhn06.txt": VBHN})
    units = {u.id: u for d in graph.documents for u in d.units}
    point = units["t/vbhn06/art-3/cl-2/pt-c"]
    history = json.loads(point.metadata["amendment_history"])
    assert history == [{"marker": "1", "action": "amended", "by": "khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT",
                        "act": "50/2017/TT-BYT", "note": history[0]["note"], "date": "2018-03-01"}]
    assert point.text.startswith("c) Đối với") and "Khoản này" not in point.text
    # The quoted Điều 10-11 of the amending act are its words, not articles of the consolidated text.
    assert [u.label.split()[-1] for u in units.values() if u.type == "article"] == ["3", "9"]
    assert units["t/vbhn06/art-9"].title == "Hiệu lực thi hành"
    assert "t/vbhn06/art-9/cl-1" in units
    assert not [e for e in graph.edges if e.type in (EdgeType.AMENDS, EdgeType.REPLACES)]
    law = ParsedLaw(units, graph.edges).read(point.id)
    assert [(e.action, e.date, e.by) for e in law.events] == [("amended", "2018-03-01", "khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT")]


TT44 = """Số: 44/2022/TT-BTC
THÔNG TƯ
Quy định quản lý và sử dụng kinh phí chi thường xuyên thực hiện chính sách, chế độ ưu đãi người có công với cách mạng
Điều 7. Chi phí quản lý
1. Chi phí quản lý để thực hiện các hoạt động nghiệp vụ. Mức chi phí quản lý bằng 1,5% tổng kinh phí.
2. Nội dung chi gồm chi phí chuyển tiền cho người thụ hưởng chính sách.
Điều 8. Lập dự toán
3. Dự toán do cơ quan Lao động - Thương binh và Xã hội tổng hợp, gửi Bộ Tài chính.
Điều 18. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 05 tháng 9 năm 2022.
"""

TT95 = """Số: 95/2025/TT-BTC
THÔNG TƯ
Sửa đổi, bổ sung một số Điều của Thông tư số 44/2022/TT-BTC
Điều 1. Sửa đổi, bổ sung một số Điều của Thông tư số 44/2022/TT-BTC
1. Sửa đổi, bổ sung khoản 1 Điều 7 như sau:
“1. Chi phí quản lý để thực hiện các hoạt động nghiệp vụ về quản lý đối tượng, hồ sơ, quản lý tài chính, kế toán
và tổ chức thực hiện chi trả. Mức chi phí quản lý bằng 1,7% tổng kinh phí.”
Điều 2. Bổ sung, thay thế, bãi bỏ một số từ, cụm từ, điểm, khoản, điều của Thông tư số 44/2022/TT-BTC
1. Thay thế cụm từ “cơ quan Lao động - Thương binh và Xã hội” bằng cụm từ “cơ quan Nội vụ hoặc cơ quan được giao
quản lý và sử dụng kinh phí người có công với cách mạng” tại khoản 3 Điều 8 Thông tư số 44/2022/TT-BTC.
Điều 3. Hiệu lực thi hành
1. Thông tư này có hiệu lực thi hành từ ngày 20 tháng 10 năm 2025.
"""

# A later circular in the same drafting (its number and wording made for the test): khoản 1 Điều 7 again.
TT12 = """Số: 12/2026/TT-BTC
THÔNG TƯ
Sửa đổi, bổ sung khoản 1 Điều 7 của Thông tư số 44/2022/TT-BTC
Điều 1. Sửa đổi, bổ sung khoản 1 Điều 7 của Thông tư số 44/2022/TT-BTC như sau:
“1. Chi phí quản lý để thực hiện các hoạt động nghiệp vụ về quản lý đối tượng, hồ sơ. Mức chi phí quản lý bằng
2% tổng kinh phí.”
Điều 2. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2026.
"""


# Thông tư 95/2025/TT-BTC Điều 2 khoản 1 as printed: two instructions in one item, the first for the whole act with an
# exception; and Thông tư 44/2022/TT-BTC khoản 4 Điều 7 (the exception) and điểm b khoản 1 Điều 10 (the phrase wraps).
TT95_REAL = TT95.replace(TT95[TT95.index("1. Thay thế cụm từ"):TT95.index("Điều 3. Hiệu lực")], """1. Thay thế cụm từ “Lao động - Thương binh và Xã hội” bằng cụm từ “Nội
vụ” tại Thông tư số 44/2022/TT-BTC, trừ cụm từ “Bộ Lao động - Thương binh và
Xã hội” quy định tại khoản 4 Điều 7 Thông tư số 44/2022/TT-BTC; thay thế cụm
từ “cơ quan Lao động - Thương binh và Xã hội” bằng cụm từ “cơ quan Nội vụ
hoặc cơ quan được giao quản lý và sử dụng kinh phí người có công với cách
mạng” tại khoản 3 Điều 8 Thông tư số 44/2022/TT-BTC.
""")
TT44_MORE = TT44.replace("Điều 8. Lập dự toán", """4. Đối với chi phí quản lý thực hiện các chính sách, chế độ trợ cấp một lần: Thực hiện theo hướng dẫn
tại Thông tư liên tịch số 21/2008/TTLT-BQP-BLĐTBXH-BTC của Bộ Quốc phòng, Bộ Lao động -
Thương binh và Xã hội, Bộ Tài chính.
Điều 8. Lập dự toán""").replace("Điều 18. Hiệu lực thi hành", """Điều 10. Lập, phân bổ dự toán
1. Lập dự toán:
b) Sở Lao động - Thương binh và Xã hội lập dự toán phần chi tại Sở Lao động -
Thương binh và Xã hội thực hiện, xem xét dự toán của các cơ quan quản lý và sử
dụng kinh phí người có công với cách mạng.
Điều 18. Hiệu lực thi hành""")


def test_a_unit_amended_twice_reads_the_newest_text_and_its_history_in_date_order(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw, caveats

    # The later amender sorts first by file name: the order must come from the dates in force.
    graph = _graph(tmp_path, {"a12.txt": TT12, "b95.txt": TT95, "c44.txt": TT44})
    units = {u.id: u for d in graph.documents for u in d.units}
    laws = ParsedLaw(units, graph.edges)
    clause = laws.read("t/c44/art-7/cl-1")
    assert [(e.date, e.by, e.action) for e in clause.events] == [
        ("2025-10-20", "Thông tư 95/2025/TT-BTC Điều 1 khoản 1", "replaced"),
        ("2026-07-01", "Thông tư 12/2026/TT-BTC Điều 1", "replaced"),
    ]
    assert clause.latest_id == "t/a12/art-1"
    assert clause.current_text is not None and "bằng\n2% tổng kinh phí" in clause.current_text
    assert "as amended by Thông tư 12/2026/TT-BTC Điều 1 (in force from 2026-07-01)" in clause.lines()[0]
    words = laws.read("t/c44/art-8/cl-3")
    assert words.current_text == ("3. Dự toán do cơ quan Nội vụ hoặc cơ quan được giao quản lý và sử dụng kinh phí người "
                                  "có công với cách mạng tổng hợp, gửi Bộ Tài chính.")
    assert [e.action for e in words.events] == ["words replaced"]
    reader = SimpleNamespace(current_law=laws.read)
    said = caveats(reader, ["t/c44/art-7/cl-1", "t/c44/art-8/cl-3"])
    assert said[0].startswith("Thông tư 44/2022/TT-BTC Điều 7 khoản 1 has newer words: Thông tư 12/2026/TT-BTC Điều 1 "
                              "(in force from 2026-07-01)") and "2% tổng kinh phí" in said[0]
    assert "as amended by Thông tư 95/2025/TT-BTC Điều 2 khoản 1 (in force from 2025-10-20)" in said[1]
    # The current text is quoted on one line, and a long one is cut at a word with a mark saying so.
    assert "bằng 2% tổng kinh phí" in said[0] and said[0].endswith("2% tổng kinh phí.”")
    long = laws.read("t/c44/art-7/cl-1").model_copy(update={"current_text": "chi phí quản lý " * 60})
    cut = caveats(SimpleNamespace(current_law=lambda _: long), ["t/c44/art-7/cl-1"])[0]
    assert cut.endswith(" …”") and len(cut.split("Current text: “", 1)[1]) <= 603
    assert "cơ quan Nội vụ" in said[1]
    untouched = laws.read("t/c44/art-7/cl-2")
    assert not untouched.events and untouched.current_text is None


def test_whole_acts_repealed_by_an_effect_clause(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw

    old = "Số: 12/2010/TT-BYT\nTHÔNG TƯ\nBan hành danh mục thuốc y học cổ truyền\nĐiều 1. Danh mục\nBan hành danh mục.\n"
    new = ("Số: 05/2015/TT-BYT\nTHÔNG TƯ\nBan hành danh mục thuốc đông y\nĐiều 8. Hiệu lực thi hành\n"
           "1. Thông tư này có hiệu lực kể từ ngày 01 tháng 5 năm 2015.\n"
           "2. Thông tư số 12/2010/TT-BYT ngày 29 tháng 4 năm 2010 của Bộ trưởng Bộ Y tế ban hành danh mục thuốc y học cổ\n"
           "truyền chủ yếu sử dụng tại các cơ sở khám chữa bệnh hết hiệu lực kể từ ngày Thông tư này có hiệu lực.\n"
           "3. Bãi bỏ Thông tư số 15/2015/TT-BYT ngày 26 tháng 6 năm 2015 của Bộ Y tế hướng dẫn khám bệnh.\n")
    graph = _graph(tmp_path, {"tt12.txt": old, "tt05.txt": new})
    units = {u.id: u for d in graph.documents for u in d.units}
    law = ParsedLaw(units, graph.edges).read("t/tt12")
    assert law.repealed and law.repealed_by == "Thông tư 05/2015/TT-BYT Điều 8 khoản 2" and law.repealed_on == "2015-05-01"
    external = {x.raw for x in graph.externals}
    assert "Thông tư số 15/2015/TT-BYT" in external
    assert ("art-8/cl-3", "t/external/thông-tư-số-15-2015-tt-byt", "REPLACES", "repealed") in _amending_edges(graph, "t/tt05/")


def test_hostile_amending_text_finishes_in_bounded_time(tmp_path: Path) -> None:
    import time

    hostile = ("Số: 1/2025/TT-BYT\nTHÔNG TƯ\nĐiều 1. Sửa đổi, bổ sung một số điều của Thông tư số 2/2024/TT-BYT\n"
               "1. Sửa đổi, bổ sung " + "điểm a, khoản 1, Điều 2, Mẫu số 3, “" * 4000 + " như sau:\n"
               + "“a) Thay thế cụm từ “x” bằng " * 3000 + "\n" + "Bãi bỏ Điều 1,\n" * 2000)
    started = time.process_time()
    graph = _graph(tmp_path, {"hostile.txt": hostile})
    assert graph.documents and time.process_time() - started < 20.0


def test_the_number_block_names_the_document_wherever_the_page_prints_it(tmp_path: Path) -> None:
    late = ("CÔNG BÁO/Số 1683 + 1684/Ngày 14-12-2025\n35\nBỘ TÀI CHÍNH\nTHÔNG TƯ\n"
            "Sửa đổi, bổ sung một số Điều của Thông tư số 44/2022/TT-BTC ngày 21 tháng 7 năm 2022\n"
            "Điều 1. Sửa đổi, bổ sung một số Điều của Thông tư số 44/2022/TT-BTC\n"
            "CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM\nSố: 95/2025/TT-BTC\nHà Nội, ngày 20 tháng 10 năm 2025\n"
            "1. Sửa đổi, bổ sung khoản 1 Điều 1 như sau:\n“1. Thông tư này quy định về kinh phí.”\n")
    graph = _graph(tmp_path, {"tt95.txt": late, "tt44.txt": TT44})
    root = next(d for d in graph.documents if d.id == "t/tt95").units[0]
    assert root.metadata["number"] == "95/2025/TT-BTC" and root.label == "Thông tư 95/2025/TT-BTC"
    assert ("art-1/cl-1", "t/tt44/art-1", "AMENDS", "replaced") not in _amending_edges(graph, "t/tt95/")
    # TT 44 has no Điều 1 here: a REFERENCES edge and a warning, never an edge into the amending circular.
    assert not [e for e in graph.edges if e.source.startswith("t/tt95/") and e.target.startswith("t/tt95/")
                and e.type in (EdgeType.AMENDS, EdgeType.REPLACES)]


TT50 = """Số: 50/2017/TT-BYT
THÔNG TƯ
Sửa đổi, bổ sung các quy định liên quan đến thanh toán chi phí khám bệnh, chữa bệnh
Điều 8. Sửa đổi, bổ sung một số điều của Thông tư số 04/2017/TT-BYT
1. Sửa đổi, bổ sung điểm c khoản 2 Điều 3 như sau:
“c) Đối với dịch vụ kỹ thuật đặt stent động mạch vành phải sử dụng nhiều hơn một stent phủ thuốc.”
Điều 10. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 01 tháng 3 năm 2018.
"""


def test_vbhn_footnote_gives_the_amenders_edge_when_the_amender_is_ingested(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"vbhn06.txt": VBHN, "tt50.txt": TT50})
    into_point = {(e.source, e.type, e.action) for e in graph.edges if e.target == "t/vbhn06/art-3/cl-2/pt-c"}
    assert ("t/tt50/art-8/cl-1", EdgeType.AMENDS, "amended") in into_point
    assert not [e for e in graph.edges if e.source.startswith("t/vbhn06") and e.type in (EdgeType.AMENDS, EdgeType.REPLACES)]


@pytest.mark.parametrize(("sentence", "action", "targets", "new"), [
    ("Khoản 2 Điều 5 được sửa đổi, bổ sung như sau:", Action.AMEND, [(("art", "5"), ("cl", "2"))], None),
    ("Điểm a và điểm c khoản 2 Điều 7 được bãi bỏ;", Action.REPEAL,
     [(("art", "7"), ("cl", "2"), ("pt", "a")), (("art", "7"), ("cl", "2"), ("pt", "c"))], None),
    ("Cụm từ “Bộ Lao động - Thương binh và Xã hội” tại khoản 1 Điều 4 được thay thế bằng cụm từ “Bộ Nội vụ”.",
     Action.REPLACE_WORDS, [(("art", "4"), ("cl", "1"))], None),
    ("Điều 5 được bổ sung khoản 3 như sau:", Action.ADD, [(("art", "5"),)], (("art", "5"), ("cl", "3"))),
    ("Bổ sung khoản 5 vào sau khoản 4 Điều 10 như sau:", Action.ADD, [(("art", "10"), ("cl", "4"))], (("art", "10"), ("cl", "5"))),
])
def test_passive_instructions_read_like_active_ones(sentence: str, action: Action, targets: list, new: tuple | None) -> None:
    from ingest.citations.vi_amendments import active_form

    active = sentence if sentence.startswith("Bổ sung") else active_form(sentence)
    instruction = parse_instruction(active) if active else None
    assert instruction is not None and instruction.action is action
    assert instruction.targets == targets and instruction.new == new
    # A consolidated text's footnote says where a change came from: not an instruction.
    assert active_form("Khoản này được sửa đổi, bổ sung theo quy định tại khoản 1 Điều 8 Thông tư số 50/2017/TT-BYT") is None
    assert active_form("Doanh nghiệp được sửa đổi hồ sơ.") is None


# Sentences of Nghị định 14/2026/NĐ-CP (vbpl.vn), a decree that amends many decrees, one chapter each.
MULTI = """Số: 14/2026/NĐ-CP
NGHỊ ĐỊNH
Sửa đổi, bổ sung một số điều của các Nghị định để cắt giảm, đơn giản hóa thủ tục hành chính
Chương I
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA NGHỊ ĐỊNH SỐ 87/2009/NĐ-CP NGÀY 19 THÁNG 10 NĂM 2009 CỦA CHÍNH PHỦ VỀ VẬN TẢI ĐA PHƯƠNG THỨC
Điều 1. Sửa đổi, bổ sung Điều 6
“Điều 6. Thủ tục cấp Giấy phép kinh doanh vận tải đa phương thức quốc tế
1. Doanh nghiệp nộp 01 bộ hồ sơ đề nghị cấp Giấy phép.
2. Cơ quan cấp Giấy phép xem xét hồ sơ.”
Chương II
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA NGHỊ ĐỊNH SỐ 60/2023/NĐ-CP
Điều 2. Sửa đổi bổ sung, bãi bỏ một số điểm, khoản của Điều 4
1. Sửa đổi, bổ sung điểm e khoản 1 như sau:
“e) Tài liệu xuất xứ C/O.”
2. Bãi bỏ điểm g, điểm h khoản 1.
Điều 3. Sửa đổi, bổ sung khoản 2 Điều 7
1. Sửa đổi tiêu đề khoản 2 như sau:
“2. Thông báo chuyến bay chuyên cơ.”
2. Thay thế cụm từ “Bộ Giao thông vận tải” bằng cụm từ “Bộ Xây dựng” tại điểm b khoản 2.
Chương III
ĐIỀU KHOẢN THI HÀNH
Điều 4. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 15 tháng 01 năm 2026.
"""


def test_a_decree_amending_several_decrees_names_each_in_its_chapter(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"nd14.txt": MULTI})
    externals = {x.id: x.raw for x in graph.externals}
    edges = {(s.removeprefix("ch-i/").removeprefix("ch-ii/"), externals[t], a) for s, t, _, a in _amending_edges(graph, "t/nd14/")}
    assert edges == {
        ("art-1", "Nghị định số 87/2009/NĐ-CP, Điều 6", "replaced"),
        ("art-2", "Nghị định số 60/2023/NĐ-CP, Điều 4", "amended"),
        ("art-2/cl-1", "Nghị định số 60/2023/NĐ-CP, điểm e khoản 1 Điều 4", "replaced"),
        ("art-2/cl-2", "Nghị định số 60/2023/NĐ-CP, điểm g khoản 1 Điều 4", "repealed"),
        ("art-2/cl-2", "Nghị định số 60/2023/NĐ-CP, điểm h khoản 1 Điều 4", "repealed"),
        ("art-3", "Nghị định số 60/2023/NĐ-CP, khoản 2 Điều 7", "amended"),
        ("art-3/cl-1", "Nghị định số 60/2023/NĐ-CP, khoản 2 Điều 7", "amended"),
        ("art-3/cl-2", "Nghị định số 60/2023/NĐ-CP, điểm b khoản 2 Điều 7", "words replaced"),
    }
    # The quoted "Điều 6" with its clauses (no "như sau:" before it) is the new text, not this decree's structure.
    units = {u.id for d in graph.documents for u in d.units}
    assert "t/nd14/ch-i/art-1/cl-1" not in units


def test_the_document_with_the_number_block_owns_its_name(tmp_path: Path) -> None:
    # A notes file that only mentions the decree (as a folder's README does) sorts first and is read first.
    notes = "Ghi chú\nNghị định 112/2021/NĐ-CP: quy định chi tiết một số điều của Luật\nĐiều 1. Ghi chú\n"
    graph = _graph(tmp_path, {"a-notes.txt": notes, "nd112.txt": ORIGINAL, "nd372.txt": AMENDING})
    assert ("art-1/cl-3", "t/nd112/art-6", "AMENDS", "words replaced") in _amending_edges(graph, "t/nd372/")


# Real sentences: Thông tư 17/2022/TT-BLĐTBXH Điều 7 and Thông tư 03/2023/TT-BLĐTBXH Điều 1 khoản 1 (Công báo 781+782),
# Nghị định 112/2021/NĐ-CP Chương III Mục 2 and Nghị định 372/2025/NĐ-CP Điều 1 khoản 10-11 (Công báo 30), shortened.
TT17 = """Số: 17/2022/TT-BLĐTBXH
THÔNG TƯ
Hướng dẫn thực hiện một số nội dung về giáo dục nghề nghiệp và giải quyết việc làm
Điều 7. Xây dựng định mức kinh tế - kỹ thuật
1. Xây dựng, chỉnh sửa, bổ sung định mức kinh tế - kỹ thuật về đào tạo cho
từng ngành, nghề theo trình độ, cấp độ đào tạo.
2. Nội dung xây dựng, thẩm định và ban hành định mức kinh tế - kỹ thuật về
đào tạo thực hiện theo Thông tư số 07/2020/TT-BLĐTBXH.
Điều 8. Xây dựng danh mục thiết bị đào tạo tối thiểu
1. Xây dựng, chỉnh sửa, bổ sung danh mục thiết bị đào tạo tối thiểu.
"""

TT03 = """Số: 03/2023/TT-BLĐTBXH
THÔNG TƯ
Sửa đổi, bổ sung một số điều của Thông tư số 17/2022/TT-BLĐTBXH
Điều 1. Sửa đổi, bổ sung một số điều của Thông tư số 17/2022/TT-BLĐTBXH
ngày 06 tháng 9 năm 2022 của Bộ trưởng Bộ Lao động - Thương binh và Xã
hội (sau đây gọi là Thông tư số 17/2022/TT-BLĐTBXH)
1. Bổ sung khoản 3 vào Điều 7 như sau:
“3. Các ngành, nghề được lựa chọn xây dựng định mức kinh tế - kỹ thuật về
đào tạo do cơ quan được giao nhiệm vụ tổ chức xây dựng quyết định trên cơ sở
quy hoạch, chiến lược, kế hoạch phát triển kinh tế - xã hội của vùng, ngành, địa
phương theo phạm vi của Chương trình”.
Điều 2. Hiệu lực thi hành
1. Thông tư này có hiệu lực thi hành từ ngày 31 tháng 5 năm 2023.
"""

ND112 = """Số: 112/2021/NĐ-CP
NGHỊ ĐỊNH
Quy định chi tiết một số điều của Luật Người lao động Việt Nam đi làm việc ở nước ngoài theo hợp đồng
Chương III
ĐIỀU KIỆN HOẠT ĐỘNG DỊCH VỤ
Mục 2
ĐIỀU KIỆN HOẠT ĐỘNG DỊCH VỤ ĐƯA NGƯỜI LAO ĐỘNG ĐI LÀM VIỆC TẠI NHẬT BẢN
Điều 15. Điều kiện hoạt động dịch vụ đưa người lao động Việt Nam đi làm
việc tại Nhật Bản
1. Có đủ số lượng nhân viên nghiệp vụ để thực hiện nội dung hoạt động.
 Điều 16. Hồ sơ, thủ tục đăng ký hoạt động dịch vụ đưa người lao động
Việt Nam đi làm việc tại Nhật Bản
1. Hồ sơ:
"""

ND372 = """Số: 372/2025/NĐ-CP
NGHỊ ĐỊNH
Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP
10. Bổ sung Điều 15a như sau:
“Điều 15a. Thông báo đáp ứng điều kiện của thị trường, ngành nghề
1. Trước khi thực hiện hoạt động đưa người lao động đi làm việc tại Đài
Loan (Trung Quốc), Nhật Bản và nghề hộ lý tại Nhật Bản, doanh nghiệp thực
hiện việc thông báo trực tuyến.
2. Ngay sau khi doanh nghiệp thực hiện việc thông báo trực tuyến tại
khoản 1 Điều này thành công, doanh nghiệp được phép hoạt động.”
11. Bổ sung Điều 15b như sau:
“Điều 15b. Thông báo danh sách người lao động dự kiến đi làm việc
ở nước ngoài
1. Việc thông báo danh sách người lao động dự kiến đi làm việc ở nước
ngoài được thực hiện trực tuyến.”
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2026.
"""


def test_inserted_provisions_become_units_of_the_amended_act(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw, caveats

    graph = _graph(tmp_path, {"tt03.txt": TT03, "tt17.txt": TT17, "nd112.txt": ND112, "nd372.txt": ND372})
    units = {u.id: u for d in graph.documents for u in d.units}
    clause = units["t/tt17/art-7/cl-3"]
    assert clause.type == "clause" and clause.parent_id == "t/tt17/art-7"
    assert clause.label == "Thông tư 17/2022/TT-BLĐTBXH Điều 7 khoản 3"
    assert clause.text.startswith("3. Các ngành, nghề được lựa chọn") and clause.text.endswith("phạm vi của Chương trình")
    assert clause.metadata["inserted_by"] == "Thông tư 03/2023/TT-BLĐTBXH Điều 1 khoản 1"
    assert clause.metadata["effective_date"] == "2023-05-31"
    # In the amended act's reading order, after khoản 2 of its article; the inserting item amends it, not Điều 7.
    tt17 = [u.id.removeprefix("t/tt17/") for u in next(d for d in graph.documents if d.id == "t/tt17").units]
    assert tt17[1:] == ["art-7", "art-7/cl-1", "art-7/cl-2", "art-7/cl-3", "art-8", "art-8/cl-1"]
    assert _amending_edges(graph, "t/tt03/") == {("art-1/cl-1", "t/tt17/art-7/cl-3", "AMENDS", "inserted")}
    assert any(e.source == "t/tt17/art-7" and e.target == clause.id and e.type is EdgeType.CONTAINS for e in graph.edges)
    # A new article sits beside the one it follows, in its Mục, with its heading as title; Điều 15b after Điều 15a.
    nd112 = [u for u in next(d for d in graph.documents if d.id == "t/nd112").units if u.type == "article"]
    assert [u.label.rsplit(" ", 1)[-1] for u in nd112] == ["15", "15a", "15b", "16"]
    article = units["t/nd112/ch-iii/sec-2/art-15a"]
    assert article.parent_id == "t/nd112/ch-iii/sec-2" and article.title == "Thông báo đáp ứng điều kiện của thị trường, ngành nghề"
    # Its clauses are units below it, as the act's own are; "khoản 1 Điều này" in them is the new article's khoản 1.
    assert article.text == "Điều 15a. Thông báo đáp ứng điều kiện của thị trường, ngành nghề"
    second = units["t/nd112/ch-iii/sec-2/art-15a/cl-2"]
    assert second.label == "Nghị định 112/2021/NĐ-CP Điều 15a khoản 2" and second.keys == ["gen:nd112:art:15a:cl:2"]
    assert "khoản 1 Điều này thành công" in second.text and second.text.endswith("được phép hoạt động.")
    assert any(e.source == second.id and e.target == "t/nd112/ch-iii/sec-2/art-15a/cl-1" and e.type is EdgeType.REFERENCES
               for e in graph.edges)
    order = [u.id.rsplit("/", 2)[-2:] for u in next(d for d in graph.documents if d.id == "t/nd112").units]
    assert order[order.index(["sec-2", "art-15a"]):][:5] == [["sec-2", "art-15a"], ["art-15a", "cl-1"], ["art-15a", "cl-2"],
                                                               ["sec-2", "art-15b"], ["art-15b", "cl-1"]]
    assert _amending_edges(graph, "t/nd372/") == {("art-1/cl-10", "t/nd112/ch-iii/sec-2/art-15a", "AMENDS", "inserted"),
                                                 ("art-1/cl-11", "t/nd112/ch-iii/sec-2/art-15b", "AMENDS", "inserted")}
    # Current law: the new unit's own words stand, its history is the insertion with its date; the unit it follows is untouched.
    laws = ParsedLaw(units, graph.edges)
    law = laws.read(article.id)
    assert [(e.action, e.date, e.by) for e in law.events] == [("inserted", "2026-01-01", "Nghị định 372/2025/NĐ-CP Điều 1 khoản 10")]
    assert law.inserted and law.latest_id is None and law.current_text is None and not law.repealed
    assert law.lines()[0].endswith("as inserted by Nghị định 372/2025/NĐ-CP Điều 1 khoản 10 (in force from 2026-01-01).")
    assert not laws.read("t/nd112/ch-iii/sec-2/art-15").events and not laws.read("t/tt17/art-7").events
    said = caveats(SimpleNamespace(current_law=laws.read), [clause.id, "t/tt17/art-7"])
    assert said == ["Thông tư 17/2022/TT-BLĐTBXH Điều 7 khoản 3 was inserted by Thông tư 03/2023/TT-BLĐTBXH Điều 1 khoản 1 "
                    "(in force from 2023-05-31)."]


def test_the_chat_shows_current_law_of_a_vietnamese_unit_beside_the_original(tmp_path: Path, test_settings, neo4j_driver) -> None:
    """Through the stores the chat reads (Neo4j): the stored current law is the parse's; the answer's caveats and the
    rule card name the amending provision and its date in force, with the current words beside the quoted original."""
    from core.answer.graph import Neo4jGraph
    from core.answer.models import AnswerEnvelope, AttributedAnswer, Claim, RuleClaims
    from core.chat.evidence import answer_view
    from core.current_law import ParsedLaw, caveats
    from core.stores import queries as gq
    from core.stores.neo4j_store import edges_owned_by, write_document
    from tests.render_support import answer_html

    for name, text in {"a12.txt": TT12, "b95.txt": TT95_REAL, "c44.txt": TT44_MORE, "tt03.txt": TT03, "tt17.txt": TT17}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = build_graph(sorted(tmp_path.iterdir()), "vi-curlaw", "generic")
    owned = edges_owned_by(graph.documents, graph.edges)
    db = test_settings.neo4j_database
    for document in graph.documents:
        write_document(neo4j_driver, db, document, owned.get(document.id, []), graph.externals, "h")
    units = {u.id: u for d in graph.documents for u in d.units}
    laws = ParsedLaw(units, graph.edges)
    twice, words, inserted = "vi-curlaw/c44/art-7/cl-1", "vi-curlaw/c44/art-8/cl-3", "vi-curlaw/tt17/art-7/cl-3"
    act_wide, excepted = "vi-curlaw/c44/art-10/cl-1/pt-b", "vi-curlaw/c44/art-7/cl-4"
    for unit_id in (twice, words, inserted, act_wide, excepted):
        stored = gq.current_law(neo4j_driver, db, unit_id)
        assert stored is not None and stored.model_dump() == laws.read(unit_id).model_dump(), unit_id
    assert "Sở Nội vụ" in (laws.read(act_wide).current_text or "") and not laws.read(excepted).events
    said = caveats(Neo4jGraph(neo4j_driver, db), [twice, words, inserted, act_wide])
    assert said == caveats(SimpleNamespace(current_law=laws.read), [twice, words, inserted, act_wide]) and len(said) == 4
    envelope = AnswerEnvelope(
        question="Mức chi phí quản lý là bao nhiêu?", corpus="vi-curlaw", mode="extractive", model="extractive",
        answer=AttributedAnswer(answer="Mức chi phí quản lý bằng 1,5% tổng kinh phí.", caveats=said, rules=[
            RuleClaims(unit_id=twice, label=units[twice].label, claims=[Claim(text="Mức chi phí quản lý bằng 1,5% tổng kinh phí.")]),
            RuleClaims(unit_id=words, label=units[words].label, claims=[Claim(text=units[words].text)]),
            RuleClaims(unit_id=inserted, label=units[inserted].label, claims=[Claim(text=units[inserted].text[:60])])]),
        seed_ids=[twice, words, inserted], evidence_ids=[twice, words, inserted])
    view = answer_view(neo4j_driver, db, envelope)
    cards = {c.unit_id: c.history for c in view.cards}
    first = cards[twice]
    assert first is not None and "2% tổng kinh phí" in first.current_text and "1,5%" in view.cards[0].text
    assert (first.current_by, first.current_from) == ("Thông tư 12/2026/TT-BTC Điều 1", "2026-07-01")
    assert [e.line for e in first.events] == ["Replaced by Thông tư 95/2025/TT-BTC Điều 1 khoản 1, in force 2025-10-20",
                                              "Replaced by Thông tư 12/2026/TT-BTC Điều 1, in force 2026-07-01"]
    second = cards[words]
    assert second is not None and second.current_by == "Thông tư 95/2025/TT-BTC Điều 2 khoản 1"
    assert "cơ quan Nội vụ" in second.current_text and "Lao động - Thương binh" in units[words].text
    third = cards[inserted]
    assert third is not None and not third.current_text
    assert third.headline == "Inserted by Thông tư 03/2023/TT-BLĐTBXH Điều 1 khoản 1 (in force from 2023-05-31); the text shown is current."
    html = answer_html(view)
    assert "Current text, as amended by Thông tư 12/2026/TT-BTC Điều 1 (in force from 2026-07-01)" in html
    assert "Amended by Thông tư 95/2025/TT-BTC Điều 2 khoản 1 (in force from 2025-10-20): the text quoted is the original" in html


def test_the_words_in_force_come_from_the_instruction_that_names_the_unit(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw, instruction_wording

    # Nghị định 372/2025/NĐ-CP Điều 1 khoản 13: an article's title and one of its clauses in one quotation.
    graph = _graph(tmp_path, {"b95.txt": TT95_REAL, "c44.txt": TT44_MORE})
    units = {u.id: u for d in graph.documents for u in d.units}
    source = units["t/b95/art-2/cl-1"].metadata
    assert json.loads(source["instructions"])[0]["except"] == ["khoản 4 Điều 7"]
    specific = ("cơ quan Lao động - Thương binh và Xã hội", "cơ quan Nội vụ hoặc cơ quan được giao quản lý và sử dụng kinh "
                "phí người có công với cách mạng")
    assert instruction_wording(source, "Thông tư 44/2022/TT-BTC Điều 8 khoản 3") == (None, specific)
    assert instruction_wording(source, "Thông tư 44/2022/TT-BTC Điều 7 khoản 4") == (None, None)
    assert instruction_wording(source, "Thông tư 44/2022/TT-BTC Điều 7 khoản 2") == (None, ("Lao động - Thương binh và Xã hội", "Nội vụ"))
    laws = ParsedLaw(units, graph.edges)
    law = laws.read("t/c44/art-8/cl-3")
    assert law.current_text is not None and law.current_text.startswith("3. Dự toán do cơ quan Nội vụ hoặc cơ quan được giao")
    assert len(law.events) == 1
    # The phrase replaced throughout the act reaches a unit no instruction names, even where the line wraps inside it;
    # the provision the instruction excepts keeps its words.
    point = laws.read("t/c44/art-10/cl-1/pt-b")
    assert [(e.action, e.date, e.by) for e in point.events] == [("words replaced", "2025-10-20", "Thông tư 95/2025/TT-BTC Điều 2 khoản 1")]
    assert point.current_text == ("b) Sở Nội vụ lập dự toán phần chi tại Sở Nội vụ thực hiện, xem xét dự toán của "
                                  "các cơ quan quản lý và sử\ndụng kinh phí người có công với cách mạng.")
    excepted = laws.read("t/c44/art-7/cl-4")
    assert not excepted.events and excepted.current_text is None
    nd372 = {"instructions": json.dumps([{"action": "amend", "targets": ["Điều 39", "khoản 7 Điều 39"], "part": "title",
                                          "new_text": "“Điều 39. Trách nhiệm của Bộ Nội vụ\n7. Duy trì và thường xuyên cập nhật "
                                                      "trên trang thông tin điện tử\n(www.dolab.moha.gov.vn) về chính sách.”"}])}
    assert instruction_wording(nd372, "Nghị định 112/2021/NĐ-CP Điều 39 khoản 7") == (
        "7. Duy trì và thường xuyên cập nhật trên trang thông tin điện tử\n(www.dolab.moha.gov.vn) về chính sách.", None)
    assert instruction_wording(nd372, "Nghị định 112/2021/NĐ-CP Điều 39") == (None, None)  # a new title, not new words


def test_an_addition_without_a_unit_of_its_own_amends_the_unit_it_goes_into(tmp_path: Path) -> None:
    from core.current_law import ParsedLaw

    # Nghị định 372/2025/NĐ-CP Điều 1 khoản 16 điểm c: a new form, not quoted in the instruction.
    adding = ("Số: 372/2025/NĐ-CP\nNGHỊ ĐỊNH\nSửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP\n"
              "Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 112/2021/NĐ-CP\n"
              "16. Bãi bỏ, thay thế, bổ sung một số mẫu tại Phụ lục I như sau:\n"
              "c) Bổ sung Mẫu số 10 quy định về Thông báo đáp ứng điều kiện thị trường,\nngành, nghề.\n"
              "Điều 2. Hiệu lực thi hành\nNghị định này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2026.\n")
    graph = _graph(tmp_path, {"nd112.txt": ORIGINAL, "nd372.txt": adding})
    assert ("art-1/cl-16/pt-c", "t/nd112/annex-i", "AMENDS", "amended") in _amending_edges(graph, "t/nd372/")
    units = {u.id: u for d in graph.documents for u in d.units}
    law = ParsedLaw(units, graph.edges).read("t/nd112/annex-i")
    # The annex is amended, not superseded: its words stand, and no amending item holds "newer words" for it.
    assert law.latest_id is None and law.current_text is None and not law.inserted
    assert law.lines()[0] == ("Nghị định 112/2021/NĐ-CP Phụ lục I is in force, as amended by Nghị định 372/2025/NĐ-CP Điều 1 "
                              "khoản 16 điểm c (in force from 2026-01-01).")


def test_re_reading_the_amended_act_alone_keeps_what_its_amender_inserted(tmp_path: Path, test_settings, neo4j_driver) -> None:
    """Ingest both, then the amended act again without its amender (as `python -m ingest` does for one file): the
    inserted article and its clauses stay in the act, and the amender's edge into them stays in the graph."""
    from core.stores import queries as gq
    from core.stores.neo4j_store import edges_owned_by, write_document

    db = test_settings.neo4j_database
    (tmp_path / "nd112.txt").write_text(ND112, encoding="utf-8")
    (tmp_path / "nd372.txt").write_text(ND372, encoding="utf-8")

    def ingest(paths: list[Path]) -> CorpusGraph:
        graph = build_graph(paths, "vi-keep", "generic",
                            known_keys=lambda docs: gq.stored_keys(neo4j_driver, db, "vi-keep", docs),
                            stored_insertions=lambda docs: gq.stored_insertions(neo4j_driver, db, "vi-keep", docs))
        owned = edges_owned_by(graph.documents, graph.edges)
        for document in graph.documents:
            write_document(neo4j_driver, db, document, owned.get(document.id, []), graph.externals, "h")
        return graph

    ingest(sorted(tmp_path.iterdir()))
    article = "vi-keep/nd112/ch-iii/sec-2/art-15a"
    again = ingest([tmp_path / "nd112.txt"])
    units = {u.id: u for u in again.documents[0].units}
    assert article in units and f"{article}/cl-2" in units and units[article].metadata["inserted_by_id"] == "vi-keep/nd372/art-1/cl-10"
    order = [u.id for u in again.documents[0].units]
    assert order.index(article) == order.index("vi-keep/nd112/ch-iii/sec-2/art-15/cl-1") + 1
    assert any(e.source == "vi-keep/nd112/ch-iii/sec-2" and e.target == article and e.type is EdgeType.CONTAINS for e in again.edges)
    stored = gq.existing_edges(neo4j_driver, db, [Edge(source="vi-keep/nd372/art-1/cl-10", type="AMENDS", target=article)])
    assert stored == {("vi-keep/nd372/art-1/cl-10", "AMENDS", article)}
    law = gq.current_law(neo4j_driver, db, article)
    assert law is not None and law.inserted and law.events[0].date == "2026-01-01"
    # Read with its amender again, the amender decides anew: no unit twice.
    both = ingest(sorted(tmp_path.iterdir()))
    ids = [u.id for d in both.documents for u in d.units]
    assert len(ids) == len(set(ids)) and ids.count(article) == 1
