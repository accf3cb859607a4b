"""One question through the answering service, shown live: steps while it runs, then the answer message."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from neo4j import Driver

from core.answer.deps import Stores, open_stores
from core.answer.models import AnswerEnvelope
from core.answer.service import stream_answer
from core.answer.events import AnswerEvent, Finished
from core.chat.answer_message import show_answer
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.chat.limits import limited
from core.chat.steps import StepPresenter
from core.render.view import AnswerView
from core.settings import Settings


def chat_stores(settings: Settings, options: RunOptions) -> Stores:
    """The stores a chat question reads: the API's, under the panel's caps (k, hops, edge types)."""
    return limited(open_stores(settings, options.corpus, options.method), options.k, options.hops, options.edge_types)


async def chat_envelope(
    question: str, options: RunOptions, settings: Settings, on_event: Callable[[AnswerEvent], Awaitable[None]]
) -> AnswerEnvelope | None:
    """The chat's answer with its progress events; what the chat shows and what `POST /api/ask` returns meet here."""
    stores = await asyncio.to_thread(chat_stores, settings, options)
    envelope: AnswerEnvelope | None = None
    async for event in stream_answer(question, options.corpus, settings, method=options.method, stores=stores):
        if isinstance(event, Finished):
            envelope = event.envelope
        else:
            await on_event(event)
    return envelope


async def answer_in_chat(
    question: str, options: RunOptions, settings: Settings, driver: Driver | None
) -> tuple[str, AnswerView] | None:
    """Returns (answer message id, view) so the Copy-link action can find what to snapshot."""
    presenter = StepPresenter()
    try:
        await presenter.prepare(f"corpus {options.corpus}, method {options.method}")
        envelope = await chat_envelope(question, options, settings, presenter.handle)
    finally:
        await presenter.close_all()
    if envelope is None:
        return None
    view = await asyncio.to_thread(answer_view, driver, settings.neo4j_database, envelope)
    message = await show_answer(presenter.answer, view)
    return message.id, view
