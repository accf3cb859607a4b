"""Per-run dependencies: the stores, the settings, and the evidence ledger every tool writes to."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from core.answer.events import EventSink, NoticeEvent, StepFinished, StepStarted, ignore
from core.answer.graph import GraphReader, Neo4jGraph
from core.stores.queries import UnitRecord
from core.retrieval.base import PathEdge, Retriever
from core.settings import Settings
from core.stores.graph_reader import UNAVAILABLE, reader_for


@dataclass
class Evidence:
    """One unit a tool returned, and why: its role relative to the seed it was reached from."""

    unit: UnitRecord
    role: str
    seed_id: str | None = None
    via: PathEdge | None = None
    score: float = 0.0
    rank: int | None = None


@dataclass
class EvidenceLedger:
    """Everything the run has actually retrieved; the validator accepts citations of these ids only."""

    units: dict[str, Evidence] = field(default_factory=dict)
    edges: dict[tuple[str, str, str], PathEdge] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, evidence: Evidence) -> None:
        with self._lock:
            known = self.units.get(evidence.unit.id)
            # A unit found by search stays a seed even if expansion reaches it again later.
            if known is None or (evidence.role == "seed" and known.role != "seed"):
                self.units[evidence.unit.id] = evidence
            if evidence.via is not None:
                self.record_edge(evidence.via)

    def record_edge(self, edge: PathEdge) -> None:
        self.edges[(edge.source, edge.type, edge.target)] = edge

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self.units

    def seeds(self) -> list[Evidence]:
        found = [e for e in self.units.values() if e.role == "seed"]
        return sorted(found, key=lambda e: (e.rank if e.rank is not None else 1_000_000, -e.score))

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

    @contextmanager
    def step(self, name: str, detail: str = "") -> Iterator[list[str]]:
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


_RETRIEVERS: dict[tuple[str, ...], Retriever] = {}


def make_retriever(settings: Settings, corpus: str, method: str) -> Retriever:
    """One retriever per (method, corpus, stores) for the process: loading models and indexes is the slow part."""
    key = (method, corpus, str(settings.data_dir), str(settings.chroma_host), str(settings.neo4j_bolt_port))
    if key not in _RETRIEVERS:
        # Imported late: the retrievers load embedding models and indexes nobody needs for `--help`.
        from core.retrieval import registry

        _RETRIEVERS[key] = registry.get_retriever(method, settings)
    return _RETRIEVERS[key]


@dataclass
class Stores:
    """What a run reads from; `graph_notice` says why the graph is missing when it is."""

    retriever: Retriever
    graph: GraphReader | None
    graph_notice: str | None = None


def open_stores(settings: Settings, corpus: str, method: str) -> Stores:
    """The retriever and the graph; Neo4j down gives graph=None and a notice (answers go on without expansion)."""
    retriever = make_retriever(settings, corpus, method)
    reader = reader_for(settings)
    driver = reader.driver_or_none()
    if driver is None:
        return Stores(retriever, None, UNAVAILABLE)
    return Stores(retriever, Neo4jGraph(driver, reader.database))
