"""What opening a corpus read is saved beside its index (core.retrieval.saved_read) in a format that runs no code
when loaded: a later opening maps it and gets the same stores; anything else found there (a pickle, a truncated or
garbled file) is refused with an error naming it, and the corpus is read from its stores."""
from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from core.retrieval import prepare, reload, saved_read
from core.retrieval.config import RetrievalConfig
from core.retrieval.stores import CorpusStores, read_corpus
from core.settings import Settings

QUESTION = "How soon must a covered entity notify individuals of a breach?"


def _saved_reads(settings: Settings, corpus: str) -> list[Path]:
    return sorted((settings.lexical_path / corpus).glob(f"{saved_read.SAVED_PREFIX}*"))


def _open(settings: Settings, corpus: str, config: RetrievalConfig | None = None) -> CorpusStores:
    return reload.open_corpus(settings, corpus, config or RetrievalConfig(),
                              saved_read.ingest_stamp(settings, corpus))


@pytest.fixture(autouse=True)
def no_saved_read(test_settings: Settings, hipaa_corpus: str) -> Iterator[None]:
    """Each test opens the corpus as if nothing were saved; none leaves a saved read to other tests."""
    for path in _saved_reads(test_settings, hipaa_corpus):
        saved_read._remove(path)
    yield
    for path in _saved_reads(test_settings, hipaa_corpus):
        saved_read._remove(path)


