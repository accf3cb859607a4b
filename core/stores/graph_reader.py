"""The one way into Neo4j for a process: one driver per (server, database), failing soft, reconnecting itself.

Every caller reads through the reader of its settings, so a process holds one driver per server (connecting costs
more than an extractive answer) and a failed read gives the caller's fallback and one notice, never an exception
nor a wait longer than one refused connect. Without a driver yet, a connect is retried at most every
RECONNECT_EVERY_S seconds.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from neo4j import Driver

from core.domain import StoreError
from core.settings import Settings
from core.stores.neo4j_store import connect

T = TypeVar("T")
log = logging.getLogger("citewalk.graph")
RECONNECT_EVERY_S = 5.0
# The one wording users, API clients and benchmark files see whenever a Neo4j read fell back.
UNAVAILABLE = "Citation graph unavailable: results come from search alone, without following citations, until it is back."


class GraphUnavailable(StoreError):
    """Neo4j could not be reached (now, or moments ago); the message says why."""


class Neo4jReader:
    """A Neo4j driver that may be absent. `call` returns (value, None) or (fallback, UNAVAILABLE), never raises."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.database = settings.neo4j_database
        self._driver: Driver | None = None
        self._last_try = 0.0
        self._lock = threading.Lock()
        self.answered_at = 0.0  # monotonic time of the last read that Neo4j answered

    def driver(self) -> Driver:
        """The shared driver; GraphUnavailable when Neo4j cannot be reached."""
        with self._lock:
            if self._driver is not None:
                return self._driver
            if self._last_try and time.monotonic() - self._last_try < RECONNECT_EVERY_S:
                raise GraphUnavailable("Neo4j was unreachable moments ago; retrying shortly")
            self._last_try = time.monotonic()
            try:
                self._driver = connect(self.settings, serving=True)
            except Exception as exc:  # noqa: BLE001 — whatever the cause, readers degrade the same way
                raise GraphUnavailable(f"{type(exc).__name__}: {str(exc)[:200]}") from exc
            log.info("connected to Neo4j for %s", self.database)
            return self._driver

    def driver_or_none(self) -> Driver | None:
        try:
            return self.driver()
        except GraphUnavailable as exc:
            log.warning("Neo4j unavailable: %s", exc)
            return None

    def call(self, fn: Callable[[Driver, str], T], fallback: T) -> tuple[T, str | None]:
        try:
            value = fn(self.driver(), self.database)
        except Exception as exc:  # noqa: BLE001 — any store failure degrades to the caller's fallback
            log.warning("Neo4j read failed (%s: %s); using the fallback", type(exc).__name__, str(exc)[:200])
            return fallback, UNAVAILABLE
        self.answered_at = time.monotonic()
        return value, None

    def notice(self) -> str | None:
        """UNAVAILABLE when Neo4j does not answer right now (a round trip), else None."""
        _, problem = self.call(lambda driver, _database: driver.verify_connectivity(), None)
        return problem


_READERS: dict[tuple[object, ...], Neo4jReader] = {}
_READERS_LOCK = threading.Lock()


def reader_for(settings: Settings) -> Neo4jReader:
    """The process's reader for this server and database (made on first use; connecting waits for a read)."""
    key = (settings.neo4j_uri, settings.neo4j_bolt_port, settings.neo4j_user, settings.neo4j_database,
           str(settings.data_dir))
    with _READERS_LOCK:
        if key not in _READERS:
            _READERS[key] = Neo4jReader(settings)
        return _READERS[key]


def write_driver(settings: Settings) -> Driver:
    """A driver of its own for an ingest's writes: it keeps the driver's transaction retries (a writer may
    wait for a lock; a reader must not) and is closed by the writer when the ingest ends (readers never see it)."""
    return connect(settings)
