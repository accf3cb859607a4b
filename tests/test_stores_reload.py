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
        assert gc.get_freeze_count() > 0
        _copy(hipaa_dir, root, [ADDED])
        assert not run_ingest([root], "settledc", test_settings, quiet=True).failures
        deadline = time.monotonic() + 120
        while open_stores(test_settings, "settledc") is before() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert open_stores(test_settings, "settledc") is not before(), "the re-ingested corpus was never swapped in"
        assert gc.get_freeze_count() == 0, "the heap stayed settled after the reload"
        gc.collect()
        assert before() is None, "the replaced stores outlived the reload"
    finally:
        heap.thaw()


def test_a_corpus_ingested_while_the_app_runs_is_opened_on_its_first_question(hipaa_dir, tmp_path, test_settings,
                                                                            neo4j_driver):
    root = tmp_path / "late-corpus"
    _copy(hipaa_dir, root, FIRST)
    assert not run_ingest([root], "latec", test_settings, quiet=True).failures
    stores = open_stores(test_settings, "latec")
    assert "latec/164.502" in stores.index and open_stores(test_settings, "latec") is stores
