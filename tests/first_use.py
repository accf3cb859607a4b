"""`python -m tests.first_use STEP...`: what a test session otherwise builds at first use, built before it starts.

`make test` runs each step in a process of its own beside the lint and type checks, which hold one core for most
of a minute on a fresh machine (no mypy cache), and marks each done with a stamp in the venv. Without it, on a fresh machine (new venv, empty caches) each of these
falls inside the first tests of an xdist worker, often on both workers at once:
- the Neo4j jars (Maven Central) and their class-data archive, which only a server's first clean exit records
  (core.neo4j_local.class_archive): until then every test server starts without it, and the test whose server
  exits first pays for writing it;
- the embedding model's ONNX export (core.embeddings.onnx_export) and the vectors of the HIPAA corpus, which the
  session fixture `hipaa_corpus` ingests once per worker: on a fresh machine both workers embed every text;
- numba's compiled ranx metrics (bench.retrieval.evaluate), cached in the venv.
Each is a cache the code fills by itself when it is missing, so a machine where this never ran passes the same
tests, only slower; where the caches are full every step returns at once.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from core.settings import Settings, get_settings
from tests.conftest import free_port


def neo4j_archive(settings: Settings) -> str:
    """The jars fetched, and a throwaway server started and stopped cleanly, which records the archive."""
    # Each step imports what it needs: a step's process should not pay for the others' libraries.
    from core import neo4j_local
    from core.neo4j_local import class_archive

    neo4j_local.install(settings, quiet=True)
    if class_archive.archive_path(settings).is_file():
        return "cached"
    with tempfile.TemporaryDirectory(prefix="citewalk-first-use-") as data:
        server = settings.model_copy(update={
            "data_dir": Path(data), "neo4j_bolt_port": free_port(), "neo4j_http_port": free_port(),
            "neo4j_heap": "512m", "neo4j_pagecache": "64m",
        })
        neo4j_local.start(server)
        neo4j_local.stop(server)
    return "recorded" if class_archive.archive_path(settings).is_file() else "not recorded"


def hipaa_vectors(settings: Settings) -> str:
    """The windows an ingest of the shared HIPAA corpus embeds, embedded through the embedding cache."""
    from ingest.graph import build_graph  # see neo4j_archive
    from ingest.pipeline import corpus_embedder
    from ingest.reading import vector_plan

    folder = settings.shared / "corpora" / "hipaa"
    if not folder.is_dir():
        return f"skipped: no {folder}"
    graph = build_graph([folder], "hipaa")
    embedder = corpus_embedder(graph, settings)
    texts = [window.text for document in graph.documents for _, window in vector_plan(document, embedder)]
    embedder.embed(texts, cache=embedder.cache_for(settings))
    return f"{len(texts)} windows"


def ranx_metrics(settings: Settings) -> str:
    """bench.retrieval's metrics once on two questions, so numba compiles (and caches) them now."""
    from bench.retrieval import Question, evaluate  # see neo4j_archive

    questions = [Question(id="a", question="a", gold=["x"]), Question(id="b", question="b", gold=["y", "z"])]
    evaluate(questions, {"a": [("x", 2.0), ("y", 1.0)], "b": [("z", 1.0)]}, 10)
    return "compiled"


STEPS: dict[str, Callable[[Settings], str]] = {"neo4j": neo4j_archive, "vectors": hipaa_vectors, "ranx": ranx_metrics}


def main(argv: list[str] | None = None) -> int:
    """Exit 1 when a step failed; only a head start is lost then: the tests build it themselves and say what fails."""
    parser = argparse.ArgumentParser(prog="python -m tests.first_use")
    parser.add_argument("steps", nargs="+", choices=list(STEPS))
    args = parser.parse_args(argv)
    settings = get_settings()
    failed = False
    for name in args.steps:
        started = time.perf_counter()
        try:
            outcome = STEPS[name](settings)
        except Exception as exc:
            failed = True
            outcome = f"failed ({type(exc).__name__}: {exc}); the tests will build it at first use"
        print(f"first use: {name}: {outcome} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
