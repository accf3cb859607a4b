"""`kill -9` in the middle of an ingest: every document stays in its old or its new state, whole;
re-running completes and leaves the same counts as an uninterrupted run."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from core.settings import REPO_ROOT
from core.stores import queries
from ingest.pipeline import run_ingest

CORPUS = "killtest"
ADDED = "(z) Paragraph added in version two of this section."


def _documents(driver, db) -> dict[str, str]:
    return queries.stored_hashes(driver, db, CORPUS)


def _with_new_paragraph(driver, db) -> set[str]:
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $c}) WHERE u.text CONTAINS 'version two' RETURN DISTINCT u.document_id AS d",
        c=CORPUS, database_=db)
    return {r["d"] for r in records}


def test_kill_during_ingest_leaves_whole_documents_and_rerun_completes(hipaa_dir: Path, tmp_path: Path,
                                                                      test_settings, neo4j_driver):
    db = test_settings.neo4j_database
    corpus_dir = tmp_path / "hipaa"
    (corpus_dir / "regulations").mkdir(parents=True)
    shutil.copy(hipaa_dir / "hipaa.yml", corpus_dir / "hipaa.yml")
    for path in sorted((hipaa_dir / "regulations").glob("*.md"))[:50]:
        shutil.copy(path, corpus_dir / "regulations" / path.name)
    first = run_ingest([corpus_dir], CORPUS, test_settings, quiet=True)
    assert not first.failures
    v1_hashes = _documents(neo4j_driver, db)

    for path in (corpus_dir / "regulations").glob("*.md"):
        path.write_text(path.read_text().rstrip() + "\n\n" + ADDED + "\n")
    env = {**os.environ, "CITEWALK_DATA_DIR": str(test_settings.data_dir),
           "CITEWALK_NEO4J_BOLT_PORT": str(test_settings.neo4j_bolt_port)}
    proc = subprocess.Popen([sys.executable, "-m", "ingest", str(corpus_dir), "--corpus", CORPUS, "--quiet"],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not _with_new_paragraph(neo4j_driver, db):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()

    changed = _with_new_paragraph(neo4j_driver, db)
    hashes = _documents(neo4j_driver, db)
    sections = {d for d in v1_hashes if d != f"{CORPUS}/structure"}
    assert changed, "the kill came before any document was written; the test did not exercise a partial run"
    assert changed < sections, "the run finished before the kill; the test did not exercise a partial run"
    for doc in sections:
        # Whole old or whole new: the new paragraph is present exactly when the document's hash moved on.
        assert (doc in changed) == (hashes[doc] != v1_hashes[doc]), doc
    dangling = neo4j_driver.execute_query(
        "MATCH (u:Unit {corpus: $c}) WHERE u.pending IS NULL AND u.text IS NULL RETURN count(u) AS n", c=CORPUS,
        database_=db)[0][0]["n"]
    assert dangling == 0

    rerun = run_ingest([corpus_dir], CORPUS, test_settings, quiet=True)
    counts = queries.corpus_counts(neo4j_driver, db, CORPUS)
    assert counts["units"] == rerun.units_by_type
    assert sum(counts["edges"].values()) == sum(rerun.edges_by_type.values())
    assert _with_new_paragraph(neo4j_driver, db) == sections
