"""A Vietnamese Law that amends a Law it names by title: every instruction becomes an edge into the amended law.

The amending texts are real sentences: Luật số 24/2012/QH13 whole (tests/vi_law_texts.py: the bare "Điều 1." over
"Sửa đổi, bổ sung một số điều của Luật điện lực như sau:", its 24 items, Điều 2's phrase instructions that name the act
only at the end of their sentence), the Luật Cư trú 2020's instruction on Luật Bảo hiểm y tế and the Pháp điển's "Luật Bảo hiểm y tế số 25/2008/QH12 … (sau đây gọi là Luật Bảo hiểm y tế)". The amended laws' headers
are written as the gazette prints a Law ("Luật số: …" / "LUẬT" / its title); their articles carry the numbers the
instructions name (Luật Bảo hiểm y tế's Điều 2 and Điều 22 with their real opening words)."""
from __future__ import annotations

from pathlib import Path

from bench.real.vi_law_by_title import law_by_title_checks
from core.domain import EdgeType
from ingest.citations.vi_acts import StatedActs
from ingest.citations.vi_amendments import parse_instruction
from ingest.graph import CorpusGraph, build_graph

HEALTH_INSURANCE = """QUỐC HỘI
Luật số: 25/2008/QH12
LUẬT
BẢO HIỂM Y TẾ
Điều 2. Giải thích từ ngữ
Trong Luật này, các từ ngữ dưới đây được hiểu như sau:
1. Bảo hiểm y tế là hình thức bảo hiểm bắt buộc được áp dụng đối với các đối tượng theo quy định của Luật này để chăm sóc sức khỏe, không vì mục đích lợi nhuận do Nhà nước tổ chức thực hiện.
7. Hộ gia đình tham gia bảo hiểm y tế (sau đây gọi chung là hộ gia đình) bao gồm toàn bộ người có tên trong sổ hộ khẩu hoặc sổ tạm trú.
Điều 22. Mức hưởng bảo hiểm y tế
1. Người tham gia bảo hiểm y tế khi đi khám bệnh, chữa bệnh theo quy định tại các điều 26, 27 và 28 của Luật này thì được quỹ bảo hiểm y tế thanh toán chi phí khám bệnh, chữa bệnh trong phạm vi được hưởng với mức hưởng như sau:
a) 100% chi phí khám bệnh, chữa bệnh đối với đối tượng quy định tại các điểm a, d, e, g, h và i khoản 3 Điều 12 của Luật này.
"""

_HEALTH_ITEMS = """Điều 1. Sửa đổi, bổ sung một số điều của Luật Bảo hiểm y tế
1. Sửa đổi, bổ sung khoản 7 Điều 2 như sau:
“7. Hộ gia đình tham gia bảo hiểm y tế (sau đây gọi chung là hộ gia đình) là những người cùng đăng ký thường trú hoặc cùng đăng ký tạm trú tại một chỗ ở hợp pháp theo quy định của pháp luật về cư trú.”
2. Sửa đổi, bổ sung điểm a khoản 1 Điều 22 như sau:
“a) 100% chi phí khám bệnh, chữa bệnh đối với đối tượng quy định tại các điểm a, d, e, g, h và i khoản 3 Điều 12 của Luật này;”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2025.
"""

# The preamble states the number and the short name; the articles name the act by title only.
HEALTH_AMENDING = """QUỐC HỘI
Luật số: 51/2024/QH15
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT BẢO HIỂM Y TẾ
Căn cứ Hiến pháp nước Cộng hòa xã hội chủ nghĩa Việt Nam;
Quốc hội ban hành Luật sửa đổi, bổ sung một số điều của Luật Bảo hiểm y tế số 25/2008/QH12 đã được sửa đổi, bổ sung một số điều theo Luật số 32/2013/QH13, Luật số 46/2014/QH13, Luật số 97/2015/QH13, Luật số 35/2018/QH14, Luật số 68/2020/QH14 và Luật số 30/2023/QH15 (sau đây gọi là Luật Bảo hiểm y tế).
""" + _HEALTH_ITEMS

# No number anywhere: the title alone finds the ingested act whose header gives that title.
HEALTH_AMENDING_UNNUMBERED = """QUỐC HỘI
Luật số: 51/2024/QH15
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT BẢO HIỂM Y TẾ
Căn cứ Hiến pháp nước Cộng hòa xã hội chủ nghĩa Việt Nam;
Quốc hội ban hành Luật sửa đổi, bổ sung một số điều của Luật Bảo hiểm y tế.
""" + _HEALTH_ITEMS

HEALTH_GOLD = {("art-1/cl-1", "art-2/cl-7"), ("art-1/cl-2", "art-22/cl-1/pt-a")}


def _graph(tmp_path: Path, files: dict[str, str]) -> CorpusGraph:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return build_graph(sorted(tmp_path.iterdir()), "t", "generic")


def _edges(graph: CorpusGraph, amending: str) -> set[tuple[str, str]]:
    prefix = f"t/{amending}/"
    return {(e.source.removeprefix(prefix), e.target) for e in graph.edges
            if e.source.startswith(prefix) and e.type in (EdgeType.AMENDS, EdgeType.REPLACES)}


def test_the_preamble_short_name_and_number_resolve_the_title(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"luat-51-2024.txt": HEALTH_AMENDING, "luat-25-2008.txt": HEALTH_INSURANCE})
    found = _edges(graph, "luat-51-2024")
    assert found == {(s, f"t/luat-25-2008/{t}") for s, t in HEALTH_GOLD}


