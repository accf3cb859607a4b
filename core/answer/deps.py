"""Per-run dependencies: the stores, the settings, and the evidence ledger every tool writes to."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType

from core.answer.dated import DatedWords
from core.answer.events import EventSink, NoticeEvent, StepFinished, StepStarted, ignore
from core.answer.graph import GraphReader
from core.domain import Edge, Step, StoreError
from core.retrieval.base import Retriever
from core.settings import Settings
from core.stores.graph_reader import UNAVAILABLE
from core.stores.queries import UnitRecord

log = logging.getLogger("citewalk.answer")


# The role of a unit the search found below its k by meaning alone (core.answer.tools.run_search): evidence, not a seed.
MEANING = "meaning"


@dataclass
class Evidence:
    """One unit a tool returned, and why: its role relative to the seed it was reached from."""

    unit: UnitRecord
    role: str
    seed_id: str | None = None
    via: Edge | None = None
    score: float = 0.0
    rank: int | None = None


@dataclass
class EvidenceLedger:
    """Everything the run has actually retrieved; the validator accepts citations of these ids only.
    One model response's tool calls run at once in worker threads, and the answer's selection iterates the
    ledger: every write replaces `units` / `edges` with a new mapping under the lock (copy on write), so a
    reader always iterates a snapshot no thread changes. The ledger holds tens to hundreds of entries."""

    units: Mapping[str, Evidence] = field(default_factory=lambda: MappingProxyType({}))
    edges: Mapping[tuple[str, str, str], Edge] = field(default_factory=lambda: MappingProxyType({}))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # The date the run answers for: what is recorded reads as it did then (core.answer.dated); None: as stored.
    dated: DatedWords | None = None

    def record(self, evidence: Evidence) -> None:
        self.record_all([evidence])

    def record_all(self, found: Iterable[Evidence]) -> None:
        found = list(found) if self.dated is None else self._as_of(found)
        with self._lock:
            units = dict(self.units)
            for evidence in found:
                known = units.get(evidence.unit.id)
                # A unit found by search stays a seed even if expansion reaches it again later.
                if known is None or (evidence.role == "seed" and known.role != "seed"):
                    units[evidence.unit.id] = evidence
            self.units = MappingProxyType(units)
            self._put_edges(e.via for e in found if e.via is not None)

    def _as_of(self, found: Iterable[Evidence]) -> list[Evidence]:
        out: list[Evidence] = []
        for evidence in found:
            unit = self.dated.apply(evidence.unit) if self.dated is not None else evidence.unit
            if unit is not None:
                evidence.unit = unit
                out.append(evidence)
        return out

    def record_edge(self, edge: Edge) -> None:
        self.record_edges([edge])

    def record_edges(self, edges: Iterable[Edge]) -> None:
        edges = list(edges)
        with self._lock:
            self._put_edges(edges)

    def _put_edges(self, edges: Iterable[Edge]) -> None:
        self.edges = MappingProxyType({**self.edges, **{(e.source, e.type, e.target): e for e in edges}})

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self.units

    def seeds(self) -> list[Evidence]:
        found = [e for e in self.units.values() if e.role == "seed"]
        return sorted(found, key=lambda e: (e.rank if e.rank is not None else 1_000_000, -e.score))

    def searched(self) -> list[Evidence]:
        """Every unit the search itself found: the seeds, then the units closest in meaning read below them."""
        return self.seeds() + [e for e in self.units.values() if e.role == MEANING]

    def ids(self) -> list[str]:
        return list(self.units)


@dataclass
class AnswerDeps:
    settings: Settings
    corpus: str
    question: str
    retriever: Retriever
    graph: GraphReader | None
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)
    notices: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    emit: EventSink = ignore
    search_k: int = 8

    def notice(self, text: str) -> None:
        if text not in self.notices:
            self.notices.append(text)
            self.emit(NoticeEvent(text=text))

    def graph_failed(self, exc: StoreError, doing: str) -> None:
        """A graph read failed mid-run (Neo4j went away): logged, and the user told the answer is search-only."""
        log.warning("%s: %s; the answer goes on from search alone", doing, exc)
        self.notice(UNAVAILABLE)

    @contextmanager
    def step(self, name: Step, detail: str = "") -> Iterator[list[str]]:
        """Times a step and emits started/finished; the caller appends the finished detail to the yielded list."""
        self.emit(StepStarted(step=name, detail=detail))
        started = time.perf_counter()
        outcome: list[str] = []
        try:
            yield outcome
        finally:
            elapsed = (time.perf_counter() - started) * 1000
            self.timings_ms[name] = round(self.timings_ms.get(name, 0.0) + elapsed, 1)
            self.emit(StepFinished(step=name, detail="; ".join(outcome), elapsed_ms=round(elapsed, 1)))
