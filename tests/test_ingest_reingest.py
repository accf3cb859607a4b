"""A re-ingest after one amending document is added, or one file is edited, leaves the graph a full ingest of the same
files gives: every unit's text, every edge, and every unit's current law (issue 52: a re-ingest is cheap and exact)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from core.domain import EdgeType
from core.settings import Settings
from core.stores import queries
from ingest.pipeline import run_ingest
from tests.eu_texts import ACT, AMENDED

DELETED = "(b) paragraph 6 is deleted;"


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _ingest(folder: Path, corpus: str, settings: Settings) -> Any:
    summary = run_ingest([folder], corpus, settings, forced_format="generic", quiet=True)
    assert not summary.failures
    return summary


def _state(driver, settings: Settings, corpus: str) -> dict[str, Any]:
    """The stored corpus with its name taken out of every id, so that two corpora of the same files compare equal."""
    db, prefix = settings.neo4j_database, f"{corpus}/"

    def bare(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(prefix, "")
        if isinstance(value, dict):
            return {bare(k): bare(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [bare(v) for v in value]
        return value

    units = {r["id"]: r["text"] for r in queries.corpus_units(driver, db, corpus)}
    edges = {(r["source"], r["type"], r["target"])
             for r in queries.corpus_edges(driver, db, corpus, [t.value for t in EdgeType])}
    laws = {uid: law.model_dump() for uid in units if (law := queries.current_law(driver, db, uid)) is not None}
    return bare({"units": units, "edges": sorted(edges), "laws": laws})


def test_adding_an_amending_document_gives_what_a_full_ingest_gives(tmp_path: Path, test_settings, neo4j_driver):
    folder = _write(tmp_path / "re", {"amended.txt": AMENDED})
    _ingest(folder, "readd", test_settings)
    _write(folder, {"act.txt": ACT})
    again = _ingest(folder, "readd", test_settings)
    assert again.documents == 2 and again.documents_written >= 1
    _ingest(_write(tmp_path / "full", {"amended.txt": AMENDED, "act.txt": ACT}), "refull", test_settings)
    got, want = _state(neo4j_driver, test_settings, "readd"), _state(neo4j_driver, test_settings, "refull")
    assert any(t == EdgeType.AMENDS.value for _, t, _ in want["edges"])
    assert any(law["status"] != "in_force" for law in want["laws"].values())  # the amender's deletion is current law
    assert any(law["latest_id"] for law in want["laws"].values())  # and its replacing words the newest text
    assert got == want


def test_editing_an_amending_instruction_gives_what_a_full_ingest_gives(tmp_path: Path, test_settings, neo4j_driver):
    folder = _write(tmp_path / "re", {"amended.txt": AMENDED, "act.txt": ACT})
    _ingest(folder, "reedit", test_settings)
    before = _state(neo4j_driver, test_settings, "reedit")
    edited = ACT.replace(DELETED, "(b) paragraph 8 is deleted;")
    assert edited != ACT
    _write(folder, {"act.txt": edited})
    again = _ingest(folder, "reedit", test_settings)
    assert again.documents_written == 1
    _ingest(_write(tmp_path / "full", {"amended.txt": AMENDED, "act.txt": edited}), "reeditfull", test_settings)
    got, want = _state(neo4j_driver, test_settings, "reedit"), _state(neo4j_driver, test_settings, "reeditfull")
    assert got != before  # the edit moved the deletion from paragraph 6 to paragraph 8
    assert got == want
