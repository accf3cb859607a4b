"""The answerer's per-unit graph reads are kept per corpus and ingest (core.answer.kept_reads): a unit is read from
the graph once, a failed read keeps nothing, the set is bounded, a finished re-ingest starts an empty one, and an
answer asked again reads no unit the first one read."""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from core.answer.kept_reads import KeptGraph, KeptReads, kept_reads_for
from core.answer.service import answer_question
from core.answer.stores import Stores
from core.current_law import CurrentLaw
from core.settings import Settings, get_settings
from core.stores.graph_reader import GraphUnavailable
from core.stores.queries import UnitRecord
from tests.support.answer_fakes import UNITS, FakeGraph, FakeRetriever

PER_UNIT_READS = ("fetch_units", "ancestors", "ancestors_of", "children", "current_law")


class CountingGraph(FakeGraph):
    """Counts, per read, the units the graph was asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: Counter[tuple[str, str]] = Counter()

    def _count(self, read: str, unit_ids: Iterable[str]) -> list[str]:
        ids = list(unit_ids)
        self.asked.update((read, u) for u in ids)
        return ids

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        return super().fetch_units(self._count("fetch_units", unit_ids))

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        self._count("ancestors", [unit_id])
        return super().ancestors(unit_id)

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return {u: above for u in self._count("ancestors_of", unit_ids) if (above := FakeGraph.ancestors(self, u))}

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return super().children(self._count("children", unit_ids))

    def current_law(self, unit_id: str) -> CurrentLaw | None:
        self._count("current_law", [unit_id])
        return super().current_law(unit_id)


def test_each_unit_is_read_once_and_absent_units_stay_absent() -> None:
    inner = CountingGraph()
    graph = KeptGraph(inner, KeptReads())
    first = graph.fetch_units(["r2", "r1"])
    assert list(first) == ["r2", "r1"] and first["r1"] == UNITS["r1"]
    second = graph.fetch_units(["r1", "r3", "nowhere"])
    assert list(second) == ["r1", "r3"]
    assert graph.fetch_units(["nowhere", "r2"]) == {"r2": UNITS["r2"]}
    assert inner.asked == Counter({("fetch_units", u): 1 for u in ("r1", "r2", "r3", "nowhere")})
    assert graph.children(["mir", "r1"]) == inner.children(["mir", "r1"])
    assert graph.current_law("r1") == FakeGraph.current_law(inner, "r1") and graph.current_law("nowhere") is None
    graph.current_law("r1")
    graph.current_law("nowhere")
    assert inner.asked[("current_law", "r1")] == 1 and inner.asked[("current_law", "nowhere")] == 1


def test_a_failed_read_keeps_nothing() -> None:
    inner = CountingGraph()
    graph = KeptGraph(inner, KeptReads())
    inner.down = True
    with pytest.raises(GraphUnavailable):
        graph.fetch_units(["r1"])
    inner.down = False
    assert KeptGraph(inner, graph.kept).fetch_units(["r1"]) == {"r1": UNITS["r1"]}  # the next answer
    assert inner.asked[("fetch_units", "r1")] == 2


def test_once_the_graph_is_down_an_answer_reads_nothing_kept() -> None:
    inner = CountingGraph()
    kept = KeptReads()
    units = KeptGraph(inner, kept).fetch_units(["r1"])
    answer = KeptGraph(inner, kept)
    inner.down = True
    with pytest.raises(GraphUnavailable):
        answer.expand(["r1"], ["REFERENCES"], 1, 10)
    with pytest.raises(GraphUnavailable):
        answer.fetch_units(["r1"])  # kept, but this answer already said the graph is down
    assert KeptGraph(inner, kept).fetch_units(["r1"]) == units == {"r1": UNITS["r1"]}  # kept, until a read fails


def test_the_kept_reads_are_bounded_least_recently_used_first() -> None:
    inner = CountingGraph()
    kept = KeptReads(max_entries=2)
    graph = KeptGraph(inner, kept)
    graph.fetch_units(["r1"])
    graph.fetch_units(["r2"])
    graph.fetch_units(["r1"])  # r1 used last: r2 goes when r3 comes
    graph.fetch_units(["r3"])
    assert len(kept) == 2
    graph.fetch_units(["r1", "r2"])
    assert inner.asked[("fetch_units", "r1")] == 1 and inner.asked[("fetch_units", "r2")] == 2


def _stamp(settings: Settings, corpus: str, ns: int) -> None:
    ids = settings.lexical_path / corpus / "unit_ids.json"
    ids.parent.mkdir(parents=True, exist_ok=True)
    ids.write_text("[]")
    os.utime(ids, ns=(ns, ns))


def test_a_finished_reingest_starts_an_empty_set(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    _stamp(settings, "law", 1_000_000_000)
    kept = kept_reads_for(settings, "law")
    assert kept_reads_for(settings, "law") is kept
    assert kept_reads_for(settings, "other") is not kept
    _stamp(settings, "law", 2_000_000_000)  # the last file an ingest writes, written again
    assert kept_reads_for(settings, "law") is not kept


def test_an_answer_asked_again_reads_no_unit_the_first_one_read() -> None:
    inner = CountingGraph()
    stores = Stores(FakeRetriever(), KeptGraph(inner, KeptReads()))
    question = "What must a Recognised Body report to the Regulator, and within how many days?"
    first = answer_question(question, "fake", get_settings(), model="extractive", stores=stores)
    per_unit = {k: n for k, n in inner.asked.items() if k[0] in PER_UNIT_READS}
    assert per_unit and first.answer.rules
    second = answer_question(question, "fake", get_settings(), model="extractive", stores=stores)
    assert {k: n for k, n in inner.asked.items() if k[0] in PER_UNIT_READS} == per_unit
    assert second.answer == first.answer
