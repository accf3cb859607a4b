"""Two ingests into one data dir take turns, and two clients creating the schema at once both succeed.

Both were seen on a fresh data dir with two `python -m ingest` started together: the second died on Chroma's
"table collections already exists" (told to move a "damaged" folder away) or on Neo4j's
EquivalentSchemaRuleAlreadyExists, with a traceback.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from core.settings import REPO_ROOT
from core.stores import neo4j_store, queries
from core.stores.file_lock import exclusive
from ingest.pipeline import ingest_lock

CORPUS = "locktest"
SAMPLE = REPO_ROOT / "examples" / "sample-corpus"


def _units(driver, database: str) -> int:
    return sum(queries.corpus_counts(driver, database, CORPUS)["units"].values())


def _wait_for_line(stream, prefix: str, timeout_s: float) -> str:
    found: list[str] = []

    def read() -> None:
        for line in stream:
            if line.startswith(prefix):
                found.append(line)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout_s)
    return found[0] if found else ""


def test_an_ingest_waits_while_another_holds_its_data_dir_then_runs(test_settings, neo4j_driver):
    db = test_settings.neo4j_database
    env = {**os.environ, "CITEWALK_DATA_DIR": str(test_settings.data_dir),
           "CITEWALK_NEO4J_BOLT_PORT": str(test_settings.neo4j_bolt_port)}
    with exclusive(ingest_lock(test_settings)):
        proc = subprocess.Popen([sys.executable, "-m", "ingest", str(SAMPLE), "--corpus", CORPUS, "--quiet"],
                                cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        try:
            waiting = _wait_for_line(proc.stderr, "waiting:", 120)
            assert f"pid {os.getpid()}" in waiting and str(test_settings.data_dir) in waiting, waiting
            time.sleep(1.0)
            assert proc.poll() is None, "the second ingest did not wait for the one holding the data dir"
            assert _units(neo4j_driver, db) == 0
        except BaseException:
            proc.kill()
            raise
    assert proc.wait(timeout=300) == 0, proc.stderr.read()
    assert _units(neo4j_driver, db) > 0


def test_clients_creating_the_schema_at_once_all_succeed(test_settings, neo4j_driver):
    db = test_settings.neo4j_database
    failures: list[BaseException] = []
    for _ in range(5):
        neo4j_driver.execute_query("DROP INDEX unit_type IF EXISTS", database_=db)
        neo4j_driver.execute_query("DROP INDEX document_corpus IF EXISTS", database_=db)
        start = threading.Barrier(6)

        def create(start: threading.Barrier = start) -> None:
            start.wait()
            try:
                neo4j_store.ensure_schema(neo4j_driver, db)
            except BaseException as exc:  # collected: the assertion below names them all
                failures.append(exc)

        threads = [threading.Thread(target=create) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert not failures, failures
    names = {r["name"] for r in neo4j_driver.execute_query("SHOW INDEXES YIELD name", database_=db)[0]}
    assert {"unit_type", "document_corpus"} <= names
