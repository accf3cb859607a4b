"""The local Neo4j server: a real one, on a free port, in a temporary data dir.

Slow-ish (two server starts from the shared jar cache: ~13 s on 2 cores). Needs Java 17+,
and Maven plus access to Maven Central the first time the jar cache is filled.
"""
from __future__ import annotations

import shutil
import socket
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from core import neo4j_local
from core.neo4j_local import class_archive, config, process
from core.settings import Neo4jConnection, Settings, neo4j_connection

pytestmark = pytest.mark.skipif(shutil.which("java") is None, reason="Neo4j needs Java 17+ on PATH")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _query(conn: Neo4jConnection, cypher: str, **params: object) -> list[dict]:
    with GraphDatabase.driver(conn.uri, auth=(conn.user, conn.password)) as driver:
        records, _, _ = driver.execute_query(cypher, params, database_=conn.database)
        return [r.data() for r in records]


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    # neo4j_uri/password forced to None so a developer's NEO4J_URI can't redirect the test.
    return Settings(
        data_dir=tmp_path_factory.mktemp("citewalk-data"),
        neo4j_bolt_port=_free_port(),
        neo4j_uri=None,
        neo4j_password=None,
        neo4j_heap="512m",
        neo4j_pagecache="128m",
    )


@pytest.fixture(scope="session")
def server(settings: Settings) -> Iterator[Neo4jConnection]:
    neo4j_local.install(settings)
    started = time.monotonic()
    conn = neo4j_local.ensure_running(settings)
    pid = neo4j_local.running_pid(settings)
    assert pid is not None
    print(f"\n[neo4j] first start to Bolt: {time.monotonic() - started:.1f} s, RSS {neo4j_local.rss_bytes(pid) / 2**20:.0f} MiB")
    yield conn
    neo4j_local.stop(settings)


def test_cypher_round_trip(server: Neo4jConnection, settings: Settings) -> None:
    rows = _query(server, "CREATE (n:Probe {name: $name}) RETURN n.name AS name", name="round-trip")
    assert rows == [{"name": "round-trip"}]
    assert server.uri == f"bolt://127.0.0.1:{settings.neo4j_bolt_port}"


def test_password_file_is_private_and_used(server: Neo4jConnection, settings: Settings) -> None:
    path = settings.neo4j_data / "password"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == server.password
    assert neo4j_connection(settings) == server


def test_listens_on_loopback_only(server: Neo4jConnection, settings: Settings) -> None:
    conf = (settings.neo4j_data / "conf" / "neo4j.conf").read_text()
    assert f"server.bolt.listen_address=127.0.0.1:{settings.neo4j_bolt_port}" in conf
    assert "server.http.enabled=false" in conf


def test_start_again_is_a_no_op(server: Neo4jConnection, settings: Settings) -> None:
    pid = neo4j_local.running_pid(settings)
    assert neo4j_local.start(settings) == server
    assert neo4j_local.running_pid(settings) == pid


def test_restart_keeps_data(server: Neo4jConnection, settings: Settings) -> None:
    _query(server, "CREATE (:Probe {name: 'survivor'})")
    old_pid = neo4j_local.running_pid(settings)

    assert neo4j_local.stop(settings) is True
    assert neo4j_local.running_pid(settings) is None
    assert old_pid is not None and not process._alive(old_pid)
    assert not (settings.neo4j_data / "run" / process.PID_FILE).exists()
    assert process._port_free(settings.neo4j_bolt_port)
    assert neo4j_local.stop(settings) is False  # idempotent

    archive = class_archive.archive_path(settings)
    assert archive.is_file()  # recorded by the first clean stop of any server using these jars
    started = time.monotonic()
    conn = neo4j_local.start(settings)
    print(f"\n[neo4j] restart to Bolt: {time.monotonic() - started:.1f} s")
    assert conn == server
    pid = neo4j_local.running_pid(settings)
    assert pid is not None and f"-XX:SharedArchiveFile={archive}".encode() in process._cmdline(pid)
    rows = _query(conn, "MATCH (n:Probe {name: 'survivor'}) RETURN count(n) AS c")
    assert rows == [{"c": 1}]


def test_port_taken_names_the_setting(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        s = Settings(data_dir=tmp_path, neo4j_bolt_port=port, neo4j_uri=None)
        with pytest.raises(neo4j_local.Neo4jServerError, match="CITEWALK_NEO4J_BOLT_PORT"):
            neo4j_local.start(s)


def test_external_uri_starts_nothing(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path, neo4j_uri="bolt://db.example:7687", neo4j_password="secret")
    conn = neo4j_local.ensure_running(s)
    assert (conn.uri, conn.password) == ("bolt://db.example:7687", "secret")
    assert neo4j_local.stop(s) is False
    assert not (tmp_path / "neo4j").exists()


def test_initial_password_starting_with_a_dash_is_not_an_option(tmp_path: Path) -> None:
    # neo4j-admin once read a generated "-…" password as a flag and printed its usage instead of setting it.
    s = Settings(data_dir=tmp_path, neo4j_uri=None, neo4j_password=None)
    config.write_conf(s)
    config._set_initial_password(s, "-looks-like-a-flag-1")
    assert (tmp_path / "neo4j" / "data" / "dbms" / "auth.ini").is_file()
    assert all(not config._new_password_file(s).startswith("-") for _ in range(64))


def test_class_archive_is_recorded_once_then_mapped(tmp_path: Path) -> None:
    """No archive yet: the server records one at exit; after a clean exit it moves into the jar cache
    whole (the half-written name is never the one mapped), and the next start maps it."""
    s = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache", neo4j_uri=None)
    s.neo4j_home.mkdir(parents=True)
    (record,) = class_archive.jvm_flags(s)
    assert record.startswith("-XX:ArchiveClassesAtExit=")
    pending = Path(record.split("=", 1)[1])
    pending.parent.mkdir(parents=True, exist_ok=True)
    pending.write_bytes(b"classes")  # what the JVM writes as it exits
    class_archive.keep_recorded(s)
    archive = class_archive.archive_path(s)
    assert archive.read_bytes() == b"classes" and not pending.exists()
    assert [p.name for p in s.neo4j_home.iterdir()] == [archive.name]
    assert class_archive.jvm_flags(s) == [f"-XX:SharedArchiveFile={archive}"]


def test_two_starts_at_once_on_one_data_dir_share_one_server(tmp_path: Path) -> None:
    """Two commands started together (two ingests of a setup script) both found no server and both spawned one;
    the second died on the store's lock ("Neo4j exited during start-up")."""
    s = Settings(data_dir=tmp_path / "data", neo4j_bolt_port=_free_port(), neo4j_http_port=_free_port(),
                 neo4j_uri=None, neo4j_password=None, neo4j_heap="512m", neo4j_pagecache="128m")
    neo4j_local.install(s)
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def run() -> None:
        start.wait()
        try:
            neo4j_local.ensure_running(s)
        except BaseException as exc:  # collected: the assertion below names them
            failures.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        assert not failures, failures
        assert neo4j_local.running_pid(s) is not None
        assert _query(neo4j_connection(s), "RETURN 1 AS one") == [{"one": 1}]
    finally:
        neo4j_local.stop(s)
