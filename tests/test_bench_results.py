"""bench/results stays a record a newcomer can read: few files, none large, each named by RESULTS.md."""
from __future__ import annotations

from core.settings import REPO_ROOT

RESULTS = REPO_ROOT / "bench" / "results"
# Written by the browser tests and the benches when they run; RESULTS.md names them, git keeps the committed ones.
MAX_FILES = 80
MAX_BYTES = 2 * 1024 * 1024
# Gitignored folders for runs kept on one machine only (TREC run files, scratch).
LOCAL = {"runs", "tmp"}


def _files() -> list:
    return sorted(p for p in RESULTS.rglob("*") if p.is_file() and p.relative_to(RESULTS).parts[0] not in LOCAL)


def test_results_are_few_and_small():
    files = _files()
    assert len(files) <= MAX_FILES, f"{len(files)} files under bench/results (at most {MAX_FILES})"
    large = [str(p.relative_to(RESULTS)) for p in files if p.stat().st_size > MAX_BYTES]
    assert not large, f"over 2 MB: {large}"


def test_results_md_names_every_file():
    page = (RESULTS / "RESULTS.md").read_text()
    unnamed = [str(p.relative_to(RESULTS)) for p in _files() if p.name != "RESULTS.md" and p.name not in page]
    assert not unnamed, f"bench/results/RESULTS.md does not name {unnamed}"
