"""A large corpus is read in a child process (core.retrieval.child_open): the serving process gets the same stores
as reading it itself, without doing the reading, and falls back to reading it when no child can run."""
from __future__ import annotations

import asyncio
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from core.analyzers import get_analyzer
from core.domain import StoreError
from core.lexical import LexicalIndex
from core.retrieval import busy, child_open, saved_read
from core.retrieval.config import RetrievalConfig
from core.retrieval.filters import Filters
from core.retrieval.packed import read_packed, unpack
from core.retrieval.stores import CorpusStores, ReadCorpus
from core.settings import Settings


def _child_for_every_corpus(settings: Settings) -> Settings:
    return settings.model_copy(update={"stores_child_min_units": 0})


def _saved_reads(settings: Settings, corpus: str) -> list[Path]:
    return sorted((settings.lexical_path / corpus).glob(f"{saved_read.SAVED_PREFIX}*.pickle"))


def _written_beside_the_index(settings: Settings, corpus: str) -> list[Path]:
    return list((settings.lexical_path / corpus).glob(f"{saved_read.WRITING_PREFIX}*"))


@pytest.fixture(autouse=True)
def no_saved_read(test_settings: Settings, hipaa_corpus: str) -> Iterator[None]:
    """Each test here opens the corpus as if no child had read it before; none leaves a saved read to other tests."""
    for path in _saved_reads(test_settings, hipaa_corpus):
        path.unlink()
    yield
    for path in _saved_reads(test_settings, hipaa_corpus):
        path.unlink()


def test_a_corpus_read_in_a_child_process_gives_the_stores_read_here(test_settings: Settings, hipaa_corpus: str) -> None:
    config = RetrievalConfig()
    here = CorpusStores.open(test_settings, hipaa_corpus, config)
    there = child_open.open_corpus(_child_for_every_corpus(test_settings), hipaa_corpus, config)

    assert here.read_by_pid == os.getpid()
    assert there.read_by_pid != os.getpid(), "the corpus was read in the serving process"
    assert there.unit_ids == here.unit_ids and there.units == here.units and there.order == here.order
    assert np.array_equal(there.window_matrix, here.window_matrix)
    assert there.edges is not None and here.edges is not None and there.edges.by_unit == here.edges.by_unit
    # The slow index came back built: the serving process does not build it at the first question.
    assert "context_lexical" in there.__dict__ and "context_lexical" not in here.__dict__
    # So did the small ones, and what they give is what the serving process builds from its own read.
    assert {"adjacent", "children", "first_windows", "first_rows"} <= there.__dict__.keys()
    assert np.array_equal(there.adjacent, here.adjacent) and there.children == here.children
    assert np.array_equal(there.first_rows, here.first_rows)
    for filters in (Filters(), Filters(unit_types=["paragraph"]), Filters(include_repealed=True)):
        assert np.array_equal(there.allowed_mask(filters), here.allowed_mask(filters))
        assert here.allowed_mask(filters).tolist() == [here.allowed(u, filters) for u in here.unit_ids]
    question = "How soon must a covered entity notify individuals of a breach?"
    assert np.array_equal(there.context_lexical_scores(question), here.context_lexical_scores(question))
    assert np.array_equal(there.embed([question]), here.embed([question]))


def test_a_small_corpus_is_read_in_the_serving_process(test_settings: Settings, hipaa_corpus: str) -> None:
    small = test_settings.model_copy(update={"stores_child_min_units": 10**9})
    assert child_open.open_corpus(small, hipaa_corpus, RetrievalConfig()).read_by_pid == os.getpid()


