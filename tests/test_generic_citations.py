"""Citations in generic documents: keys finest first, relative references, cross-document names."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.citations.generic import GenericCitationFinder
from ingest.parsers.generic.format import GenericParser

CITED = """Circular 30/2024/TT-BYT
Article 12. Records
1. Keep records.
3. Keep them for five years.
Article 15. Licensing
1. Apply in writing.
3. The licence covers:
(a) clinics;
(b) hospitals.
"""

CITING = """Circular 40/2025/TT-BYT
Article 1. Amendments
1. Clause 3, Article 15 of Circular 30/2024 is amended as follows.
2. Article 15(3)(a) of Circular 30/2024/TT-BYT applies, and Article 12 of Circular 20/2020 is replaced.
3. Subject to paragraph 2 of this Article and Article 2, see Article 15(9) of Circular 30/2024.
Article 2. Fees
Fees under Articles 1 to 2 apply.
"""

VI_CITING = """Số: 41/2025/TT-BYT
THÔNG TƯ
Điều 1. Sửa đổi
1. Sửa đổi khoản 3 Điều 12 Thông tư 30/2024/TT-BYT như sau.
2. Theo điểm a khoản 3 Điều 15 của Thông tư số 30/2024/TT-BYT và khoản 1 Điều này.
Điều 2. Hiệu lực
Điều 1 đến Điều 2 áp dụng.
"""

KO_CITING = """개인정보 보호법 시행령
제1조(목적) 이 영은 「개인정보 보호법」 제2조제1항에서 위임된 사항을 정한다.
제2조(정의) ① 이 영에서 사용하는 용어는 제1조와 같다.
② 제1항 제1호 및 같은 조 제3항에 따른다.
"""

KO_LAW = """개인정보 보호법
제2조(정의) 이 법에서 사용하는 용어의 뜻은 다음과 같다.
① 첫째
1. 개인정보
"""


def graph_for(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = sorted(tmp_path.iterdir())
    try:
        from ingest.graph import build_graph

        return build_graph(paths, corpus="t", forced_format="generic")
    except ImportError:  # another format of the registry not importable: run the same steps directly
        from ingest.citations.terms import DefinedTermFinder
        from ingest.graph import CorpusGraph, find_mentions
        from ingest.resolve import KeyIndex, resolve_mentions, structure_edges

        fmt = GenericParser()
        parsed = fmt.parse(paths, "t")
        docs = parsed.documents
        resolution = resolve_mentions(find_mentions(docs, GenericCitationFinder(docs), DefinedTermFinder(docs)), KeyIndex(docs), "t")
        return CorpusGraph(corpus="t", format=fmt.name, documents=docs, edges=structure_edges(docs) + resolution.edges,
                           externals=resolution.externals, failures=parsed.failures, notes=parsed.notes)


def citation_edges(graph, source_prefix: str) -> set[tuple[str, str, str, str]]:
    return {
        (e.source, e.target, e.type.value, e.resolution)
        for e in graph.edges
        if e.type is not EdgeType.CONTAINS and e.source.startswith(source_prefix)
    }


def test_english_cross_document_and_relative(tmp_path: Path) -> None:
    graph = graph_for(tmp_path, {"c30.txt": CITED, "c40.txt": CITING})
    edges = citation_edges(graph, "t/c40/")
    assert ("t/c40/art-1/cl-1", "t/c30/art-15/cl-3", "AMENDS", "exact") in edges
    assert ("t/c40/art-1/cl-2", "t/c30/art-15/cl-3/pt-a", "REFERENCES", "exact") in edges
    replaced = [e for e in edges if e[0] == "t/c40/art-1/cl-2" and e[3] == "external"]
    assert replaced == [("t/c40/art-1/cl-2", "t/external/article-12-of-circular-20-2020", "REPLACES", "external")]
    assert ("t/c40/art-1/cl-3", "t/c40/art-1/cl-2", "REFERENCES", "exact") in edges  # paragraph 2 of this Article
    assert ("t/c40/art-1/cl-3", "t/c40/art-2", "REFERENCES", "exact") in edges
    assert ("t/c40/art-1/cl-3", "t/c30/art-15", "REFERENCES", "ancestor") in edges  # Article 15(9): no (9)
    assert ("t/c40/art-2", "t/c40/art-1", "REFERENCES", "exact") in edges  # range 1 to 2; itself dropped
    assert not any(e[1] == "t/c40/art-2" for e in edges if e[0] == "t/c40/art-2")
    assert any(x.raw == "Article 12 of Circular 20/2020" for x in graph.externals)


def test_vietnamese_citations(tmp_path: Path) -> None:
    graph = graph_for(tmp_path, {"c30.txt": CITED, "tt41.txt": VI_CITING})
    edges = citation_edges(graph, "t/tt41/")
    assert ("t/tt41/art-1/cl-1", "t/c30/art-12/cl-3", "AMENDS", "exact") in edges
    assert ("t/tt41/art-1/cl-2", "t/c30/art-15/cl-3/pt-a", "REFERENCES", "exact") in edges
    assert ("t/tt41/art-1/cl-2", "t/tt41/art-1/cl-1", "REFERENCES", "exact") in edges  # khoản 1 Điều này
    assert ("t/tt41/art-2", "t/tt41/art-1", "REFERENCES", "exact") in edges  # Điều 1 đến Điều 2


def test_korean_citations(tmp_path: Path) -> None:
    graph = graph_for(tmp_path, {"law.txt": KO_LAW, "decree.txt": KO_CITING})
    edges = citation_edges(graph, "t/decree/")
    assert ("t/decree/art-1", "t/law/art-2/cl-1", "REFERENCES", "exact") in edges
    assert ("t/decree/art-2/cl-1", "t/decree/art-1", "REFERENCES", "exact") in edges
    # 제1항 제1호: paragraph 1 of the citing article has no item 1 → its nearest ancestor.
    assert ("t/decree/art-2/cl-2", "t/decree/art-2/cl-1", "REFERENCES", "ancestor") in edges


def _finder_on(text: str) -> tuple[GenericCitationFinder, LegalUnit, Document]:
    unit = LegalUnit(id="t/d/art-7/cl-2", corpus="t", document_id="t/d", type=UnitType.CLAUSE,
                     label="d Article 7(2)", text=text, parent_id="t/d/art-7", keys=["gen:d:art:7:cl:2"])
    root = LegalUnit(id="t/d", corpus="t", document_id="t/d", type=UnitType.DOCUMENT, label="d", keys=["gen:d"])
    document = Document(id="t/d", corpus="t", title="d", source_path="d.txt", units=[root, unit])
    return GenericCitationFinder([document]), unit, document


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("see Article 15", [["gen:d:art:15"]]),
        ("see Article 15(3)", [["gen:d:art:15:cl:3", "gen:d:art:15"]]),
        ("per Section 5 and § 12", [["gen:d:sec:5"], ["gen:d:sec:12"]]),
        ("under Rule 3.8.1", [["gen:d:rule:3.8.1"]]),
        ("Articles 5 to 7", [["gen:d:art:5"], ["gen:d:art:6"], ["gen:d:art:7"]]),
        ("point (b) of this Article", [["gen:d:art:7:pt:b", "gen:d:art:7"]]),
        ("point (c)", [["gen:d:art:7:cl:2:pt:c", "gen:d:art:7:cl:2", "gen:d:art:7"]]),
        ("Article 4(1)(i)", [["gen:d:art:4:cl:1:pt:i", "gen:d:art:4:cl:1:sp:i", "gen:d:art:4:cl:1", "gen:d:art:4"]]),
        ("Article 5 of Decree 99/2020", [["gen-name:no:decree:99/2020:art:5"]]),
        ("Điều 5 Thông tư 30/2024/TT-BYT", [["gen-name:no:circular:30/2024/tt-byt:art:5"]]),
        ("khoản 3 Điều 12", [["gen:d:art:12:cl:3", "gen:d:art:12"]]),
        ("điểm a khoản 1 Điều 5", [["gen:d:art:5:cl:1:pt:a", "gen:d:art:5:cl:1", "gen:d:art:5"]]),
        ("khoản 4", [["gen:d:art:7:cl:4", "gen:d:art:7"]]),
        ("điểm b khoản này", [["gen:d:art:7:cl:2:pt:b", "gen:d:art:7:cl:2", "gen:d:art:7"]]),
        ("제5조제2항", [["gen:d:art:5:cl:2", "gen:d:art:5"]]),
        ("제3조", [["gen:d:art:3"]]),
        ("이 법 제5조", [["gen:d:art:5"]]),
        ("제3호", [["gen:d:art:7:cl:2:pt:3", "gen:d:art:7:cl:2", "gen:d:art:7"]]),
        ("제5조부터 제7조까지", [["gen:d:art:5"], ["gen:d:art:6"], ["gen:d:art:7"]]),
        ("「개인정보 보호법」 제3조", [["gen-name:title:개인정보-보호법:art:3"]]),
        ("Article 5 of the Data Protection Act 2021", [["gen-name:title:data-protection-act-2021:art:5"]]),
    ],
)
def test_patterns(text: str, keys: list[list[str]]) -> None:
    finder, unit, document = _finder_on(text)
    mentions = finder.find(unit, document)
    assert [m.keys for m in mentions] == keys
    assert all(unit.text[m.start : m.end].strip() == m.text for m in mentions)


def test_prose_is_not_cited() -> None:
    finder, unit, document = _finder_on("The article was discussed in section meetings; điều kiện; 제도.")
    assert finder.find(unit, document) == []


def test_no_catastrophic_backtracking() -> None:
    hostile = "Article " + "1." * 20_000 + " (" * 10_000 + "khoản điểm 제 조 " * 2_000 + "of the " + "Aa " * 10_000
    assert "\n" not in hostile and len(hostile) > 100_000
    finder, unit, document = _finder_on(hostile)
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    finder.find(unit, document)
    assert time.process_time() - started < 3


def test_ten_thousand_citations_in_one_unit() -> None:
    text = " ".join(f"Article {n}(2) and 제{n}조제1항;" for n in range(5_000))
    finder, unit, document = _finder_on(text)
    started = time.process_time()
    mentions = finder.find(unit, document)
    assert len(mentions) == 10_000
    assert time.process_time() - started < 5
