"""Two app processes behind one PostgreSQL, one Neo4j and one Chroma server (`chroma run`): both answer, and a
permalink made on one opens on the other. The shape of a multi-worker / multi-machine deployment, on loopback."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from core.settings import Settings, neo4j_connection
from tests.app_process import app_env, running_app
from tests.conftest import free_port
from tests.hardening_support import DISCLOSURE_QUESTION, api_client, cited_ids, ingest, write_tiny_corpus
from tests.sharing_support import PG_BIN, postgres_cluster

CHROMA = Path(sys.executable).with_name("chroma")
CORPUS = "multiproc"
ADMIN = ("lead@example.org", "lead-pass-1")
READER = ("second@example.org", "second-pass-1")

pytestmark = pytest.mark.skipif(not (PG_BIN / "initdb").exists() or not CHROMA.exists(),
                                reason="needs PostgreSQL 15 binaries and the chroma CLI")


@contextmanager
def chroma_server(path: Path, log: Path) -> Iterator[int]:
    import chromadb

    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen([str(CHROMA), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:  # noqa: BLE001 — not up yet
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chroma run did not start:\n{log.read_text()[-2000:]}") from None
                time.sleep(0.5)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # our own process group only
        process.wait(timeout=30)


def test_two_workers_share_one_deployment(test_settings: Settings, neo4j_driver, tmp_path: Path) -> None:
    with ExitStack() as stack:
        pg_url = stack.enter_context(postgres_cluster())
        chroma_port = stack.enter_context(chroma_server(tmp_path / "chroma-server", tmp_path / "chroma.log"))
        # Neo4j as an external server (NEO4J_URI), the way workers on several machines would reach it.
        neo4j = neo4j_connection(test_settings)
        settings = test_settings.model_copy(update={
            "data_dir": tmp_path / "shared-data", "chroma_host": "127.0.0.1", "chroma_port": chroma_port,
            "neo4j_uri": neo4j.uri, "neo4j_password": neo4j.password})
        ingest(write_tiny_corpus(tmp_path / "corpus"), CORPUS, settings)
        env = app_env(settings, {READER[0]: READER[1]}, ADMIN) | {
            "DATABASE_URL": pg_url, "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(chroma_port),
            "NEO4J_URI": neo4j.uri, "NEO4J_PASSWORD": neo4j.password,
            "CITEWALK_DEFAULT_CORPUS": CORPUS,
        }
        # Started one after the other, as a rolling deploy would: the second finds the schema and accounts made.
        first = stack.enter_context(running_app(env, tmp_path / "worker-1.log"))
        second = stack.enter_context(running_app(env, tmp_path / "worker-2.log"))
        one, two = api_client(first, *ADMIN), api_client(second, *READER)
        stack.callback(one.close)
        stack.callback(two.close)

        asked_one = one.post("/api/ask", json={"question": DISCLOSURE_QUESTION, "share": True})
        asked_two = two.post("/api/ask", json={"question": DISCLOSURE_QUESTION})
        assert asked_one.status_code == 200 and asked_two.status_code == 200
        a, b = asked_one.json(), asked_two.json()
        assert a["answer"]["rules"] and cited_ids(a) == cited_ids(b) and not a["notices"] and not b["notices"]

        shared = two.get(a["permalink"])  # made on worker 1, opened on worker 2 by another user
        assert shared.status_code == 200 and DISCLOSURE_QUESTION.replace("'", "&#x27;") in shared.text
        assert "Revoke this link" not in shared.text
        assert one.post(f"{a['permalink']}/revoke", follow_redirects=False).status_code == 303
        assert two.get(a["permalink"]).status_code == 404  # revoked on worker 1, gone on worker 2
