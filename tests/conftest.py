"""Session-wide real services for the tests: a Neo4j server of our own on a free port, Chroma on disk."""
from __future__ import annotations

import inspect
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings, get_settings

# Markers from what a test uses (README, "Tests"): `integration` = real Neo4j, Chroma, app or PostgreSQL
# processes; `browser` = Chromium through Playwright (also integration). The rest are fast unit tests:
# `pytest -m "not integration and not browser"`.
STORE_FIXTURES = {"neo4j_driver", "chroma_client", "hipaa_corpus", "private_neo4j"}
STARTS_A_SERVICE = ("running_app(", "neo4j_local.", "postgres_cluster(", "chroma_store.client(")


def _sources(item: pytest.Item) -> str:
    """The test's own code and its fixtures' code, where a started service or browser shows."""
    own = getattr(item, "function", None)
    funcs = [own] if own is not None else []
    funcs += [d.func for defs in item._fixtureinfo.name2fixturedefs.values() for d in defs]  # type: ignore[attr-defined]
    parts = []
    for func in funcs:
        try:
            parts.append(inspect.getsource(func))
        except (OSError, TypeError):
            continue
    return "\n".join(parts)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "integration: runs against real Neo4j / Chroma / app / PostgreSQL processes")
    config.addinivalue_line("markers", "browser: drives Chromium through Playwright")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        source = _sources(item)
        if "sync_playwright" in source:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.integration)
        elif STORE_FIXTURES & set(getattr(item, "fixturenames", ())) or any(s in source for s in STARTS_A_SERVICE):
            item.add_marker(pytest.mark.integration)
    # Files with browser tests first, then the other integration files, the quick ones last: `make test` hands
    # whole files to two processes in this order, so the long files start early and the short ones fill the end.
    weight: dict[Path, int] = {}
    for item in items:
        rank = 0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("integration") else 2
        weight[item.path] = min(rank, weight.get(item.path, 2))
    items.sort(key=lambda item: weight[item.path])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def shared_root() -> Path:
    return get_settings().shared


def _shared_corpus(shared_root: Path, name: str) -> Path:
    path = shared_root / "corpora" / name
    if not path.exists():
        pytest.skip(f"{name} corpus not found under {shared_root} (set CITEWALK_SHARED)")
    return path


@pytest.fixture(scope="session")
def hipaa_dir(shared_root: Path) -> Path:
    return _shared_corpus(shared_root, "hipaa")


@pytest.fixture(scope="session")
def adgm_dir(shared_root: Path) -> Path:
    return _shared_corpus(shared_root, "adgm")


@pytest.fixture(scope="session")
def test_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """A private data dir and ports, so tests never touch the demo's stores."""
    base = get_settings()
    data = tmp_path_factory.mktemp("citewalk-data")
    return base.model_copy(update={
        "data_dir": data,
        "neo4j_bolt_port": free_port(),
        "neo4j_http_port": free_port(),
        "neo4j_heap": "768m",
        "neo4j_pagecache": "256m",
    })


@pytest.fixture(scope="session")
def neo4j_driver(test_settings: Settings) -> Iterator:
    from core import neo4j_local
    from core.stores import neo4j_store

    neo4j_local.ensure_running(test_settings)
    driver = neo4j_store.connect(test_settings)
    neo4j_store.ensure_schema(driver, test_settings.neo4j_database)
    yield driver
    driver.close()
    if not test_settings.neo4j_uri:
        neo4j_local.stop(test_settings)


@pytest.fixture(scope="session")
def chroma_client(test_settings: Settings):
    from core.stores import chroma_store

    return chroma_store.client(test_settings)


@pytest.fixture(scope="session")
def hipaa_corpus(hipaa_dir: Path, test_settings: Settings, neo4j_driver) -> str:
    """The full HIPAA corpus ingested once per test session into the test stores; returns its corpus name."""
    from ingest.pipeline import run_ingest

    summary = run_ingest([hipaa_dir], "hipaa", test_settings, quiet=True)
    assert not summary.failures, summary.failures
    return "hipaa"
