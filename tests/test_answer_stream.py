"""A stream nobody reads any more stops: when the chat client goes away or the chat's event handler fails, the run
behind `stream_answer` is cancelled and awaited instead of going on using the CPU and the model."""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator

import pytest
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from core.answer.events import AnswerEvent, ProvisionalAnswer
from core.answer.service import stream_answer
from core.answer.stores import Stores
from core.chat import answering
from core.chat.controls import RunOptions
from core.settings import Settings, get_settings
from tests.support.answer_fakes import FakeGraph, FakeRetriever

QUESTION = "Must a Recognised Body notify the Regulator of changes to its systems and controls?"


class SlowModel:
    """A streaming LLM that keeps searching, a tenth of a second per request, and counts its requests."""

    def __init__(self) -> None:
        self.requests = 0

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[DeltaToolCalls]:
        self.requests += 1
        await asyncio.sleep(0.1)
        yield {0: DeltaToolCall(name="search_provisions", json_args=json.dumps({"query": f"systems {self.requests}"}))}

    def model(self, name: str = "slow") -> FunctionModel:
        return FunctionModel(stream_function=self, model_name=name)


def _settings() -> Settings:
    return get_settings().model_copy(update={"llm_deadline_s": 30.0})


def _stream(model: SlowModel) -> AsyncGenerator[AnswerEvent, None]:
    return stream_answer(QUESTION, "fake", _settings(), model=model.model(),
                         stores=Stores(FakeRetriever(), FakeGraph()))


async def _others() -> list[asyncio.Task[object]]:
    await asyncio.sleep(0)
    return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]


def test_a_closed_stream_cancels_its_run() -> None:
    model = SlowModel()

    async def client_goes_away() -> tuple[int, int, list[asyncio.Task[object]]]:
        events = _stream(model)
        async for event in events:
            if isinstance(event, ProvisionalAnswer):  # the LLM run has started: the client leaves
                break
        await events.aclose()
        left = await _others()
        at_close = model.requests
        await asyncio.sleep(1.0)
        return at_close, model.requests, left

    at_close, later, left = asyncio.run(client_goes_away())
    assert left == [], "the producer task outlived the stream"
    assert later == at_close, f"the model was asked {later - at_close} more times after the client left"


def test_a_failing_chat_handler_cancels_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    model = SlowModel()
    monkeypatch.setattr(answering, "chat_stores", lambda settings, options: Stores(FakeRetriever(), FakeGraph()))
    settings = _settings().model_copy(update={"llm_model": "slow"})

    async def on_event(event: AnswerEvent) -> None:
        if isinstance(event, ProvisionalAnswer):
            raise ConnectionResetError("the browser went away")

    async def chat() -> tuple[int, int, list[asyncio.Task[object]]]:
        monkeypatch.setattr("core.answer.service.chat_model", lambda settings, name: model.model(name))
        with pytest.raises(ConnectionResetError):
            await answering.chat_envelope(QUESTION, RunOptions(corpus="fake"), settings, on_event)
        left = await _others()
        at_close = model.requests
        await asyncio.sleep(1.0)
        return at_close, model.requests, left

    at_close, later, left = asyncio.run(chat())
    assert left == [], "the producer task outlived the chat's handler"
    assert later == at_close, f"the model was asked {later - at_close} more times after the handler failed"
