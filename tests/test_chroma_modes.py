"""Chroma in both modes: embedded PersistentClient and HttpClient against `chroma run` on loopback."""
from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from core.settings import Settings
from core.stores import chroma_store
from tests.conftest import free_port


@pytest.fixture()
def chroma_server(tmp_path: Path):
    port = free_port()
    chroma_bin = Path(sys.executable).parent / "chroma"
    proc = subprocess.Popen([str(chroma_bin), "run", "--path", str(tmp_path / "srv"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
            break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("chroma run did not answer its heartbeat within 60 s")
    yield port
    proc.terminate()
    proc.wait(timeout=20)


def _round_trip(settings: Settings) -> None:
    writer = chroma_store.ChromaUnitWriter(chroma_store.client(settings), "modes")
    vectors = np.eye(3, 8, dtype=np.float32)
    meta = [{"unit_id": f"u{i}", "document_id": "d", "text_hash": str(i)} for i in range(3)]
    writer.upsert(["u0", "u1", "u1#w1"], vectors, meta, ["a", "b", "c"])
    writer.upsert(["u0", "u1", "u1#w1"], vectors, meta, ["a", "b", "c"])  # idempotent
    assert writer.collection.count() == 3
    assert writer.existing("d") == {"u0": "0", "u1": "1", "u1#w1": "2"}
    hit = writer.collection.query(query_embeddings=[vectors[1].tolist()], n_results=1)
    assert hit["ids"][0] == ["u1"]
    writer.delete(["u1#w1"])
    assert writer.collection.count() == 2


def test_persistent_client(tmp_path: Path):
    _round_trip(Settings(data_dir=tmp_path))


def test_http_client_against_chroma_run(chroma_server: int, tmp_path: Path):
    _round_trip(Settings(data_dir=tmp_path, chroma_host="127.0.0.1", chroma_port=chroma_server))


def test_unreachable_server_names_the_setting(tmp_path: Path):
    with pytest.raises(chroma_store.VectorStoreError, match="CHROMA_HOST"):
        chroma_store.client(Settings(data_dir=tmp_path, chroma_host="127.0.0.1", chroma_port=free_port()))
