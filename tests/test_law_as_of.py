"""The law as of a date over versions of one act (issue 50): ingest.versions, core.as_of and `python -m core.law`,
on the real Korean versions in ../shared/corpora/real/ko-versions, in the test's own Neo4j."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from bench import amendments_as_of as amendments_bench
from bench import versions as versions_bench
from core import law as law_cli
from core.answer.service import answer_question
from core.answer.text import render_text
from core.chat.api_routes import AskRequest
from core.embeddings import SENTENCE_TRANSFORMERS
from core.settings import Settings
from core.stores import queries
from ingest.pipeline import run_ingest
from ingest.staged import staged_dates, staged_start
from ingest.versions import VersionInfo

CORPUS = "kov-test"
ART_46_1 = "응급의료에 관한 법률 제46조제1항"


@pytest.fixture(scope="module")
def ko_versions(shared_root: Path) -> Path:
    folder = shared_root / "corpora" / "real" / "ko-versions"
    if not folder.exists():
        pytest.skip(f"ko-versions not found under {shared_root} (set CITEWALK_SHARED)")
    return folder


def _files(folder: Path, *dates: str) -> list[Path]:
    return [folder / f"emergency-medical-service-act_law_{d}.md" for d in dates]


@pytest.fixture(scope="module")
def law_settings(test_settings: Settings, neo4j_driver) -> Settings:
    # The graph is what core.law reads; the small English model keeps the vectors' part of the ingest quick.
    return test_settings.model_copy(update={"embedding_backend": SENTENCE_TRANSFORMERS})


@pytest.fixture(scope="module")
def ingested(ko_versions: Path, law_settings: Settings) -> Settings:
    """The newest versions first, then the older ones: each older one slots in beside those stored."""
    first = run_ingest(_files(ko_versions, "2025-04-01", "2025-12-23", "2026-04-07"), CORPUS, law_settings, quiet=True)
    assert not first.failures, first.failures
    second = run_ingest(_files(ko_versions, "2024-09-20", "2025-03-18", "2025-11-11"), CORPUS, law_settings, quiet=True)
    assert not second.failures, second.failures
    assert second.documents == 1  # six files, one act
    return law_settings


def _law(capsys, settings: Settings, monkeypatch, day: str, *labels: str, corpus: str = CORPUS) -> list[dict]:
    monkeypatch.setattr(law_cli, "get_settings", lambda: settings)
    law_cli.main(["--corpus", corpus, "--as-of", day, "--json", *labels])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_staged_start_from_the_versions_own_addenda() -> None:
    # The real proviso of 법률 제20887호 (2025. 4. 1.): the act from a year after promulgation, 제46조제1항 후단 from two.
    addenda = ("부칙 <제20887호,2025.4.1>\n제1조(시행일) 이 법은 공포 후 1년이 경과한 날부터 시행한다. 다만, 제46조제1항 "
               "후단의 개정규정은 공포 후 2년이 경과한 날부터 시행한다.\n부칙 <제21110호,2025.11.11>\n이 법은 공포 후 "
               "6개월이 경과한 날부터 시행한다.")
    staged = staged_dates(addenda, VersionInfo(effective="2026-04-02", promulgated="2025-04-01", number="20887"))
    assert staged == {"제46조제1항": "2027-04-02"}
    assert staged_start(ART_46_1, staged) == "2027-04-02"
    assert staged_start("응급의료에 관한 법률 제46조제2항", staged) is None
    assert staged_start("응급의료에 관한 법률 제146조제1항", staged) is None
    # Another version's addenda say nothing of this one's provisions.
    assert staged_dates(addenda, VersionInfo(effective="2026-05-12", promulgated="2025-11-11", number="21110")) == {}


def test_ranges_and_dates_in_a_proviso() -> None:
    addenda = ("부칙 <제9999호,2020.1.1>\n①(시행일) 이 법은 공포한 날부터 시행한다. 다만, 제13조의2부터 제13조의4까지, "
               "제14조 및 제49조의 개정규정은 공포 후 1년이 경과한 날부터 시행하고, 제31조의2의 개정규정은 2020년 7월 1일부터 시행한다.")
    staged = staged_dates(addenda, VersionInfo(effective="2020-01-01", promulgated="2020-01-01", number="9999"))
    assert staged == {"제13조의2": "2021-01-02", "제13조의3": "2021-01-02", "제13조의4": "2021-01-02",
                      "제14조": "2021-01-02", "제49조": "2021-01-02", "제31조의2": "2020-07-01"}


def test_the_version_in_force_on_each_date(ingested: Settings, capsys, monkeypatch) -> None:
    old = "① 구급차등은 환자이송 및 응급의료를 하는 데에 적합하게 설계ㆍ제작되어야 한다."
    before, between, after = _law(capsys, ingested, monkeypatch, "2026-05-01", ART_46_1) + \
        _law(capsys, ingested, monkeypatch, "2026-12-01", ART_46_1) + _law(capsys, ingested, monkeypatch, "2027-04-02", ART_46_1)
    # The 2025-04-01 amendment's words are in every later version, but its own addenda start them on 2027-04-02.
    assert before["status"] == between["status"] == "in_force"
    assert " ".join(before["text"].split()) == old and " ".join(between["text"].split()) == old
    assert before["pending"] and before["pending"][0]["date"] == "2027-04-02"
    assert "70센티미터" in before["pending"][0]["text"]
    assert after["status"] == "in_force" and "70센티미터" in after["text"] and after["in_force_from"] == "2027-04-02"
    assert any("20887" in e["source"] for e in after["events"])


def test_bench_versions_scores_the_stored_act(ingested: Settings, ko_versions: Path, monkeypatch) -> None:
    monkeypatch.setattr(versions_bench, "get_settings", lambda: ingested)
    result = versions_bench.run(ko_versions, CORPUS)
    rule = result["scores"]["version rule"]
    assert result["provisions_that_change"] >= 20
    assert rule["accuracy"] >= 0.98, result["misses"][:5]
    assert rule["pending_checks"] > 0 and rule["pending_recall"] >= 0.98


def test_label_forms_and_not_found(ingested: Settings, capsys, monkeypatch) -> None:
    found = _law(capsys, ingested, monkeypatch, "2026-01-01", "응급의료에 관한 법률, 제46조 제1항", "없는 법 제1조", ART_46_1)
    assert [f["label"] for f in found] == ["응급의료에 관한 법률, 제46조 제1항", "없는 법 제1조", ART_46_1]
    assert found[0]["status"] == "in_force" and found[0]["text"] == found[2]["text"]
    assert found[1]["status"] == "not_found"
    unit_id = found[2]["unit_id"]
    by_id = _law(capsys, ingested, monkeypatch, "2026-01-01", unit_id)
    assert by_id[0]["text"] == found[2]["text"]


def test_reingest_is_idempotent(ingested: Settings, ko_versions: Path) -> None:
    again = run_ingest(_files(ko_versions, "2025-12-23"), CORPUS, ingested, quiet=True)
    assert not again.failures and again.documents_unchanged == 1 and again.documents_written == 0


def _stored_wordings(settings: Settings, neo4j_driver) -> list[tuple]:
    rows = queries.versioned_units(neo4j_driver, settings.neo4j_database, CORPUS)
    return sorted((k, r["valid_from"], r["valid_until"], r["text"]) for k, v in rows.items() for r in v)


@pytest.mark.parametrize("field, value, problem", [
    ("시행일자", None, "no date in force"),
    ("시행일자", "2026-13-45", "unparseable date"),
    ("시행일자", "2024-01-01", "conflicting dates"),  # before its promulgation
    ("공포일자", "언젠가", "unparseable date"),
])
def test_bad_dates_are_refused_by_file_and_lose_nothing(ingested: Settings, neo4j_driver, ko_versions: Path,
                                                        tmp_path: Path, field: str, value: str | None,
                                                        problem: str) -> None:
    before = _stored_wordings(ingested, neo4j_driver)
    source = _files(ko_versions, "2026-04-07")[0].read_text(encoding="utf-8")
    lines = [line for line in source.splitlines() if not (value is None and line.startswith(field + ":"))]
    if value is not None:
        lines = [f"{field}: {value}" if line.startswith(field + ":") else line for line in lines]
    bad = tmp_path / "another-name.md"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = run_ingest([bad], CORPUS, ingested, quiet=True)
    assert [f.path for f in summary.failures] == [str(bad)]
    assert problem in summary.failures[0].problem
    assert _stored_wordings(ingested, neo4j_driver) == before


def test_a_promulgation_with_another_date_in_force_is_refused(ingested: Settings, neo4j_driver, ko_versions: Path,
                                                              tmp_path: Path) -> None:
    before = _stored_wordings(ingested, neo4j_driver)
    copy = tmp_path / "renamed.md"
    shutil.copy(_files(ko_versions, "2025-11-11")[0], copy)
    copy.write_text(copy.read_text(encoding="utf-8").replace("시행일자: 2026-05-12", "시행일자: 2026-05-13"), encoding="utf-8")
    summary = run_ingest([copy], CORPUS, ingested, quiet=True)
    assert len(summary.failures) == 1 and "conflicting dates" in summary.failures[0].problem
    assert "21110" in summary.failures[0].problem
    assert _stored_wordings(ingested, neo4j_driver) == before


QUESTION = "시ㆍ도지사는 응급처치 요령 등의 교육ㆍ홍보를 실시한 결과를 보건복지부장관에게 어떻게 하여야 하나요?"


def test_the_same_question_on_two_dates_quotes_two_wordings(ingested: Settings) -> None:
    # 제14조제3항 says 통보 in the version in force from 2025-03-18 and 보고 in the one in force from 2025-06-21.
    early = answer_question(QUESTION, CORPUS, ingested, as_of="2025-04-01")
    late = answer_question(QUESTION, CORPUS, ingested, as_of="2025-07-01")
    assert early.as_of == "2025-04-01" and late.as_of == "2025-07-01"
    quoted = [" ".join(c.text for r in e.answer.rules for c in r.claims) for e in (early, late)]
    assert "통보하여야" in quoted[0] and "보고하여야" not in quoted[0]
    assert "보고하여야" in quoted[1] and "통보하여야" not in quoted[1]
    assert "law as in force on 2025-07-01" in render_text(late)


def test_a_date_is_checked_where_it_is_typed() -> None:
    with pytest.raises(ValidationError):
        AskRequest.model_validate({"question": "q", "as_of": "2026-13-01"})
    with pytest.raises(law_cli.DateError, match="not a date"):
        law_cli.as_of_date("next tuesday")


def test_amending_acts_read_before_and_on_their_date(law_settings: Settings, shared_root: Path, capsys,
                                                    monkeypatch) -> None:
    """The Vietnamese gazette chains: every gold instruction on a provision reads the old words the day before the
    amending act takes effect and the new ones that day (issue 50, must show 2)."""
    folder = shared_root / "corpora" / "real" / "vi-amendments"
    if not folder.exists():
        pytest.skip(f"vi-amendments not found under {shared_root}")
    summary = run_ingest(sorted(folder.glob("*.txt")), "via-test", law_settings, quiet=True)
    assert not summary.failures, summary.failures
    monkeypatch.setattr(amendments_bench, "get_settings", lambda: law_settings)
    result = amendments_bench.run(folder, "via-test")
    assert result["checked"] >= 60 and result["accuracy"] >= 0.95, result["misses"][:5]
    inserted = _law(capsys, law_settings, monkeypatch, "2025-12-31", "Nghị định 112/2021/NĐ-CP Điều 15a",
                    corpus="via-test")[0]
    assert inserted["status"] == "not_yet_in_force" and inserted["pending"][0]["date"] == "2026-01-01"
