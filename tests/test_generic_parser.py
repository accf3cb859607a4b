"""The generic format: users' .txt/.md/.docx/.pdf files → legal-unit trees, per heading grammar."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.domain import Document, LegalUnit, UnitType
from ingest.parsers.generic.format import GenericParser, generic_parsers
from ingest.parsers.generic.readers import strip_markdown
from ingest.parsers.generic.structure import GENERIC_FORMAT_NAMES
from tests.source_support import write_pdf

ENGLISH = """MINISTRY OF HEALTH
Circular 30/2024/TT-BYT
Chapter II. Licensing
Article 15. Licence conditions
1. An applicant shall hold a certificate.
3. A clinic shall:
(a) keep records;
(h) keep staff lists;
(i) keep a ninth-letter list;
(j) report yearly;
  (i) to the ministry;
  (ii) to the province.
Article 16 - Effect
This Circular has effect from 1 July 2024.
"""

VIETNAMESE = """BỘ Y TẾ
Số: 30/2024/TT-BYT
THÔNG TƯ
Quy định về cấp giấy phép hoạt động
Chương I
QUY ĐỊNH CHUNG
Điều 5. Điều kiện cấp phép
1. Cơ sở phải có giấy phép.
3. Hồ sơ gồm:
a) đơn đề nghị;
đ) bản sao chứng chỉ.
Điều 6. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 15 tháng 8 năm 2024.
"""

KOREAN = """개인정보 보호법
제1장 총칙
제15조(개인정보의 수집ㆍ이용) ① 개인정보처리자는 다음 각 호의 경우에 개인정보를 수집할 수 있다.
② 다음 각 호의 경우
1. 법률에 특별한 규정이 있는 경우
가. 세부 사항
③ 그 밖의 경우
제15조의2(특례) 특례를 둔다.
부칙
이 법은 2024년 3월 15일부터 시행한다.
"""


def parse(tmp_path: Path, files: dict[str, str | bytes], name: str = "generic"):
    for file_name, content in files.items():
        path = tmp_path / file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return GenericParser(name).parse([tmp_path], corpus="t")


def by_label(document: Document) -> dict[str, LegalUnit]:
    return {unit.label: unit for unit in document.units}


def test_format_names_and_detection(tmp_path: Path) -> None:
    assert GENERIC_FORMAT_NAMES == ("generic", "generic-en", "generic-vi", "generic-ko", "generic-paragraphs")
    assert [f.name for f in generic_parsers()] == list(GENERIC_FORMAT_NAMES)
    (tmp_path / "a.md").write_text("x", encoding="utf-8")
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    assert GenericParser().detect([tmp_path])
    assert GenericParser().detect([tmp_path / "a.md"])
    assert not GenericParser().detect([tmp_path / "notes.json"])
    with pytest.raises(ValueError):
        GenericParser("generic-fr")


def test_english_tree_ids_labels_keys_and_metadata(tmp_path: Path) -> None:
    parsed = parse(tmp_path, {"circular-30.txt": ENGLISH})
    assert not parsed.failures and not parsed.notes
    (document,) = parsed.documents
    assert document.id == "t/circular-30"
    assert "Circular 30/2024/TT-BYT" in document.names and "Thông tư 30/2024/TT-BYT" in document.names
    doc_unit = document.units[0]
    assert doc_unit.type is UnitType.DOCUMENT and doc_unit.label == "Circular 30/2024/TT-BYT"
    assert doc_unit.metadata["effective_date"] == "2024-07-01"
    assert doc_unit.metadata["grammar"] == "en"
    assert "gen-name:no:circular:30/2024" in doc_unit.keys

    units = {unit.id: unit for unit in document.units}
    article = units["t/circular-30/ch-ii/art-15"]
    assert article.type is UnitType.ARTICLE and article.title == "Licence conditions"
    assert article.label == "Circular 30/2024/TT-BYT Article 15"
    assert article.keys == ["gen:circular-30:art:15"]
    point = units["t/circular-30/ch-ii/art-15/cl-3/pt-a"]
    assert point.label == "Circular 30/2024/TT-BYT Article 15(3)(a)"
    assert point.keys == ["gen:circular-30:art:15:cl:3:pt:a"]
    assert point.parent_id == "t/circular-30/ch-ii/art-15/cl-3"
    assert point.text == "(a) keep records;"
    # "(i)" right after "(h)" is the ninth letter; "(i)" under "(j)" starts roman sub-points.
    assert units["t/circular-30/ch-ii/art-15/cl-3/pt-i"].type is UnitType.POINT
    assert units["t/circular-30/ch-ii/art-15/cl-3/pt-j/sp-ii"].label.endswith("Article 15(3)(j)(ii)")
    assert units["t/circular-30/ch-ii/art-16"].title == "Effect"
    orders = [unit.order for unit in document.units]
    assert orders == sorted(orders)


def test_vietnamese_grammar(tmp_path: Path) -> None:
    (document,) = parse(tmp_path, {"tt30.txt": VIETNAMESE}).documents
    doc_unit = document.units[0]
    assert doc_unit.label == "Thông tư 30/2024/TT-BYT"
    assert doc_unit.metadata["effective_date"] == "2024-08-15"
    assert doc_unit.metadata["doc_type"] == "circular"
    units = {unit.id: unit for unit in document.units}
    point = units["t/tt30/ch-i/art-5/cl-3/pt-đ"]
    assert point.label == "Thông tư 30/2024/TT-BYT Điều 5 khoản 3 điểm đ"
    assert point.keys == ["gen:tt30:art:5:cl:3:pt:đ"]
    assert units["t/tt30/ch-i/art-5"].title == "Điều kiện cấp phép"
    assert units["t/tt30/ch-i"].type is UnitType.CHAPTER


def test_korean_grammar(tmp_path: Path) -> None:
    (document,) = parse(tmp_path, {"pipa.txt": KOREAN}).documents
    doc_unit = document.units[0]
    assert doc_unit.label == "개인정보 보호법"
    assert "gen-name:title:개인정보-보호법" in doc_unit.keys
    assert doc_unit.metadata["effective_date"] == "2024-03-15"
    labels = by_label(document)
    article = labels["개인정보 보호법 제15조"]
    assert article.title == "개인정보의 수집ㆍ이용" and article.text == "제15조(개인정보의 수집ㆍ이용)"
    # The first paragraph opens on the article's own line.
    assert labels["개인정보 보호법 제15조제1항"].text.startswith("① 개인정보처리자는")
    paragraph = labels["개인정보 보호법 제15조제2항"]
    assert paragraph.type is UnitType.PARAGRAPH and paragraph.keys == ["gen:pipa:art:15:cl:2"]
    assert labels["개인정보 보호법 제15조제2항제1호"].keys == ["gen:pipa:art:15:cl:2:pt:1"]
    assert "개인정보 보호법 제15조제2항제1호가목" in labels
    assert labels["개인정보 보호법 제15조의2"].keys == ["gen:pipa:art:15의2"]
    # Commencement text sits in 부칙, not inside the last article.
    assert "시행" not in labels["개인정보 보호법 제15조의2"].text


def test_forced_grammar_and_paragraph_fallback(tmp_path: Path) -> None:
    prose = "Our policy.\nIt has two lines.\n\nSecond paragraph here.\n\n\nThird one."
    parsed = parse(tmp_path, {"policy.txt": prose})
    (document,) = parsed.documents
    assert parsed.notes == [f"{tmp_path / 'policy.txt'}: no heading structure recognised; one unit per paragraph"]
    passages = document.units[1:]
    assert [u.type for u in passages] == [UnitType.PASSAGE] * 3
    assert passages[0].text == "Our policy.\nIt has two lines."
    assert passages[2].id == "t/policy/p-3" and passages[2].keys == ["gen:policy:p:3"]
    assert document.units[0].metadata["grammar"] == "paragraphs"

    forced = GenericParser("generic-paragraphs").parse([tmp_path / "policy.txt"], corpus="t")
    assert not forced.notes  # asked for: nothing to warn about

    (tmp_path / "policy.txt").unlink()
    (tmp_path / "en.txt").write_text("Article 1. Scope\nText.\nArticle 2. Other\nMore.", encoding="utf-8")
    # A forced grammar that matches nothing still yields units, one per paragraph, and says so.
    forced_ko = GenericParser("generic-ko").parse([tmp_path], corpus="t")
    assert forced_ko.notes and forced_ko.documents[0].units[0].metadata["grammar"] == "paragraphs"
    assert GenericParser("generic-en").parse([tmp_path], corpus="t").documents[0].units[0].metadata["grammar"] == "en"


def test_markdown_is_stripped_to_words(tmp_path: Path) -> None:
    markdown = "# Data Protection Act 2021\n\n## Article 1. **Scope**\n\nThis *Act* applies, see [Article 2](http://x/2).\n\n## Article 2\n\n- (a) `code` word\n"
    (document,) = parse(tmp_path, {"dpa.md": markdown}).documents
    assert document.title == "Data Protection Act 2021"
    assert document.units[0].label == "Data Protection Act 2021"
    labels = by_label(document)
    assert labels["Data Protection Act 2021 Article 1"].title == "Scope"
    assert labels["Data Protection Act 2021 Article 1"].text.endswith("This Act applies, see Article 2.")
    assert labels["Data Protection Act 2021 Article 2(a)"].text == "(a) code word"
    assert strip_markdown("**bold** and _it_ and ![img](x.png) <b>x</b>") == "bold and it and img x"


def test_docx(tmp_path: Path) -> None:
    docx = pytest.importorskip("docx")
    word = docx.Document()
    word.add_heading("Decree 45/2019/ND-CP", level=0)
    word.add_heading("Article 8. Fees", level=1)
    word.add_paragraph("1. A fee is payable under Article 15 of Circular 30/2024.")
    word.add_paragraph("2. The fee is refundable.")
    table = word.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Fee"
    table.rows[0].cells[1].text = "100"
    word.save(str(tmp_path / "decree45.docx"))
    (document,) = GenericParser().parse([tmp_path], corpus="t").documents
    assert document.title == "Decree 45/2019/ND-CP"
    labels = by_label(document)
    assert labels["Decree 45/2019/ND-CP Article 8(1)"].text.startswith("1. A fee is payable")
    assert "Fee | 100" in labels["Decree 45/2019/ND-CP Article 8(2)"].text


def test_pdf(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    pdf = write_pdf(tmp_path / "made.pdf", [["Rules of the Exchange", "Rule 3.8.1 Reporting", "A member shall report."]])
    (document,) = parse(tmp_path / "corpus", {"rules.pdf": pdf.read_bytes()}).documents
    labels = {unit.label.removeprefix("rules "): unit for unit in document.units}
    rule = labels["Rule 3.8.1"]
    assert rule.type is UnitType.RULE and rule.keys == ["gen:rules:rule:3.8.1"]
    assert "A member shall report." in rule.text


def test_bad_files_fail_alone(tmp_path: Path) -> None:
    parsed = parse(
        tmp_path,
        {
            "binary.txt": bytes(range(256)) * 4,
            "latin1.txt": "Article 1. Café rules\n".encode("latin-1"),
            "empty.md": "  \n",
            "corrupt.docx": b"PK\x03\x04 not really a zip",
            "corrupt.pdf": b"%PDF-1.4 truncated",
            "sub/good.txt": "Article 1. Scope\nText.",
        },
    )
    assert [d.id for d in parsed.documents] == ["t/good"]
    problems = {Path(f.path).name: f.problem for f in parsed.failures}
    assert set(problems) == {"binary.txt", "latin1.txt", "empty.md", "corrupt.docx", "corrupt.pdf"}
    assert "binary" in problems["binary.txt"]
    assert "UTF-8" in problems["latin1.txt"]
    assert "empty" in problems["empty.md"]
    assert ".docx" in problems["corrupt.docx"] and "PDF" in problems["corrupt.pdf"]
    assert all("\n" not in p for p in problems.values())


def test_utf8_bom_duplicate_stems_and_sorted_walk(tmp_path: Path) -> None:
    parsed = parse(
        tmp_path,
        {"b/rules.txt": "\ufeffArticle 1. Scope\nText.", "a/rules.txt": "Article 2. Other\nText."},
    )
    assert [d.id for d in parsed.documents] == ["t/rules", "t/rules-2"]
    assert parsed.documents[1].units[1].label == "rules Article 1"


def test_pathological_lines_parse_fast(tmp_path: Path) -> None:
    text = "Article 1. Scope\n" + "(" * 50_000 + "*" * 50_000 + "\n" + "1. " + "a" * 100_000
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    parse(tmp_path, {"big.md": text})
    assert time.process_time() - started < 5
