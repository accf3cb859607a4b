"""Vietnamese rules: Pháp điển codified articles and notes, document identity, self-references."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.domain import EdgeType, UnitType
from ingest.graph import build_graph
from ingest.parsers.generic import vi_codification as V

CODIFICATION = """---
title: Chăm sóc sức khỏe
---

# Chăm sóc sức khỏe

Chương I

QUY ĐỊNH CHUNG

Điều 4.1.LQ.1. Phạm vi điều chỉnh

(Điều 1 Luật số 10/2020/QH14 Chăm sóc sức khỏe ngày 01/01/2020 của Quốc hội, có hiệu lực thi hành kể từ ngày 01/07/2020 )

Luật này quy định về chăm sóc sức khỏe, trừ trường hợp tại khoản 2 Điều 3 của Luật này.

Điều 4.1.LQ.3. Đối tượng

(Điều 3 Luật số 10/2020/QH14, có hiệu lực thi hành kể từ ngày 01/07/2020)

1. Người lao động.

2. Người theo khoản 1 Điều 3 Nghị định số 54/2021/NĐ-CP và Điều 9 của Luật này.

Điều 5. Điều này là văn bản được trích dẫn, không phải một điều của đề mục.

Điều 4.1.NĐ.2.3. Mức hỗ trợ

(Điều 3 Nghị định số 54/2021/NĐ-CP, có hiệu lực thi hành kể từ ngày 01/07/2021, có nội dung được sửa đổi, có nội dung được bổ sung bởi Điều 5 Nghị định số 155/2022/NĐ-CP có hiệu lực thi hành kể từ ngày 12/11/2022; có nội dung bị bãi bỏ bởi Điều 2 Thông tư số 08/2023/TT-BYT có hiệu lực thi hành kể từ ngày 01/02/2023)

1. Mức hỗ trợ là 70%.

2. Đối tượng gồm:

a) Người nghèo;

b) (được bãi bỏ)

c) Người cao tuổi.

(Điều này có nội dung liên quan đến Điều 4.1.LQ.1. Phạm vi điều chỉnh; Điều 9.2.TT.3.4. Hỗ trợ khác của Thông tư 12/2019/TT-BYT)

Điều 4.1.LQ.7c. Điều bổ sung

(Điều 7c Luật số 10/2020/QH14, có hiệu lực thi hành kể từ ngày 01/07/2020, được bổ sung bởi Điều 1 Luật số 46/2022/QH15 có hiệu lực thi hành kể từ ngày 01/01/2023)

3. ***Được bãi bỏ***

## Danh sách điều khoản

### 0400100000

Điều 4.1.LQ.1. Phạm vi điều chỉnh Luật này quy định về chăm sóc sức khỏe.

### 0400100001

Điều 4.1.NĐ.2.3. Mức hỗ trợ 1. Mức hỗ trợ là 70%.
"""

DECREE = """CHÍNH PHỦ
Số: 146/2018/NĐ-CP

NGHỊ ĐỊNH
Quy định chi tiết Luật Bảo hiểm y tế

Điều 1. Phạm vi điều chỉnh
Nghị định này quy định việc thi hành khoản 2 Điều 68 của Luật này.

