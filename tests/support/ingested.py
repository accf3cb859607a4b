"""A text written by a test, ingested as its own corpus through the real pipeline (Neo4j, Chroma, BM25)."""
from __future__ import annotations

import pytest

from core.settings import Settings
from ingest.pipeline import run_ingest


def ingest_text(tmp_path_factory: pytest.TempPathFactory, settings: Settings, corpus: str, file: str, text: str,
                references: int = 0) -> str:
    """The text ingested as corpus `corpus`, with at least `references` REFERENCES edges found in it."""
    folder = tmp_path_factory.mktemp(corpus)
    (folder / file).write_text(text, encoding="utf-8")
    summary = run_ingest([folder], corpus, settings, quiet=True)
    assert not summary.failures and summary.edges_by_type.get("REFERENCES", 0) >= references, summary.edges_by_type
    return corpus
