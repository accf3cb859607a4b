"""One question through the answering service, shown live: steps while it runs, then the answer message."""
from __future__ import annotations

import asyncio

import chainlit as cl
from neo4j import Driver

from core.answer.events import AnswerEvent, ProvisionalAnswer
from core.answer.models import AnswerEnvelope
from core.chat.answer_message import show_answer, start_card_sources
from core.chat.answering import chat_envelope
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.chat.steps import StepPresenter
from core.render.markdown import escape_markdown
from core.render.view import AnswerView
from core.settings import Settings


async def answer_in_chat(
    question: str, options: RunOptions, settings: Settings, driver: Driver | None
) -> tuple[str, AnswerView] | None:
    """Returns (answer message id, view) so the Copy-link action can find what to snapshot."""
    presenter = StepPresenter()
    provisional: cl.Message | None = None

    async def on_event(event: AnswerEvent) -> None:
        nonlocal provisional
        if isinstance(event, ProvisionalAnswer):  # an LLM is asked: the extractive answer is shown at once
            provisional = await _show_provisional(event.envelope, settings, driver)
            presenter.heading = f"**LLM answer** ({escape_markdown(settings.llm_model)}, arriving…)\n\n"
        else:
            await presenter.handle(event)

    try:
        dated = f", law as of {options.as_of}" if options.as_of else ""
        await presenter.prepare(f"corpus {options.corpus}, method {options.method}{dated}")
        envelope = await chat_envelope(question, options, settings, on_event)
    finally:
        await presenter.close_all()
    if envelope is None:
        return None
    view = await asyncio.to_thread(answer_view, driver, settings.neo4j_database, envelope)
    sources = start_card_sources(driver, settings.neo4j_database, view)
    if provisional is None:
        message = await show_answer(presenter.answer, view, sources=sources)
    elif envelope.mode == "llm":
        message = await show_answer(presenter.answer, view, labelled=True, sources=sources)
    else:  # the LLM failed: the extractive answer stays, now with the notice; any half-streamed LLM text goes
        if presenter.answer is not None:
            await presenter.answer.remove()
        message = await show_answer(provisional, view, labelled=True, sources=sources)
    return message.id, view


async def _show_provisional(envelope: AnswerEnvelope, settings: Settings, driver: Driver | None) -> cl.Message:
    view = await asyncio.to_thread(answer_view, driver, settings.neo4j_database, envelope)
    return await show_answer(None, view, labelled=True, sources=start_card_sources(driver, settings.neo4j_database, view))