Điều 2. Đối tượng
1. Người lao động theo khoản 1 Điều 1 của Nghị định này.
2. Người thuộc Điều 3 của Bộ luật này và Điều 5 Nghị định số 70/2015/NĐ-CP.
"""


@pytest.fixture()
def codified(tmp_path):
    path = tmp_path / "cham-soc.md"
    path.write_text(CODIFICATION, encoding="utf-8")
    graph = build_graph([path], "t", "generic")
    units = {u.label: u for d in graph.documents for u in d.units}
    return graph, units


def test_codified_numbers_are_kept_and_the_index_and_quoted_articles_are_not_articles(codified):
    graph, units = codified
    articles = [label for label, u in units.items() if u.type is UnitType.ARTICLE]
    assert articles == ["Chăm sóc sức khỏe Điều 4.1.LQ.1", "Chăm sóc sức khỏe Điều 4.1.LQ.3", "Chăm sóc sức khỏe Điều 4.1.NĐ.2.3",
                        "Chăm sóc sức khỏe Điều 4.1.LQ.7c"]
    assert units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3"].title == "Mức hỗ trợ"
    assert "Chăm sóc sức khỏe Điều 4.1.NĐ.2.3 khoản 2 điểm c" in units
    document = graph.documents[0].units[0]
    assert document.label == "Chăm sóc sức khỏe" and document.metadata["doc_type"] == "codification"
    assert "number" not in document.metadata  # the notes' acts do not name the topic


def test_provenance_notes_give_source_and_amendment_history(codified):
    _, units = codified
    first = units["Chăm sóc sức khỏe Điều 4.1.LQ.1"].metadata
    assert first["source_provision"] == "Điều 1 Luật số 10/2020/QH14"
    assert first["effective_date"] == "2020-07-01" and "amended_by" not in first
    amended = units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3"].metadata
    assert amended["source_document"] == "54/2021/NĐ-CP"
    history = json.loads(amended["amendment_history"])
    assert [(h["kinds"], h["act"], h["effective_date"]) for h in history] == [
        (["amended", "supplemented"], "155/2022/NĐ-CP", "2022-11-12"),
        (["repealed"], "08/2023/TT-BYT", "2023-02-01"),
    ]
    assert amended["amended_by"] == "Điều 5 Nghị định số 155/2022/NĐ-CP; Điều 2 Thông tư số 08/2023/TT-BYT"
    inserted = json.loads(units["Chăm sóc sức khỏe Điều 4.1.LQ.7c"].metadata["amendment_history"])
    assert inserted[0]["kinds"] == ["supplemented"] and inserted[0]["act"] == "46/2022/QH15"


def test_citations_of_a_source_act_reach_the_article_that_codifies_it(codified):
    graph, units = codified
    edges = {e.citation: e for e in graph.edges if e.citation}
    # In the article taken from Luật 10/2020, "của Luật này" is that Luật, codified as 4.1.LQ.3.
    assert edges["khoản 2 Điều 3 của Luật này"].target == units["Chăm sóc sức khỏe Điều 4.1.LQ.3 khoản 2"].id
    assert edges["khoản 1 Điều 3 Nghị định số 54/2021/NĐ-CP"].target == units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3 khoản 1"].id
    # Not codified here: an External named by the source act, not by the ambiguous "của Luật này".
    outside = next(x for x in graph.externals if x.id == edges["Điều 9 của Luật này"].target)
    assert "10/2020/QH14" in outside.raw
    # A provenance note names the article's own source: no edge from the article to itself or an External.
    source_article = units["Chăm sóc sức khỏe Điều 4.1.LQ.3"].id
    assert not [e for e in graph.edges if e.source == source_article and e.citation == "Điều 3 Luật số 10/2020/QH14"]


def test_repealed_units_are_marked(codified):
    _, units = codified
    repealed = sorted(label for label, u in units.items() if u.metadata.get("status") == "repealed")
    assert repealed == ["Chăm sóc sức khỏe Điều 4.1.LQ.7c khoản 3", "Chăm sóc sức khỏe Điều 4.1.NĐ.2.3 khoản 2 điểm b"]
    assert units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3 khoản 2 điểm c"].metadata.get("status") is None


def test_cross_links_start_at_the_article_and_resolve_inside_the_topic(codified):
    graph, units = codified
    article = units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3"]
    assert "có nội dung liên quan" in article.text
    assert "liên quan" not in units["Chăm sóc sức khỏe Điều 4.1.NĐ.2.3 khoản 2 điểm c"].text
    links = {e.citation: e for e in graph.edges if e.source == article.id and e.type is EdgeType.REFERENCES}
    assert links["Điều 4.1.LQ.1"].target == units["Chăm sóc sức khỏe Điều 4.1.LQ.1"].id
    assert links["Điều 9.2.TT.3.4"].resolution == "external"


def test_note_grammar_on_short_texts():
    assert V.CODIFIED_ARTICLE.fullmatch("Điều 2.2.TT.4.1. Phạm vi").group("num") == "2.2.TT.4.1"
    assert V.CODIFIED_ARTICLE.fullmatch("Điều 39.16.LQ.23.").group("num") == "39.16.LQ.23"
    assert V.CODIFIED_ARTICLE.fullmatch("Điều 23. Phạm vi") is None
    [note] = V.provenance_notes("(Khoản 2 Điều 1 Thông tư liên tịch số 37/2015/TTLT-BYT-BTC, có hiệu lực thi hành kể từ ngày 01/03/2016)")
    assert note.group("number") == "37/2015/TTLT-BYT-BTC"
    [replaced] = V.amendments(", có nội dung được thay thế bởi Điều 3 Quyết định số 14/2012/QĐ-TTg có hiệu lực thi hành kể từ ngày 15/04/2012")
    assert replaced.kinds == ("replaced",) and replaced.by == "Điều 3 Quyết định số 14/2012/QĐ-TTg"
    assert V.amendments("có hiệu lực thi hành kể từ ngày 01/01/2020") == []
    assert V.REPEALED_BODY.fullmatch("(được bãi bỏ)") and V.REPEALED_BODY.fullmatch("Đã bị bãi bỏ.")
    assert V.REPEALED_BODY.fullmatch("được bãi bỏ theo quyết định") is None


def test_the_header_number_names_the_document_and_self_references_mean_it(tmp_path):
    path = tmp_path / "nd-146.txt"
    path.write_text(DECREE, encoding="utf-8")
    graph = build_graph([path], "t", "generic")
    document = graph.documents[0]
    assert document.units[0].label == "Nghị định 146/2018/NĐ-CP"
    assert document.units[1].label == "Nghị định 146/2018/NĐ-CP Điều 1"
    edges = {e.citation: e for e in graph.edges if e.citation}
    # Điều 68 is not in the decree: "của Luật này" still names the citing document, never an External.
    assert edges["khoản 2 Điều 68 của Luật này"].target == document.id
    assert edges["khoản 1 Điều 1 của Nghị định này"].target == document.units[1].id
    assert edges["Điều 3 của Bộ luật này"].target == document.id
    other = edges["Điều 5 Nghị định số 70/2015/NĐ-CP"]
    assert other.resolution == "external" and "70-2015" in other.target


def test_an_ordinary_statute_keeps_its_file_label_and_article_layout(tmp_path):
    path = tmp_path / "Luat-Vien-chuc-2010.txt"
    path.write_text("LUẬT VIÊN CHỨC 2010\n\nĐiều 1. Phạm vi điều chỉnh\nLuật này quy định về viên chức.\n\n"
                    "Điều 2. Viên chức\n1. Viên chức là công dân Việt Nam.\n\na) được tuyển dụng;\n", encoding="utf-8")
    units = [u.label for u in build_graph([path], "t", "generic").documents[0].units]
    assert units == ["Luat-Vien-chuc-2010", "Luat-Vien-chuc-2010 Điều 1", "Luat-Vien-chuc-2010 Điều 2",
                     "Luat-Vien-chuc-2010 Điều 2 khoản 1", "Luat-Vien-chuc-2010 Điều 2 khoản 1 điểm a"]


def test_real_codification_checks(shared_root: Path):
    from bench.real.vi import CODIFICATION as RELATIVE
    from bench.real.vi import _body, codification_checks

    path = shared_root / RELATIVE
    if not path.exists():
        pytest.skip(f"{path} not found (set CITEWALK_SHARED)")
    checks = codification_checks(_body(path.read_text(encoding="utf-8").splitlines()),
                                 build_graph([path], "vi-check", "generic"))
    assert [c.name for c in checks if not c.ok] == []


GLUED = """# Bảo hiểm y tế

