"""The evidence ledger under parallel tool calls: pydantic-ai runs one response's tool calls at once (sync tools in
worker threads), so the ledger is written and read from several threads during a run."""
from __future__ import annotations

import sys
import threading
from collections.abc import Iterable, Iterator

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core.answer.agent import answer_agent
from core.answer.deps import AnswerDeps, Evidence, EvidenceLedger
from core.answer.events import AnswerEvent, StepFinished
from core.domain import Edge
from core.retrieval.base import RetrievalRequest, RetrievalResult, RetrievedUnit, Retriever
from core.settings import get_settings
from core.stores.queries import UnitRecord
from tests.support.answer_fakes import FakeGraph

UNITS = 400


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch as often as CPython allows, so an unguarded iteration meets a concurrent write."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def _unit(n: int) -> UnitRecord:
    return UnitRecord(id=f"u{n}", label=f"Rule {n}", text=f"Rule {n} requires records to be kept.", document_id="d")


def test_ledger_reads_while_threads_write(busy_switching: None) -> None:
    ledger = EvidenceLedger()
    failures: list[BaseException] = []
    done = threading.Event()

    def write(offset: int) -> None:
        for n in range(offset, offset + UNITS):
            ledger.record(Evidence(_unit(n), "seed" if n % 2 else "cites", rank=n))
            ledger.record_edge(Edge(source=f"u{n}", type="REFERENCES", target=f"u{n + 1}"))

    def read() -> None:
        try:
            while not done.is_set():
                ledger.seeds()
                ledger.ids()
                sum(1 for _ in ledger.edges.values())
                sum(1 for _ in ledger.units.items())
        except RuntimeError as exc:  # "dictionary changed size during iteration"
            failures.append(exc)

    readers = [threading.Thread(target=read) for _ in range(3)]
    writers = [threading.Thread(target=write, args=(k * UNITS,)) for k in range(4)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join()
    done.set()
    for t in readers:
        t.join()
    assert failures == []
    assert len(ledger.ids()) == 4 * UNITS and len(ledger.edges) == 4 * UNITS


class ManyHits(Retriever):
    """Every query returns a block of its own units, so parallel searches all write the ledger at once."""

    name = "many"

    def __init__(self) -> None:
        # Calls meet in pairs before answering: the test fails, rather than passes by luck, if they ran one by one.
        self.pairs = threading.Barrier(2, timeout=10)

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        self.pairs.wait()
        base = int(request.question.split()[-1]) * UNITS
        return RetrievalResult(method=self.name, hits=[
            RetrievedUnit(unit_id=f"u{n}", score=1.0 / (1 + n - base), label=f"Rule {n}", text=_unit(n).text)
            for n in range(base, base + UNITS)])

    def corpus_stores(self, corpus: str) -> None:
        return None


class AllUnits(FakeGraph):
    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        return {u: _unit(int(u[1:])) for u in unit_ids if u.startswith("u")}


def test_parallel_tool_calls_keep_every_unit_and_edge(busy_switching: None) -> None:
    searches = 16
    seen_seeds: list[int] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:  # one response, many tool calls: pydantic-ai runs them concurrently
            return ModelResponse(parts=[ToolCallPart("search_provisions", {"query": f"records {k}"})
                                        for k in range(searches)])
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {"answer": "Kept.", "rules": []})])

    def observe(event: AnswerEvent) -> None:
        # A progress view reading the ledger while the other calls still write it.
        if isinstance(event, StepFinished):
            for _ in range(5):
                seen_seeds.append(len(deps.ledger.seeds()))

    deps = AnswerDeps(get_settings(), "many", "Which records must be kept?", ManyHits(), AllUnits(), emit=observe,
                      search_k=UNITS)
    result = answer_agent().run_sync("Question: which records?", deps=deps, model=FunctionModel(model))
    assert result.output.answer == "Kept."
    assert len(deps.ledger.ids()) == searches * UNITS
    assert len(deps.ledger.seeds()) == searches * UNITS and len(seen_seeds) == 5 * searches