def test_a_small_corpus_opened_while_other_users_are_answered_is_read_in_a_child(
        test_settings: Settings, hipaa_corpus: str) -> None:
    config = RetrievalConfig()
    with busy.answering():  # the opening's own answer, alone in the process: read here, the faster way
        assert child_open.open_corpus(test_settings, hipaa_corpus, config).read_by_pid == os.getpid()
    started, release = threading.Event(), threading.Event()

    def another_user() -> None:
        with busy.answering():
            started.set()
            release.wait(120)

    user = threading.Thread(target=another_user)
    user.start()
    try:
        assert started.wait(10)
        with busy.answering():
            stores = child_open.open_corpus(test_settings, hipaa_corpus, config)
        assert stores.read_by_pid != os.getpid(), "read in the serving process while another user's answer ran"
        assert stores.unit_ids
    finally:
        release.set()
        user.join()
    assert busy.other_answers_in_flight() == 0


def test_an_answer_stops_counting_when_it_fails_or_is_cancelled() -> None:
    async def answer(fail: bool) -> None:
        with busy.answering():
            assert busy.other_answers_in_flight() == 0  # its own does not count
            if fail:
                raise ValueError("a bug")
            await asyncio.sleep(60)

    async def run() -> None:
        waiting = asyncio.create_task(answer(False))
        await asyncio.sleep(0.05)
        assert busy.other_answers_in_flight() == 1
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        with pytest.raises(ValueError):
            await answer(True)

    asyncio.run(run())
    assert busy.other_answers_in_flight() == 0


