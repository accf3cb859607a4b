"""`python -m ingest.demo {ingest,summary} NAME`: the corpus `make demo` shows.

The HIPAA and ADGM corpora come from the shared material (CITEWALK_SHARED); a user without it gets
the small sample regulation shipped in examples/ so the demo still runs end to end.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core import neo4j_local
from core.settings import REPO_ROOT, Settings, get_settings
from core.stores import neo4j_store, queries
from ingest.cli import main as ingest_main

SAMPLE = REPO_ROOT / "examples" / "sample-corpus"
SHARED_CORPORA = {"hipaa": "corpora/hipaa", "adgm": "corpora/adgm"}


def corpus_path(name: str, settings: Settings) -> tuple[str, Path]:
    """(corpus name, path) to ingest; falls back to the bundled sample when the shared copy is absent."""
    if name in SHARED_CORPORA:
        path = settings.shared / SHARED_CORPORA[name]
        if path.exists():
            return name, path
        print(
            f"note: {path} not found (set CITEWALK_SHARED to the folder holding corpora/{name}); "
            f"using the bundled sample corpus instead. Ingest your own files with "
            f"`$(make -s python) -m ingest PATH --corpus NAME`.",
            file=sys.stderr,
        )
        return "sample", SAMPLE
    return name, Path(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest.demo")
    parser.add_argument("action", choices=["ingest", "summary"])
    parser.add_argument("name", nargs="?", default="hipaa")
    args = parser.parse_args(argv)
    settings = get_settings()
    corpus, path = corpus_path(args.name, settings)
    if args.action == "ingest":
        return ingest_main([str(path), "--corpus", corpus])
    neo4j_local.ensure_running(settings)
    driver = neo4j_store.connect(settings)
    try:
        counts = queries.corpus_counts(driver, settings.neo4j_database, corpus)
    finally:
        driver.close()
    print(f"corpus {corpus}: units {sum(counts['units'].values())}, edges {sum(counts['edges'].values())}, "
          f"external citations {counts['externals']['External']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
