"""Sends an answer's elements one by one and says, in the answer itself, which could not be shown and why.

An element that fails to send (its session-files folder deleted, a full disk, a dropped socket) must not take the
answer down with it: the message text and its stored view are already saved, so the permalink still works, and the
reader learns that the cards or graph are missing instead of seeing an answer that silently lacks them.
"""
from __future__ import annotations

import chainlit as cl
from chainlit.logger import logger

from core.render.markdown import escape_markdown

SHOWN_AS = {"AnswerCards": "the rule cards", "CitationGraph": "the citation graph", "ShareLink": "the link box"}
ANSWER_KEPT = "The answer itself is saved; Copy link still works."


async def send_each(message_id: str, elements: list[cl.CustomElement]) -> tuple[list[cl.CustomElement], list[str]]:
    """In order (the cards must come before the graph); returns the elements sent and one problem per failure."""
    sent: list[cl.CustomElement] = []
    problems: list[str] = []
    for element in elements:
        try:
            await element.send(for_id=message_id)
            sent.append(element)
        except Exception as exc:  # noqa: BLE001 — shown to the reader and logged, never swallowed
            logger.exception("could not send element %s of message %s", element.name, message_id)
            problems.append(f"{SHOWN_AS.get(element.name, element.name)} could not be shown: "
                            f"{type(exc).__name__}: {exc}"[:300])
    return sent, problems


async def add_notice(message: cl.Message, problems: list[str], then: str = ANSWER_KEPT) -> None:
    """Appends the problems (and `then`, Markdown) to the message's text and saves it, without sending its elements
    a second time."""
    notes = [f"> **Note:** {escape_markdown(p)}. {then}" for p in problems]
    message.content = "\n\n".join([message.content, *notes])
    elements, message.elements = message.elements, []
    try:
        await message.update()
    finally:
        message.elements = elements
