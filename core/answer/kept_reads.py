"""What the answerer read from the graph about single units, kept until the corpus is ingested again.

Under load, an answer's dozen Neo4j round trips were most of its time. A read of one unit changes only with an
ingest, so each unit's answer is kept per corpus and `ingest_stamp`, bounded in entries; a batch reads only its
missing units, in one query. Walks over edges depend on the whole seed set and pass through.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from core.answer.graph import GraphReader
from core.current_law import CurrentLaw
from core.domain import Edge
from core.retrieval.saved_read import ingest_stamp
from core.settings import Settings
from core.stores.graph_reader import GraphUnavailable
from core.stores.queries import Reached, UnitRecord

V = TypeVar("V")
# ~1–3 KiB an entry (a unit's record with its text, or a few headings), so a few tens of MiB per corpus at most.
KEPT_ENTRIES = 20_000
# Corpora whose reads are kept at once; the least recently asked goes first.
KEPT_CORPORA = 8
_ABSENT = object()


class KeptReads:
    """Per-unit read results of one corpus at one ingest, least recently used out first; shared by the answers
    running at once in worker threads, hence the lock (never held during a read)."""

    def __init__(self, max_entries: int = KEPT_ENTRIES) -> None:
        self.max_entries = max_entries
        self._items: OrderedDict[tuple[str, str], object] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def per_unit(self, kind: str, unit_ids: Iterable[str], read: Callable[[list[str]], dict[str, V]]) -> dict[str, V]:
        """`read`'s answer for these units, each unit's part from what was kept where it was read before; absent
        units stay absent, and the result lists the units in the order asked."""
        ids = list(dict.fromkeys(unit_ids))
        found: dict[str, object] = {}
        with self._lock:
            for unit_id in ids:
                if (key := (kind, unit_id)) in self._items:
                    self._items.move_to_end(key)
                    found[unit_id] = self._items[key]
        missing = [u for u in ids if u not in found]
        if missing:
            fresh = read(missing)
            with self._lock:
                for unit_id in missing:
                    value = fresh.get(unit_id, _ABSENT)
                    found[unit_id] = self._items[(kind, unit_id)] = value
                while len(self._items) > self.max_entries:
                    self._items.popitem(last=False)
        return {u: v for u in ids if (v := found[u]) is not _ABSENT}  # type: ignore[misc]

    def one(self, kind: str, unit_id: str, read: Callable[[str], V | None]) -> V | None:
        return self.per_unit(kind, [unit_id], lambda ids: {u: v for u in ids if (v := read(u)) is not None}).get(unit_id)


class KeptGraph:
    """GraphReader for one answer that answers per-unit reads from `kept` and passes walks through to `inner`.
    Once a read finds the graph unavailable, every later read of the answer says so too, kept or not: an answer
    that says the graph is down does not go on using what the graph said before (a read that fails keeps nothing)."""

    def __init__(self, inner: GraphReader, kept: KeptReads) -> None:
        self.inner = inner
        self.kept = kept
        self.down: GraphUnavailable | None = None

    def _live(self, read: Callable[[], V]) -> V:
        if self.down is not None:
            raise GraphUnavailable(str(self.down))
        try:
            return read()
        except GraphUnavailable as exc:
            self.down = exc
            raise

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        return self._live(lambda: self.kept.per_unit("unit", unit_ids, self.inner.fetch_units))

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return self._live(lambda: self.kept.per_unit("ancestors", unit_ids, self.inner.ancestors_of))

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        return self._live(lambda: self.kept.one("ancestor_path", unit_id, self.inner.ancestors)) or []

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return self._live(lambda: self.kept.per_unit("children", unit_ids, self.inner.children))

    def current_law(self, unit_id: str) -> CurrentLaw | None:
        return self._live(lambda: self.kept.one("current_law", unit_id, self.inner.current_law))

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]:
        return self._live(lambda: self.inner.expand(seed_ids, edge_types, max_hops, node_cap))

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[Edge]:
        return self._live(lambda: self.inner.edges_among(unit_ids, edge_types))

    def existing_edges(self, edges: list[Edge]) -> set[tuple[str, str, str]]:
        return self._live(lambda: self.inner.existing_edges(edges))


_KEPT: OrderedDict[Hashable, KeptReads] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def kept_reads_for(settings: Settings, corpus: str) -> KeptReads:
    """The kept reads of this corpus as last ingested into these stores (a new ingest stamp: a new, empty set)."""
    key: tuple[Any, ...] = (settings.neo4j_uri, settings.neo4j_bolt_port, settings.neo4j_database,
                            str(settings.data_dir), corpus, ingest_stamp(settings, corpus))
    with _KEPT_LOCK:
        kept = _KEPT.get(key)
        if kept is None:
            kept = _KEPT[key] = KeptReads()
            while len(_KEPT) > KEPT_CORPORA:
                _KEPT.popitem(last=False)
        _KEPT.move_to_end(key)
        return kept