def test_a_title_never_numbered_finds_the_act_whose_header_gives_it(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"luat-51-2024.txt": HEALTH_AMENDING_UNNUMBERED, "luat-25-2008.txt": HEALTH_INSURANCE})
    found = _edges(graph, "luat-51-2024")
    assert found == {(s, f"t/luat-25-2008/{t}") for s, t in HEALTH_GOLD}


def test_a_title_not_ingested_is_an_external_named_by_the_title(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"luat-51-2024.txt": HEALTH_AMENDING_UNNUMBERED})
    found = _edges(graph, "luat-51-2024")
    externals = {x.id: x.raw for x in graph.externals}
    assert {s for s, _ in found} == {s for s, _ in HEALTH_GOLD}
    assert all(externals.get(t, "").startswith("Luật Bảo hiểm y tế, ") for _, t in found), (found, externals)


def test_stated_numbers_and_titles() -> None:
    stated = StatedActs("Thông tư này quy định chi tiết và hướng dẫn thi hành một số điều của Luật Bảo hiểm y tế số "
                        "25/2008/QH12 ngày 14 tháng 11 năm 2008 đã được sửa đổi, bổ sung một số điều theo Luật số "
                        "32/2013/QH13, Luật số 46/2014/QH13 (sau đây gọi là Luật Bảo hiểm y tế), bao gồm:")
    heading = parse_instruction("Sửa đổi, bổ sung một số điều của Luật Bảo hiểm y tế", stated=stated)
    assert heading is not None and heading.umbrella and heading.act is not None
    assert heading.act.number == "25/2008/QH12"
    # Two laws by title in one heading: the first is the act; "pháp luật về …" is no act.
    both = parse_instruction("Sửa đổi, bổ sung một số điều của Luật Thuế thu nhập doanh nghiệp và Luật Thuế tài nguyên")
    assert both is not None and both.act is not None and (both.act.number, both.act.title) == ("", "Thuế thu nhập doanh nghiệp")
    assert parse_instruction("Bổ sung khoản 5 vào Điều 32 theo quy định của pháp luật về đo lường") is not None
    assert parse_instruction("Bổ sung khoản 5 vào Điều 32 theo quy định của pháp luật về đo lường").act is None  # type: ignore[union-attr]


REPLACING_FORMS = """Số: 07/2025/TT-BTC
THÔNG TƯ
Sửa đổi, bổ sung một số điều của Thông tư số 44/2022/TT-BTC
Căn cứ Luật Ngân sách nhà nước;
Điều 1. Thay thế một số phụ lục, mẫu biểu của Thông tư số 44/2022/TT-BTC
1. Thay thế Mẫu số 01, Mẫu số 02 tại Phụ lục I bằng Mẫu số 01, Mẫu số 02 ban hành kèm theo Thông tư này.
2. Bãi bỏ Mẫu số 03 tại Phụ lục I.
Điều 2. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2025.
"""

FORMS = """Số: 44/2022/TT-BTC
THÔNG TƯ
Quy định quản lý và sử dụng kinh phí
Điều 1. Phạm vi
Thông tư này quy định quản lý kinh phí.
Phụ lục I
Mẫu số 01
Báo cáo
Mẫu số 02
Dự toán
Mẫu số 03
Quyết toán
"""


def test_a_heading_that_introduces_its_items_is_no_edge_of_its_own(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"tt-07-2025.txt": REPLACING_FORMS, "tt-44-2022.txt": FORMS})
    found = _edges(graph, "tt-07-2025")
    assert ("art-1", "t/tt-44-2022") not in found
    assert not any(t == "t/tt-44-2022" for _, t in found), found
    assert {t.removeprefix("t/tt-44-2022/") for s, t in found if s.startswith("art-1/")} == {
        "annex-i/form-01", "annex-i/form-02", "annex-i/form-03"}


NEW_FILM_LAW = """QUỐC HỘI
Luật số: 05/2022/QH15
LUẬT
ĐIỆN ẢNH
Điều 49. Hiệu lực thi hành
1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2023.
2. Luật Điện ảnh số 62/2006/QH11 đã được sửa đổi, bổ sung một số điều theo Luật số 31/2009/QH12, Luật số 35/2018/QH14 và Luật số 61/2020/QH14 hết hiệu lực kể từ ngày Luật này có hiệu lực thi hành.
"""


def test_a_law_repealing_the_old_law_of_its_title_does_not_repeal_itself(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"luat-dien-anh-2022.txt": NEW_FILM_LAW})
    repeal = [e for e in graph.edges if e.type is EdgeType.REPLACES and e.source.startswith("t/luat-dien-anh-2022/")]
    externals = {x.id: x.raw for x in graph.externals}
    assert [externals.get(e.target) for e in repeal] == ["Luật số 62/2006/QH11"]


def test_every_instruction_of_a_real_amending_law_is_an_edge_into_the_amended_law(tmp_path: Path) -> None:
    """Luật 24/2012/QH13 whole (tests/vi_law_texts.py), scored by bench.real's vi_law_by_title as the vi-amendments gold
    is: from the instructing item (its points included), to the named provision or within one level of it."""
    recall, precision = law_by_title_checks(tmp_path)
    assert recall.ok and precision.ok, (recall, precision)
    assert recall.detail["targets"] == 102 and precision.detail["edges"] >= 98
