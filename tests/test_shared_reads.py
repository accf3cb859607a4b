"""Token vectors read by one chat worker, shared with the other workers of the data dir (core.stores.shared_reads):
a provision read once on the host is not passed through the model again by another worker, and a worker about to
read one that another is reading waits for that read."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from core.answer.soft_match import TokenCache, TokenReader, TokenVectors
from core.embeddings import get_embedder
from core.settings import REPO_ROOT, Settings
from core.stores import shared_reads
from core.stores.shared_reads import SharedReads, shared_reads_for

TEXTS = ["A covered entity may disclose protected health information for research.",
         "An applicant must pay the annual fee to the Regulator."]


class CountingModel:
    def __init__(self, model, pause_s: float = 0.0) -> None:
        self.model, self.tokenizer, self.pause_s = model, model.tokenizer, pause_s
        self.texts_read = 0
        self.reading = threading.Event()

    def encode(self, texts, **kwargs):
        self.reading.set()
        time.sleep(self.pause_s)
        self.texts_read += len(texts)
        return self.model.encode(texts, **kwargs)


@pytest.fixture(scope="module")
def model():
    return get_embedder(Settings()).token_model


def _worker(model, path: Path, pause_s: float = 0.0) -> tuple[TokenReader, CountingModel]:
    """One worker's reader: its own model passes, its own memory cache, and its own claims on the shared file."""
    counting = CountingModel(model, pause_s)
    return TokenReader(counting, TokenCache(), shared=SharedReads(path)), counting


def test_a_provision_one_worker_read_is_not_read_again_by_another(model, tmp_path: Path) -> None:
    first, first_model = _worker(model, tmp_path / "reads.sqlite")
    second, second_model = _worker(model, tmp_path / "reads.sqlite")
    read_first = first.read(TEXTS)
    read_second = second.read([*TEXTS, "A new rule."])
    assert first_model.texts_read == 2 and second_model.texts_read == 1
    for one, other in zip(read_first, read_second):
        assert one.pieces == other.pieces and np.array_equal(one.vectors, other.vectors)


def test_a_worker_waits_for_the_read_another_worker_is_making(model, tmp_path: Path) -> None:
    first, first_model = _worker(model, tmp_path / "reads.sqlite", pause_s=0.5)
    second, second_model = _worker(model, tmp_path / "reads.sqlite")
    got: dict[str, list[TokenVectors]] = {}
    thread = threading.Thread(target=lambda: got.setdefault("first", first.read(TEXTS)))
    thread.start()
    assert first_model.reading.wait(10)
    got["second"] = second.read(TEXTS)
    thread.join(10)
    assert first_model.texts_read == 2 and second_model.texts_read == 0
    assert all(np.array_equal(a.vectors, b.vectors) for a, b in zip(got["first"], got["second"]))


def test_a_claim_left_by_a_worker_that_died_is_taken_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dead, alive = SharedReads(tmp_path / "reads.sqlite"), SharedReads(tmp_path / "reads.sqlite")
    assert dead.claim([b"k"]) == [b"k"]
    assert alive.claim([b"k"]) == []  # being read elsewhere
    monkeypatch.setattr(shared_reads, "CLAIM_WAIT_S", 0.0)
    assert alive.wait_for([b"k"], deadline_s=0.2) == {}
    assert alive.claim([b"k"]) == [b"k"]


def test_the_file_stays_within_its_bytes_dropping_the_oldest(tmp_path: Path) -> None:
    store = SharedReads(tmp_path / "reads.sqlite", max_bytes=3 * 10 * 384 * 4)
    for i in range(5):
        store.put({bytes([i]): (("w",) * 10, np.ones((10, 384), dtype=np.float32))})
    assert set(store.get(bytes([i]) for i in range(5))) == {bytes([2]), bytes([3]), bytes([4])}


def test_an_unusable_file_leaves_every_read_to_the_worker(model, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "reads.sqlite"
    folder.mkdir()  # a folder where the file should be
    reader, counting = _worker(model, folder)
    assert len(reader.read(TEXTS)) == 2 and counting.texts_read == 2
    assert "reads every text itself" in caplog.text


def test_only_workers_given_a_folder_share(tmp_path: Path) -> None:
    assert shared_reads_for(Settings(data_dir=tmp_path), "model") is None
    sharing = Settings(data_dir=tmp_path, shared_reads_dir=tmp_path / "reads")
    store = shared_reads_for(sharing, "model")
    assert store is not None and store is shared_reads_for(sharing, "model")
    assert store.path.parent == tmp_path / "reads"


def test_another_process_reads_from_the_file_what_this_one_read(model, tmp_path: Path) -> None:
    path = tmp_path / "reads.sqlite"
    reader, _ = _worker(model, path)
    mine = reader.read(TEXTS)
    script = ("import sys, numpy as np; from pathlib import Path; from core.answer.soft_match import TokenCache;"
              "from core.stores.shared_reads import SharedReads;"
              f"store = SharedReads(Path({str(path)!r})); got = store.get([TokenCache.key(t) for t in {TEXTS!r}]);"
              "print(len(got), ' '.join(str(float(np.abs(v).sum())) for _, v in got.values()))")
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
                         check=True).stdout.split()
    assert out[0] == "2"
    assert sorted(float(x) for x in out[1:]) == pytest.approx(sorted(float(np.abs(m.vectors).sum()) for m in mine))


_WORKER = """
import sys, time
from pathlib import Path
from core.answer.soft_match import TokenCache, TokenReader
from core.embeddings import get_embedder
from core.settings import Settings
from core.stores.shared_reads import SharedReads
from tests.test_shared_reads import CountingModel
texts = [f"Rule {i}: a relevant person must keep the records of customer number {i} for {i + 5} years." for i in range(12)]
model = CountingModel(get_embedder(Settings()).token_model)
reader = TokenReader(model, TokenCache(), shared=SharedReads(Path(sys.argv[1])))
reader.read(texts[:1])  # the model warmed up, and this process's first text read
Path(sys.argv[2]).touch()
while not Path(sys.argv[3]).exists():
    time.sleep(0.01)
reader.read(texts)
print(model.texts_read)
"""


def test_two_workers_asked_the_same_new_texts_at_once_share_the_reading(tmp_path: Path) -> None:
    go = tmp_path / "go"
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER, str(tmp_path / "reads.sqlite"), str(tmp_path / f"ready{i}"),
                                 str(go)], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True) for i in range(2)]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"ready{i}").exists() for i in range(2)) and time.monotonic() < deadline:
        time.sleep(0.05)
    go.touch()
    read = [int(w.communicate(timeout=120)[0].split()[-1]) for w in workers]
    # 12 texts between them (the first one read before, by one of them or both), not 12 each.
    assert sum(read) <= 12 + 2 and min(read) >= 2, read


def test_a_folder_that_cannot_be_made_leaves_every_read_to_the_worker(model, tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "file").write_text("not a folder")
    reader, counting = _worker(model, tmp_path / "file" / "reads.sqlite")
    assert len(reader.read(TEXTS)) == 2 and counting.texts_read == 2
    assert "reads every text itself" in caplog.text
