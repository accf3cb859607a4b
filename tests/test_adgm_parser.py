"""The ADGM format: ids, parents and labels for the odd PassageID forms, bad input, and the real corpus."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.domain import UnitType
from ingest.parsers.adgm import AdgmParser
from ingest.parsers.adgm_ids import ancestors, canonical, segments

MAP = {
    "10": {"file": "MIR_VER07", "names": ["MIR", "Market Infrastructure Rulebook (MIR)"]},
    "17": {"file": "FSMR", "names": ["FSMR", "FINANCIAL SERVICES AND MARKETS REGULATIONS 2015"]},
    "30": {"file": "Guidance - Mining", "names": ["Guidance – Disclosure Requirements for Mining Reporting Entities"]},
}


def _passages(document_id: int, ids: list[str]) -> list[dict]:
    return [{"ID": f"id-{document_id}-{i}", "DocumentID": document_id, "PassageID": pid, "Passage": f"Text of {pid}."}
            for i, pid in enumerate(ids)]


def _corpus(tmp_path: Path, files: dict[str, object], with_map: bool = True) -> Path:
    (tmp_path / "documents").mkdir()
    if with_map:
        (tmp_path / "document_map.json").write_text(json.dumps(MAP), encoding="utf-8")
    for name, content in files.items():
        path = tmp_path / "documents" / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("3.8.1", "3.8.1"),
        ("Part 19.Chapter 1.225.(1)", "part19.chapter1.225(1)"),
        ("PART 2.3.3.3.(1)", "part2.3.3.3(1)"),
        ("APP4.A4.3.12", "app4.a4.3.12"),
        ("148)", "148"),
        ("148).a)", "148(a)"),
        ("SECTION VIII.C.9.", "sectionviii.c.9"),
        ("15.11.A.2", "15.11a.2"),
        ("15.11A.2", "15.11a.2"),
        ("Part 13.162.6)", "part13.162(6)"),
        ("PART 5.\u200e12.4.2", "part5.12.4.2"),
    ],
)
def test_canonical_passage_ids(raw: str, expected: str) -> None:
    assert canonical(segments(raw)) == expected


def test_ancestors_finest_first() -> None:
    assert ancestors("3.8.1(a)") == ["3.8.1(a)", "3.8.1", "3.8", "3"]


def test_ids_parents_labels_keys(tmp_path: Path) -> None:
    root = _corpus(tmp_path, {
        "10.json": _passages(10, ["1", "1.1.1", "3.8.1", "3.8.1.(a)"]),
        "17.json": _passages(17, ["FINANCIAL SERVICES AND MARKETS REGULATIONS 2015", "Part 19", "Part 19.Chapter 1",
                                  "Part 19.Chapter 1.225.", "Part 19.Chapter 1.225.(1)"]),
        "30.json": _passages(30, ["148)", "148).a)"]),
    })
    parsed = AdgmParser().parse([root], "adgm")
    assert not parsed.failures
    units = {u.id: u for d in parsed.documents for u in d.units}
    mir = units["id-10-1"]
    assert mir.parent_id == "id-10-0" and mir.label == "MIR 1.1.1" and mir.type is UnitType.RULE
    assert units["id-10-2"].parent_id == "adgm/10"  # no 3.8 nor 3: the document
    assert units["id-10-3"].parent_id == "id-10-2" and units["id-10-3"].label == "MIR 3.8.1(a)"
    section = units["id-17-4"]
    assert section.parent_id == "id-17-3" and section.label == "FSMR 225(1)"
    assert "adgm:17:225(1)" in section.keys and units["id-17-3"].type is UnitType.SECTION
    assert units["id-17-3"].parent_id == "id-17-2" and units["id-17-2"].parent_id == "id-17-1"
    assert units["id-30-1"].parent_id == "id-30-0" and units["id-30-1"].tier == 2
    assert units["adgm/10"].type is UnitType.DOCUMENT and units["adgm/10"].title.startswith("Market Infrastructure")
    assert parsed.documents[0].names[0] == "MIR"
    assert AdgmParser().detect([root]) and AdgmParser().detect([root / "documents" / "10.json"])


@pytest.mark.parametrize(
    ("content", "word"),
    [("{not json", "bad JSON"), (b"\x00\x01\x02binary", "binary"), ("", "empty"), ('{"a": 1}', "list"),
     (json.dumps([{"ID": "x", "DocumentID": 1, "Passage": "t"}]), "PassageID"), ("caf\xe9".encode("latin-1"), "UTF-8")],
)
def test_bad_files_fail_alone(tmp_path: Path, content: object, word: str) -> None:
    root = _corpus(tmp_path, {"1.json": content, "10.json": _passages(10, ["1", "1.1"])})
    parsed = AdgmParser().parse([root], "adgm")
    assert [d.id for d in parsed.documents] == ["adgm/10"]
    assert len(parsed.failures) == 1 and word in parsed.failures[0].problem
    assert "\n" not in parsed.failures[0].line()


def test_missing_map_names_documents_doc_n(tmp_path: Path) -> None:
    root = _corpus(tmp_path, {"10.json": _passages(10, ["1", "1.1"])}, with_map=False)
    parsed = AdgmParser().parse([root], "adgm")
    assert parsed.documents[0].units[2].label == "DOC10 1.1" and parsed.notes


def _shared() -> Path:
    try:
        from core.settings import get_settings

        return get_settings().shared
    except ImportError:
        return Path(__file__).resolve().parents[2] / "shared"


@pytest.mark.skipif(not (_shared() / "corpora" / "adgm" / "documents").is_dir(), reason="shared ADGM corpus absent")
def test_real_corpus() -> None:
    shared = _shared()
    parsed = AdgmParser().parse([shared / "corpora" / "adgm"], "adgm")
    assert not parsed.failures and len(parsed.documents) == 40
    passages = [u for d in parsed.documents for u in d.units if u.type is not UnitType.DOCUMENT]
    assert len(passages) == 13_732
    ids = {u.id for u in passages}
    gold = [json.loads(line) for line in (shared / "bench" / "xrefrag_fsra_dev.jsonl").read_text().splitlines() if line]
    assert all(r["source_passage_id"] in ids and r["target_passage_id"] in ids for r in gold)
