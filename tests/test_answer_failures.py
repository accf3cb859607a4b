"""Failures that say something: a store that cannot answer degrades with the notice and a log line; a bug in the
answer path is logged with its traceback and told to the user, never passed off as "graph unavailable"."""
from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import pytest
from neo4j import GraphDatabase
from pydantic_ai import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core import current_law
from core.answer.graph import Neo4jGraph
from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question
from core.answer.stores import Stores
from core.domain import CitewalkError, IngestError, RetrievalError, SettingsError, StoreError
from core.retrieval.anchor import LLMAnchorExtractor
from core.retrieval.registry import get_retriever
from core.settings import Settings, get_settings
from core.stores.graph_reader import UNAVAILABLE, GraphUnavailable
from core.stores.queries import Reached
from tests.conftest import free_port
from tests.support.answer_fakes import FakeGraph, FakeRetriever

QUESTION = "Must a Recognised Body notify the Regulator of changes to its systems and controls?"


class BuggyGraph(FakeGraph):
    """A graph reader with a bug in one read (a TypeError, as a wrong argument would raise)."""

    def __init__(self, broken: str) -> None:
        super().__init__()
        self.broken = broken

    def __getattribute__(self, name: str) -> Any:
        if name != "broken" and name == self.broken:
            def fail(*args: object, **kwargs: object) -> None:
                raise TypeError(f"{name}() got an unexpected argument")
            return fail
        return super().__getattribute__(name)


class DropsMidRun(FakeGraph):
    """Neo4j goes away after the search: expansion finds it gone."""

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]:
        raise GraphUnavailable("Neo4j read failed (ServiceUnavailable: connection refused)")


def ask(graph: FakeGraph, model: str | Model = "extractive") -> AnswerEnvelope:
    return answer_question(QUESTION, "fake", get_settings(), model=model, stores=Stores(FakeRetriever(), graph))


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The exceptions logged with their traceback."""
    return [str(r.exc_info[1]) for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]


def test_a_bug_in_a_tool_is_logged_and_told_not_called_graph_down(caplog: pytest.LogCaptureFixture) -> None:
    envelope = ask(BuggyGraph("expand"))
    assert UNAVAILABLE not in envelope.notices
    assert envelope.error and "internal error (TypeError)" in envelope.error and "logged" in envelope.error
    assert any("expand() got an unexpected argument" in e for e in tracebacks(caplog))


def test_neo4j_gone_mid_run_degrades_with_notice_and_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "citewalk.answer")
    envelope = ask(DropsMidRun())
    assert envelope.error is None and envelope.answer.rules
    assert UNAVAILABLE in envelope.notices
    assert any("following citations" in r.getMessage() and "ServiceUnavailable" in r.getMessage()
               for r in caplog.records)
    assert not tracebacks(caplog)


def test_a_bug_in_the_llm_tools_falls_back_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("search_provisions", {"query": QUESTION})])
        return ModelResponse(parts=[ToolCallPart("read_unit", {"unit_id": "r1"})])

    envelope = ask(BuggyGraph("ancestors"), FunctionModel(model, model_name="scripted"))
    assert envelope.mode == "extractive" and UNAVAILABLE not in envelope.notices
    assert any("TypeError" in n for n in envelope.notices)
    assert any("ancestors() got an unexpected argument" in e for e in tracebacks(caplog))


def test_a_bug_confirming_chain_edges_is_not_taken_for_a_missing_edge(caplog: pytest.LogCaptureFixture) -> None:
    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(parts=[ToolCallPart("search_provisions", {"query": QUESTION})])
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {
            "answer": "Yes.", "rules": [{"unit_id": "r2", "label": "x", "claims": [{"text": "must notify"}]},
                                        {"unit_id": "r1", "label": "y", "claims": [{"text": "adequate systems"}]}],
            "chain": [{"source": "r1", "type": "REFERENCES", "target": "r2"}]})])

    envelope = ask(BuggyGraph("existing_edges"), FunctionModel(model, model_name="scripted"))
    assert not any("chain edge" in n for n in envelope.notices)  # not "dropped: not in the graph"
    assert any("existing_edges() got an unexpected argument" in e for e in tracebacks(caplog))


def test_current_law_caveat_lets_a_bug_through_and_a_store_fault_pass() -> None:
    with pytest.raises(TypeError):
        current_law.caveats(BuggyGraph("current_law"), ["r1"])
    assert current_law.caveats(FakeGraph(down=True), ["r1"]) == []


def test_anchor_falls_back_on_a_model_fault_only(caplog: pytest.LogCaptureFixture) -> None:
    settings = get_settings()

    def outage(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise ModelHTTPError(503, "local", "overloaded")

    def bug(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise KeyError("topic")

    caplog.set_level(logging.WARNING, "citewalk.retrieval")
    assert LLMAnchorExtractor(settings, model=FunctionModel(outage)).extract(QUESTION).source == "rules"
    assert any("503" in r.getMessage() for r in caplog.records)
    with pytest.raises(KeyError):
        LLMAnchorExtractor(settings, model=FunctionModel(bug)).extract(QUESTION)


def test_live_neo4j_gone_is_a_store_error() -> None:
    driver = GraphDatabase.driver(f"bolt://127.0.0.1:{free_port()}", auth=("neo4j", "unused"),
                                  connection_timeout=2, max_transaction_retry_time=0)
    try:
        with pytest.raises(GraphUnavailable, match="ServiceUnavailable"):
            Neo4jGraph(driver, "neo4j").expand(["r1"], ["REFERENCES"], 1, 5)
    finally:
        driver.close()


def test_one_exception_tree() -> None:
    from core.embeddings import EmbeddingModelError
    from core.neo4j_local import Neo4jServerError
    from core.stores.chroma_store import VectorStoreError
    from core.stores.neo4j_store import GraphStoreError
    from ingest.formats import UnknownFormatError
    from ingest.parsers.generic.readers import ReadError

    for store in (GraphStoreError, VectorStoreError, GraphUnavailable, EmbeddingModelError, Neo4jServerError):
        assert issubclass(store, StoreError) and issubclass(store, CitewalkError)
    assert issubclass(UnknownFormatError, IngestError) and issubclass(ReadError, IngestError)
    with pytest.raises(RetrievalError, match="unknown retrieval method"):
        get_retriever("no-such-method", get_settings())
    with pytest.raises(ValueError) as found:  # pydantic wraps a validator's error in its ValidationError
        Settings(lexical_analyzer="klingon")
    assert isinstance(found.value.errors()[0]["ctx"]["error"], SettingsError)  # type: ignore[attr-defined]