def test_a_child_that_dies_leaves_the_reading_to_the_serving_process(
        test_settings: Settings, hipaa_corpus: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # A Python that exits at once with an error stands in for a child killed (out of memory) or unable to start.
    monkeypatch.setattr(sys, "executable", "/bin/false")
    stores = child_open.open_corpus(_child_for_every_corpus(test_settings), hipaa_corpus, RetrievalConfig())
    assert stores.read_by_pid == os.getpid() and stores.unit_ids
    assert "reading it in this one" in caplog.text
    assert not _written_beside_the_index(test_settings, hipaa_corpus)


def test_a_child_that_hangs_is_given_up_within_its_timeout(
        test_settings: Settings, hipaa_corpus: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A child starved of CPU (niceness 19 on saturated cores) looks like one that hangs.
    hanging = tmp_path / "python"
    hanging.write_text("#!/bin/sh\nexec sleep 60\n")
    hanging.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(hanging))
    monkeypatch.setattr(child_open, "CHILD_TIMEOUT_S", 1.0)
    started = time.perf_counter()
    stores = child_open.open_corpus(_child_for_every_corpus(test_settings), hipaa_corpus, RetrievalConfig())
    assert stores.read_by_pid == os.getpid() and stores.unit_ids
    assert time.perf_counter() - started < 30
    assert not _written_beside_the_index(test_settings, hipaa_corpus)


def test_a_corpus_never_ingested_is_reported_by_the_child_as_by_the_serving_process(test_settings: Settings) -> None:
    with pytest.raises(StoreError, match="run `python -m ingest`"):
        child_open.open_corpus(_child_for_every_corpus(test_settings), "never-ingested", RetrievalConfig())


@pytest.mark.parametrize("analyzer", ["en", "vi-pyvi", "ko-kiwi"])
def test_a_lexical_index_travels_to_another_process_with_its_analyzer(analyzer: str) -> None:
    index = LexicalIndex.build(["u1", "u2"], ["Điều 5. Quyền của người lao động", "제5조 근로자의 권리 the rights"],
                               analyzer=get_analyzer(analyzer))
    copy = pickle.loads(pickle.dumps(index))
    assert copy.analyzer.name == index.analyzer.name
    question = "quyền của người lao động 근로자 rights"
    assert np.array_equal(copy.scores(question), index.scores(question))


# Threads of the child (a BLAS pool numpy starts at import, the reader's own) and their niceness, as /proc says.
THREADS_NICENESS = """
import pathlib, numpy
print(sorted({int(t.joinpath("stat").read_text().rsplit(")", 1)[1].split()[16])
              for t in pathlib.Path("/proc/self/task").iterdir()}))
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads threads' niceness from Linux's /proc")
def test_every_thread_of_the_reading_child_runs_at_its_niceness() -> None:
    done = subprocess.run([*child_open.child_python(), "-c", THREADS_NICENESS], capture_output=True, text=True,
                          env=child_open.child_env(), check=True)
    assert done.stdout.strip() == f"[{child_open.CHILD_NICENESS}]", done.stdout


def _no_child(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> None:
        raise AssertionError("a reading child was started")

    monkeypatch.setattr(child_open, "run_child", refused)


def test_a_corpus_a_child_read_opens_again_from_its_saved_read(
        test_settings: Settings, hipaa_corpus: str, monkeypatch: pytest.MonkeyPatch) -> None:
    settings, config = _child_for_every_corpus(test_settings), RetrievalConfig()
    first = child_open.open_corpus(settings, hipaa_corpus, config)
    [saved] = _saved_reads(settings, hipaa_corpus)

    _no_child(monkeypatch)
    again = child_open.open_corpus(settings, hipaa_corpus, config)
    assert again.read_by_pid == first.read_by_pid != os.getpid()
    assert again.unit_ids == first.unit_ids and again.units == first.units and again.order == first.order
    assert again.edges is not None and first.edges is not None and again.edges.by_unit == first.edges.by_unit
    assert np.array_equal(again.window_matrix, first.window_matrix)
    assert {"context_lexical", "adjacent", "children", "first_windows", "first_rows"} <= again.__dict__.keys()
    question = "How soon must a covered entity notify individuals of a breach?"
    assert np.array_equal(again.context_lexical_scores(question), first.context_lexical_scores(question))
    # Another configuration is another read: not this one.
    other = RetrievalConfig(context_depth=config.context_depth + 1)
    assert saved_read.load_saved(settings, hipaa_corpus, other, saved_read.ingest_stamp(settings, hipaa_corpus)) is None
    assert _saved_reads(settings, hipaa_corpus) == [saved]


def test_a_new_ingest_reads_the_corpus_again_and_replaces_the_saved_read(
        test_settings: Settings, hipaa_corpus: str) -> None:
    settings, config = _child_for_every_corpus(test_settings), RetrievalConfig()
    child_open.open_corpus(settings, hipaa_corpus, config)
    [before] = _saved_reads(settings, hipaa_corpus)
    ids = settings.lexical_path / hipaa_corpus / "unit_ids.json"
    stamp = ids.stat().st_mtime_ns
    os.utime(ids, ns=(stamp + 10**9, stamp + 10**9))  # what an ingest's last write does to the stamp
    try:
        reread = child_open.open_corpus(settings, hipaa_corpus, config)
        assert reread.read_by_pid != os.getpid() and reread.unit_ids
        [after] = _saved_reads(settings, hipaa_corpus)
        assert after != before and str(stamp + 10**9) in after.name
    finally:
        os.utime(ids, ns=(stamp, stamp))


def test_saving_a_read_removes_those_of_other_code_and_keeps_other_configurations(
        test_settings: Settings, hipaa_corpus: str) -> None:
    """An upgrade changes the code's digest: the reads the old code saved can never be loaded again, 41 MB each on a
    large corpus, and were kept until the next ingest. Another method's configuration is still in use."""
    settings, config = _child_for_every_corpus(test_settings), RetrievalConfig()
    stamp = saved_read.ingest_stamp(settings, hipaa_corpus)
    assert stamp is not None
    folder = settings.lexical_path / hipaa_corpus
    older_code = folder / f"{saved_read.SAVED_PREFIX}{stamp}-000000000000-0123456789abcdef.pickle"
    older_code.write_bytes(b"a read of other code")
    child_open.open_corpus(settings, hipaa_corpus, config)
    other_config = saved_read.saved_path(settings, hipaa_corpus, RetrievalConfig(context_depth=0), stamp)
    assert child_open.read_in_child(settings, hipaa_corpus, RetrievalConfig(context_depth=0), stamp) is not None
    assert not older_code.exists()
    assert other_config.exists() and saved_read.saved_path(settings, hipaa_corpus, config, stamp).exists()


def test_a_damaged_saved_read_is_read_again_and_said(
        test_settings: Settings, hipaa_corpus: str, caplog: pytest.LogCaptureFixture) -> None:
    settings, config = _child_for_every_corpus(test_settings), RetrievalConfig()
    child_open.open_corpus(settings, hipaa_corpus, config)
    [saved] = _saved_reads(settings, hipaa_corpus)
    saved.write_bytes(saved.read_bytes()[:1000])
    stores = child_open.open_corpus(settings, hipaa_corpus, config)
    assert stores.unit_ids and "is damaged" in caplog.text
    assert len(saved.read_bytes()) > 1000  # replaced by the new read


def test_a_read_without_the_graph_is_not_saved(test_settings: Settings, hipaa_corpus: str) -> None:
    config = RetrievalConfig()
    read = child_open.read_in_child(_child_for_every_corpus(test_settings), hipaa_corpus, config)
    assert read is not None and read.graph_info
    read.graph_info = False
    with child_open.child_output(test_settings, hipaa_corpus) as written:
        written.write_bytes(read.to_parts())
        saved_read.keep_written(test_settings, hipaa_corpus, config,
                                saved_read.ingest_stamp(test_settings, hipaa_corpus), read, written)
    assert _saved_reads(test_settings, hipaa_corpus) == []


def test_a_read_is_taken_back_a_piece_at_a_time(test_settings: Settings, hipaa_corpus: str) -> None:
    read = child_open.read_in_child(_child_for_every_corpus(test_settings), hipaa_corpus, RetrievalConfig())
    assert read is not None
    packed_read = read.to_parts()
    names = [name for name, _ in unpack(packed_read, lambda: None)]
    pauses: list[int] = []
    again = type(read).from_parts(packed_read, lambda: pauses.append(1))
    assert len(pauses) == len(names) >= 10
    # The big ones each a piece of its own: the units, the BM25 indexes, the vectors, every built index.
    assert {"units", "lexical", "window_matrix", "edges", "index"} <= set(names)
    assert {f"built:{name}" for name in read.built} <= set(names) and len(names) == len(set(names))
    assert again.unit_ids == read.unit_ids and again.units == read.units and again.built.keys() == read.built.keys()
    assert np.array_equal(again.window_matrix, read.window_matrix)


def test_a_saved_read_s_arrays_are_views_of_the_file_read_not_copies(test_settings: Settings,
                                                                     hipaa_corpus: str) -> None:
    """Copying them into fresh memory faulted its pages in with the interpreter held, every answer waiting."""
    config = RetrievalConfig()
    child_open.open_corpus(_child_for_every_corpus(test_settings), hipaa_corpus, config)
    [path] = _saved_reads(test_settings, hipaa_corpus)
    data = read_packed(path)
    again = ReadCorpus.from_parts(data, lambda: None)
    assert np.shares_memory(again.window_matrix, np.frombuffer(data, dtype=np.uint8))
    assert again.window_matrix.flags.writeable


def _mapped_inodes() -> set[int]:
    return {int(fields[4]) for line in Path("/proc/self/maps").read_text().splitlines()
            if len(fields := line.split()) >= 5}


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads this process's mappings from Linux's /proc")
def test_the_file_a_child_read_is_mapped_from_is_the_saved_read(test_settings: Settings, hipaa_corpus: str) -> None:
    """The read was mapped from the child's temporary file and a second copy saved beside the index: two copies in
    the page cache (41 MB for ADGM) until the stores went. Now the child's file becomes the saved read."""
    stores = child_open.open_corpus(_child_for_every_corpus(test_settings), hipaa_corpus, RetrievalConfig())
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    assert stores.read_by_pid != os.getpid()
    assert saved.stat().st_ino in _mapped_inodes()
    assert not _written_beside_the_index(test_settings, hipaa_corpus)