class Payload:
    """Unpickled, it writes a marker file: what a crafted saved read would make a pickle-reading loader run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.write_text, (self.marker, "code ran"))


def _crafted(marker: Path) -> bytes:
    # Shaped as the packed pickles saved reads were before (magic, header length, header pickle), so a loader that
    # unpickles what it finds runs the payload whichever way it reads.
    body = pickle.dumps(Payload(marker))
    return b"CWPACK1\n" + len(body).to_bytes(8, "little") + body


def test_a_second_opening_loads_the_saved_read_and_gets_the_same_stores(test_settings: Settings,
                                                                       hipaa_corpus: str) -> None:
    first = _open(test_settings, hipaa_corpus)
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    assert saved.is_dir() and not list(saved.rglob("*.pickle")) and not list(saved.rglob("*.pkl"))
    again = _open(test_settings, hipaa_corpus)
    assert again.unit_ids == first.unit_ids and again.order == first.order
    assert [again.units[u] for u in again.unit_ids] == [first.units[u] for u in first.unit_ids]
    assert again.edges is not None and first.edges is not None and again.edges.by_unit == first.edges.by_unit
    assert again.chain_starts == first.chain_starts and again.children == first.children
    assert np.array_equal(again.window_matrix, first.window_matrix)
    assert np.array_equal(again.adjacent, first.adjacent)
    assert np.array_equal(again.context_lexical_scores(QUESTION), first.context_lexical_scores(QUESTION))
    assert np.array_equal(again.lexical_scores(QUESTION), first.lexical_scores(QUESTION))
    # Mapped from the file, copy on write: the page cache's copy is shared, and nothing written reaches the file.
    assert isinstance(again.window_matrix, np.memmap) and again.window_matrix.flags.writeable
    # Another configuration is another read: not this one.
    other = RetrievalConfig(context_depth=RetrievalConfig().context_depth + 1)
    assert saved_read.load_saved(test_settings, hipaa_corpus, other,
                                 saved_read.ingest_stamp(test_settings, hipaa_corpus)) is None


def test_a_crafted_pickle_in_a_saved_read_never_runs(test_settings: Settings, hipaa_corpus: str, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    _open(test_settings, hipaa_corpus)
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    marker = tmp_path / "ran"
    for path in [saved] if saved.is_file() else [p for p in saved.rglob("*") if p.is_file()]:
        path.write_bytes(_crafted(marker))
    with caplog.at_level(logging.ERROR, logger="citewalk.stores"):
        stores = _open(test_settings, hipaa_corpus)
    assert not marker.exists(), "loading the saved read ran the code a pickle in it carried"
    assert stores.unit_ids and stores.lexical_scores(QUESTION).max() > 0  # read from the stores instead
    assert "refused the saved read" in caplog.text and str(saved) in caplog.text


def test_an_object_array_in_a_saved_read_is_refused_unread(test_settings: Settings, hipaa_corpus: str,
                                                           tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _open(test_settings, hipaa_corpus)
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    marker = tmp_path / "ran"
    np.save(saved / "window_unit.npy", np.array([Payload(marker)], dtype=object), allow_pickle=True)
    with caplog.at_level(logging.ERROR, logger="citewalk.stores"):
        stores = _open(test_settings, hipaa_corpus)
    assert not marker.exists() and stores.unit_ids
    assert "window_unit" in caplog.text or "allow_pickle" in caplog.text


@pytest.mark.parametrize("damage", ["truncated array", "garbled json", "wrong shape", "other corpus"])
def test_a_damaged_saved_read_is_refused_said_and_replaced(damage: str, test_settings: Settings, hipaa_corpus: str,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    first = _open(test_settings, hipaa_corpus)
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    if damage == "truncated array":
        matrix = saved / "window_matrix.npy"
        matrix.write_bytes(matrix.read_bytes()[:1000])
    elif damage == "garbled json":
        (saved / saved_read.META).write_text('{"format": "npy-json-1", "corpus": ')
    elif damage == "wrong shape":
        np.save(saved / "first_rows.npy", np.zeros(3, dtype=np.int64))
    else:
        meta = (saved / saved_read.META).read_text().replace(f'"corpus": "{hipaa_corpus}"', '"corpus": "another"')
        (saved / saved_read.META).write_text(meta)
    with caplog.at_level(logging.ERROR, logger="citewalk.stores"):
        stores = _open(test_settings, hipaa_corpus)
    assert stores.unit_ids == first.unit_ids and np.array_equal(stores.first_rows, first.first_rows)
    assert "refused the saved read" in caplog.text and str(saved) in caplog.text
    [replaced] = _saved_reads(test_settings, hipaa_corpus)
    assert saved_read.load_saved(test_settings, hipaa_corpus, RetrievalConfig(),
                                 saved_read.ingest_stamp(test_settings, hipaa_corpus)) is not None, replaced


def test_a_new_ingest_saves_a_new_read_and_removes_older_ones(test_settings: Settings, hipaa_corpus: str) -> None:
    folder = test_settings.lexical_path / hipaa_corpus
    stamp = saved_read.ingest_stamp(test_settings, hipaa_corpus)
    assert stamp is not None
    old_pickle = folder / f"{saved_read.SAVED_PREFIX}{stamp}-000000000000-0123456789abcdef.pickle"
    old_pickle.write_bytes(b"a read saved by earlier code")
    _open(test_settings, hipaa_corpus)
    [before] = _saved_reads(test_settings, hipaa_corpus)
    assert not old_pickle.exists(), "an earlier code's pickle was left beside the index"
    ids = folder / "unit_ids.json"
    os.utime(ids, ns=(stamp + 10**9, stamp + 10**9))  # what an ingest's last write does to the stamp
    try:
        _open(test_settings, hipaa_corpus)
        [after] = _saved_reads(test_settings, hipaa_corpus)
        assert after != before and str(stamp + 10**9) in after.name
        assert not list(folder.glob(f"{saved_read.WRITING_PREFIX}*")), "a half-written read was left"
    finally:
        os.utime(ids, ns=(stamp, stamp))


def test_a_read_without_the_graph_is_not_saved(test_settings: Settings, hipaa_corpus: str) -> None:
    read = read_corpus(test_settings, hipaa_corpus, RetrievalConfig()).build_indexes()
    read.graph_info = False
    saved_read.save(test_settings, hipaa_corpus, RetrievalConfig(),
                    saved_read.ingest_stamp(test_settings, hipaa_corpus), read)
    assert _saved_reads(test_settings, hipaa_corpus) == []


def test_the_command_an_ingest_ends_with_saves_the_read_a_worker_maps(test_settings: Settings, hipaa_corpus: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prepare, "get_settings", lambda: test_settings)
    assert prepare.main([hipaa_corpus]) == 0
    [saved] = _saved_reads(test_settings, hipaa_corpus)
    stamp = saved_read.ingest_stamp(test_settings, hipaa_corpus)
    assert stamp is not None and saved == saved_read.saved_path(test_settings, hipaa_corpus, RetrievalConfig(), stamp)
    assert isinstance(_open(test_settings, hipaa_corpus).window_matrix, np.memmap)  # loaded, not read again
    assert prepare.main(["never-ingested"]) == 2
