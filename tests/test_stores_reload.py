"""A running process picks up a re-ingest without a restart: new units become searchable, old stores keep serving
until the new ones are ready."""
from __future__ import annotations

import gc
import shutil
import time
import weakref
from pathlib import Path

from core.retrieval.reload import open_stores
from core.retrieval.saved_read import ingest_stamp
from core.stores import heap
from ingest.pipeline import run_ingest

FIRST = ["164-501-definitions.md", "164-502-uses-disclosures-general.md"]
ADDED = "164-508-uses-disclosures-authorization.md"


def _copy(hipaa_dir: Path, root: Path, names: list[str]) -> None:
    (root / "regulations").mkdir(parents=True, exist_ok=True)
    shutil.copy(hipaa_dir / "hipaa.yml", root / "hipaa.yml")
    for name in names:
        shutil.copy(hipaa_dir / "regulations" / name, root / "regulations" / name)


def test_reingest_is_served_without_restart(hipaa_dir, tmp_path, test_settings, neo4j_driver):
    root = tmp_path / "reload-corpus"
    _copy(hipaa_dir, root, FIRST)
    assert not run_ingest([root], "reloadc", test_settings, quiet=True).failures
    before = open_stores(test_settings, "reloadc")
    assert "reloadc/164.508" not in before.index and open_stores(test_settings, "reloadc") is before

    stamp = ingest_stamp(test_settings, "reloadc")
    _copy(hipaa_dir, root, [ADDED])
    assert not run_ingest([root], "reloadc", test_settings, quiet=True).failures
    assert ingest_stamp(test_settings, "reloadc") != stamp
    # The first call after the re-ingest still answers from the stores it has while the new ones load.
    assert open_stores(test_settings, "reloadc") is before
    deadline = time.monotonic() + 120
    while (current := open_stores(test_settings, "reloadc")) is before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert current is not before, "the re-ingested corpus was never swapped in"
    assert "reloadc/164.508" in current.index and set(before.unit_ids) < set(current.unit_ids)
    hits = current.lexical_scores("authorization psychotherapy notes revocation")
    assert current.unit_ids[int(hits.argmax())].startswith("reloadc/164.508")
    assert open_stores(test_settings, "reloadc") is current  # no further reloads without a new ingest


def test_stores_replaced_after_the_heap_settled_are_still_freed(hipaa_dir, tmp_path, test_settings, neo4j_driver):
    """The app settles its heap after the warm-up (objects alive then are left out of full collections); a reload
    must give those back, or the replaced stores, cycles and all, would stay for the process's life."""
    root = tmp_path / "settled-corpus"
    _copy(hipaa_dir, root, FIRST)
    assert not run_ingest([root], "settledc", test_settings, quiet=True).failures
    before = weakref.ref(open_stores(test_settings, "settledc"))
    try:
        heap.settle()
        assert heap.is_settled() and gc.get_freeze_count() > 0
        _copy(hipaa_dir, root, [ADDED])
        assert not run_ingest([root], "settledc", test_settings, quiet=True).failures
        deadline = time.monotonic() + 120
        while open_stores(test_settings, "settledc") is before() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert open_stores(test_settings, "settledc") is not before(), "the re-ingested corpus was never swapped in"
        # No answer runs here, so the heap is settled again at once, and the settling freed the replaced stores.
        deadline = time.monotonic() + 30
        while not heap.is_settled() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert heap.is_settled(), "the heap was left unsettled after the reload"
        assert before() is None, "the replaced stores outlived the reload"
    finally:
        heap.thaw()


def test_a_corpus_first_opened_after_the_heap_settled_is_settled_with_it(hipaa_dir, tmp_path, test_settings, neo4j_driver):
    """A corpus ingested while the app runs opens after the warm-up settled the heap: left in the collector, its
    objects would lengthen every later full pass for every answer in flight."""
    root = tmp_path / "late-corpus"
    _copy(hipaa_dir, root, FIRST)
    assert not run_ingest([root], "latec", test_settings, quiet=True).failures
    try:
        heap.settle()
        settled = gc.get_freeze_count()
        stores = open_stores(test_settings, "latec")
        assert gc.get_freeze_count() >= settled + len(stores.units), "the new corpus's objects were left to the collector"
    finally:
        heap.thaw()


def test_settling_after_an_opening_stops_no_answer_for_a_full_collection():
    # Other users' answers run while a corpus opens: a full pass would stop them all while it walks what they made.
    passes: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    try:
        heap.settle()
        made = [[i] for i in range(10_000)]  # what answers made since the warm-up settled
        gc.callbacks.append(seen)
        frozen = gc.get_freeze_count()
        assert heap.settle_if_settled()
        assert gc.get_freeze_count() >= frozen + len(made)
        assert passes and 2 not in passes, f"collections run: {passes}"
    finally:
        if seen in gc.callbacks:
            gc.callbacks.remove(seen)
        heap.thaw()


def test_an_opening_in_a_settled_process_never_counts_the_exempt_objects(monkeypatch):
    # gc.get_freeze_count() walks every exempt object with the interpreter held: an opening that asked it stopped
    # every other user's answer while it walked, twice.
    def counted() -> int:
        raise AssertionError("the exempt objects were counted on the serving path")

    try:
        heap.settle()
        monkeypatch.setattr(gc, "get_freeze_count", counted)
        assert heap.is_settled()
        assert heap.settle_if_settled()
    finally:
        monkeypatch.undo()
        heap.thaw()
    assert not heap.is_settled()


def test_a_process_that_never_settled_its_heap_is_not_settled_by_an_opening(hipaa_dir, tmp_path, test_settings, neo4j_driver):
    # A test run or a command has no warm-up: freezing there would only keep garbage alive.
    root = tmp_path / "plain-corpus"
    _copy(hipaa_dir, root, FIRST)
    assert not run_ingest([root], "plainc", test_settings, quiet=True).failures
    heap.thaw()
    open_stores(test_settings, "plainc")
    assert gc.get_freeze_count() == 0
