"""Where a chat or API question is answered: in this worker process, from the stores its warm-up opened (a corpus
ingested while it runs is opened in the background by core.retrieval.reload). A chat's answer runs under the panel's
caps with its events streamed; the API's from the stores whole."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import aclosing

from core.answer.events import AnswerEvent, Finished
from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question_async, stream_answer
from core.answer.stores import Stores, open_stores
from core.chat.controls import RunOptions
from core.chat.limits import limited
from core.settings import Settings

EventHandler = Callable[[AnswerEvent], Awaitable[None]]


async def unheard(_event: AnswerEvent) -> None:
    """The handler when nobody watches the run (the API)."""


def chat_stores(settings: Settings, options: RunOptions) -> Stores:
    """The stores a chat question reads: the API's, under the panel's caps (k, hops, edge types)."""
    return limited(open_stores(settings, options.corpus, options.method), options.k, options.hops, options.edge_types)


async def chat_envelope(question: str, options: RunOptions, settings: Settings, on_event: EventHandler, *,
                        for_api: bool = False) -> AnswerEnvelope | None:
    """The answer with its progress events; what the chat shows and what `POST /api/ask` returns (`for_api`: from
    the stores whole, not under the chat panel's caps, and with no events) meet here."""
    if for_api:
        stores = await asyncio.to_thread(open_stores, settings, options.corpus, options.method)
        return await answer_question_async(question, options.corpus, settings, method=options.method, stores=stores,
                                           as_of=options.as_of)
    stores = await asyncio.to_thread(chat_stores, settings, options)
    envelope: AnswerEnvelope | None = None
    async with aclosing(stream_answer(question, options.corpus, settings, method=options.method,
                                      stores=stores, as_of=options.as_of)) as events:
        async for event in events:
            if isinstance(event, Finished):
                envelope = event.envelope
            else:
                await on_event(event)  # when it raises (the client went away), aclosing stops the run
    return envelope
