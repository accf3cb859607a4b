"""Re-ingest while users ask: answers keep coming, none fails, and once the new version is in no answer cites a
unit the re-ingest deleted (the process's search index still holds them until restart)."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question
from core.settings import Settings
from tests.hardening_support import DISCLOSURE_QUESTION, ingest, write_tiny_corpus

CORPUS = "reingest"
REVIEW = "\n## Article 4. Retention review\n\n1. Records older than five years must be reviewed for deletion.\n"
QUESTIONS = ["When must old records be reviewed for deletion?", DISCLOSURE_QUESTION,
             "How long must a clinic keep patient records?"]
ASKERS = 3


def _unit_ids(driver, database: str) -> set[str]:
    records, _, _ = driver.execute_query("MATCH (u:Unit {corpus: $c}) WHERE u.pending IS NULL RETURN u.id AS id",
                                         c=CORPUS, database_=database)
    return {r["id"] for r in records}


def _write_version(root: Path, version: int) -> None:
    # v2 drops Article 4 (its units are deleted) and changes the text of the others.
    for n in range(4):
        text = write_tiny_corpus(root, REVIEW if version == 1 else "", name=f"act-{n}.md") / f"act-{n}.md"
        if version == 2:
            text.write_text(text.read_text().replace("five years", "seven years"))


def test_questions_during_reingest(tmp_path: Path, test_settings: Settings, neo4j_driver) -> None:
    db = test_settings.neo4j_database
    _write_version(tmp_path, 1)
    ingest(tmp_path, CORPUS, test_settings)
    v1 = _unit_ids(neo4j_driver, db)
    answered: list[tuple[float, AnswerEnvelope]] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def asker(index: int) -> None:
        n = index
        while not stop.is_set():
            started = time.monotonic()
            try:
                answered.append((started, answer_question(QUESTIONS[n % len(QUESTIONS)], CORPUS, test_settings)))
            except BaseException as exc:  # noqa: BLE001 — collected and asserted below
                failures.append(exc)
            n += 1

    threads = [threading.Thread(target=asker, args=(i,), daemon=True) for i in range(ASKERS)]
    for thread in threads:
        thread.start()
    while len(answered) < ASKERS and not failures:  # everyone is mid-stream when the ingest starts
        time.sleep(0.1)
    _write_version(tmp_path, 2)
    ingest(tmp_path, CORPUS, test_settings)
    ingested_at = time.monotonic()
    after = len(answered)
    while len([1 for started, _ in answered if started > ingested_at]) < 2 * len(QUESTIONS) and not failures:
        time.sleep(0.1)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)

    v2 = _unit_ids(neo4j_driver, db)
    removed = v1 - v2
    assert removed and not failures, failures[:3]
    assert len(answered) > after, "no question was answered after the re-ingest"
    for started, envelope in answered:
        cited = {r.unit_id for r in envelope.answer.rules}
        assert envelope.error is None, envelope.error
        assert cited <= set(envelope.evidence_ids) and cited <= v1 | v2
        if started > ingested_at:
            assert not cited & removed and not set(envelope.evidence_ids) & removed, (envelope.question, cited & removed)
