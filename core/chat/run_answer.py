"""One question through the answering service, shown live: steps while it runs, then the answer message."""
from __future__ import annotations

import asyncio

from neo4j import Driver

from core.answer.deps import open_stores
from core.answer.models import AnswerEnvelope
from core.answer.service import stream_answer
from core.answer.events import Finished
from core.chat.answer_message import show_answer
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.chat.limits import limited
from core.chat.steps import StepPresenter
from core.render.view import AnswerView
from core.settings import Settings


async def answer_in_chat(
    question: str, options: RunOptions, settings: Settings, driver: Driver | None
) -> tuple[str, AnswerView] | None:
    """Returns (answer message id, view) so the Copy-link action can find what to snapshot."""
    presenter = StepPresenter()
    envelope: AnswerEnvelope | None = None
    try:
        await presenter.prepare(f"corpus {options.corpus}, method {options.method}")
        stores = await asyncio.to_thread(open_stores, settings, options.corpus, options.method)
        stores = limited(stores, options.k, options.hops, options.edge_types)
        async for event in stream_answer(question, options.corpus, settings, method=options.method, stores=stores):
            if isinstance(event, Finished):
                envelope = event.envelope
            else:
                await presenter.handle(event)
    finally:
        await presenter.close_all()
    if envelope is None:
        return None
    view = await asyncio.to_thread(answer_view, driver, settings.neo4j_database, envelope)
    message = await show_answer(presenter.answer, view)
    return message.id, view
