"""Shared pieces of the hardening tests: a tiny generic-Markdown corpus, a private Neo4j, a signed-in API client."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.settings import Settings
from tests.conftest import free_port

TINY_CORPUS_TEXT = """# Tiny Records Act 2024

## Article 1. Records

1. A clinic must keep patient records for five years.
2. The records must be stored securely.

## Article 2. Disclosure

1. A clinic may disclose records kept under Article 1 only with the patient's consent.
2. Subject to Article 3, disclosure for research needs ethics approval.
{extra}
## Article 3. Research exemption

1. Research disclosure without consent is allowed when the data is anonymised.
"""
DISCLOSURE_QUESTION = "When may a clinic disclose patient records?"


def write_tiny_corpus(root: Path, extra: str = "", name: str = "tiny-act.md") -> Path:
    """One generic Markdown document with REFERENCES edges (Article 2 cites Articles 1 and 3)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(TINY_CORPUS_TEXT.format(extra=extra), encoding="utf-8")
    return root


def ingest(root: Path, corpus: str, settings: Settings) -> None:
    from ingest.pipeline import run_ingest

    summary = run_ingest([root], corpus, settings, quiet=True)
    assert not summary.failures, summary.failures


def graph_counts(driver, database: str) -> tuple[int, int]:
    """All nodes and relationships of the store, every corpus included."""
    nodes = driver.execute_query("MATCH (n) RETURN count(n) AS n", database_=database)[0][0]["n"]
    edges = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n", database_=database)[0][0]["n"]
    return nodes, edges


@pytest.fixture(scope="module")
def private_neo4j(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings) -> Iterator[Settings]:
    """A Neo4j of this module's own (data dir, port), so stopping it cannot break any other test."""
    from core import neo4j_local

    settings = test_settings.model_copy(update={
        "data_dir": tmp_path_factory.mktemp("private-neo4j"), "neo4j_bolt_port": free_port(),
        "neo4j_http_port": free_port(), "neo4j_heap": "512m", "neo4j_pagecache": "64m",
    })
    neo4j_local.start(settings)
    try:
        yield settings
    finally:
        neo4j_local.stop(settings)


def api_client(url: str, email: str, password: str) -> httpx.Client:
    """Signed in the way a program would: Chainlit's /login form, then its session cookie on every call."""
    client = httpx.Client(base_url=url, timeout=300)
    response = client.post("/login", data={"username": email, "password": password})
    assert response.status_code == 200, response.text
    return client


def cited_ids(envelope: dict) -> set[str]:
    return {rule["unit_id"] for rule in envelope["answer"]["rules"]}