Điều 2.2.TT.19.4. Đóng bảo hiểm y tế

(Điều 4 Thông tư số 30/2020/TT-BYT, có hiệu lực thi hành kể từ ngày 01/03/2021)

2. Việc giảm trừ mức đóng thực hiện theo quy định của pháp luật bảo hiểm y tế hiện hành.Điều 2.2.LQ.13. Mức đóng và trách nhiệm đóng bảo hiểm y tế

(Điều 13 Luật số 25/2008/QH12, có hiệu lực thi hành kể từ ngày 01/07/2009)

1. Mức đóng và trách nhiệm đóng bảo hiểm y tế được quy định như sau:

Điều 2.2.TT.17.3. Chuyển thực hiện dịch vụ cận lâm sàng

(Điều 3 Thông tư số 09/2019/TT-BYT, có hiệu lực thi hành kể từ ngày 01/08/2019, có nội dung bị bãi bỏ bởi Điều 12 Thông tư số 30/2020/TT-BYT có hiệu lực thi hành kể từ ngày 01/03/2021)

***(Được bãi bỏ)***

Điều 2.2.TT.19.8. Hướng dẫn thực hiện

(Điều 8 Thông tư số 30/2020/TT-BYT, có hiệu lực thi hành kể từ ngày 01/03/2021)

3. ***Được bãi bỏ***

(Điều này có nội dung liên quan đến Điều 2.2.LQ.12. Đối tượng tham gia bảo hiểm y tế; Điều 2.2.LQ.13. Mức đóng)
"""


def test_glued_headings_and_article_wide_repeals(tmp_path: Path) -> None:
    (tmp_path / "topic.md").write_text(GLUED, encoding="utf-8")
    graph = build_graph([tmp_path / "topic.md"], "t", "generic")
    units = {u.label.split("Điều ")[-1]: u for u in graph.documents[0].units if u.type is UnitType.ARTICLE}
    # A heading stuck to the paragraph before it starts its own article; a cross-link list stays one note.
    assert sorted(units) == ["2.2.LQ.13", "2.2.TT.17.3", "2.2.TT.19.4", "2.2.TT.19.8"]
    assert units["2.2.LQ.13"].metadata["source_provision"] == "Điều 13 Luật số 25/2008/QH12"
    assert units["2.2.TT.17.3"].metadata.get("status") == "repealed"
    assert units["2.2.TT.19.8"].metadata.get("status") != "repealed"
    clause = next(u for u in graph.documents[0].units if u.parent_id == units["2.2.TT.19.8"].id)
    assert clause.metadata.get("status") == "repealed"
