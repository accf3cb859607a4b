"""The answer as a Chainlit message: Markdown body, rule-card and graph elements, and the Copy-link action."""
from __future__ import annotations

import asyncio
from typing import Any

import chainlit as cl

from core.chat.element_faults import add_notice, send_each
from core.render.chain import chain_segments
from core.render.graph_html import graph_html
from core.render.graph_path import path_ids
from core.render.markdown import answer_markdown, escape_markdown
from core.render.view import AnswerView

GRAPH_HEIGHT_PX = 420
VIEW_METADATA_KEY = "citewalk_view"
COPY_LINK_ACTION = "copy_link"


def card_props(view: AnswerView, answer_id: str) -> dict[str, Any]:
    """`answerId` (the message's id) names the answer for its Export links and pairs the cards with the graph."""
    return {
        "cards": [card.model_dump(mode="json") for card in view.cards],
        "chain": chain_segments(view.chain, view.labels),
        "answerId": answer_id,
    }


def answer_elements(view: AnswerView, answer_id: str) -> list[cl.CustomElement]:
    elements = [cl.CustomElement(name="AnswerCards", props=card_props(view, answer_id), display="inline")]
    if view.nodes:
        elements.append(cl.CustomElement(
            name="CitationGraph", display="inline",
            props={"html": graph_html(view, GRAPH_HEIGHT_PX), "height": GRAPH_HEIGHT_PX, "answerId": answer_id,
                   "nodeCount": len(view.nodes), "pathCount": len(path_ids(view))},
        ))
    return elements


def copy_link_action() -> cl.Action:
    return cl.Action(name=COPY_LINK_ACTION, payload={}, label="Copy link", icon="link",
                     tooltip="A read-only link to this answer for signed-in colleagues")


def answer_label(view: AnswerView) -> str:
    """Heads each of the two answers shown when an LLM is asked, so neither passes for the other."""
    return "**Extractive answer** (quoted, shown at once)" if view.mode == "extractive" else f"**LLM answer** ({escape_markdown(view.model)})"


async def show_answer(streamed: cl.Message | None, view: AnswerView, labelled: bool = False) -> cl.Message:
    """Fills the streamed message (or a new one) with the final answer; the view rides in its metadata for sharing.

    Elements are sent one after the other: Chainlit sends a message's elements concurrently, and the cards must
    come before the graph.
    """
    message = streamed or cl.Message(content="")
    message.content = (f"{answer_label(view)}\n\n" if labelled else "") + answer_markdown(view)
    message.actions = [copy_link_action()]
    message.metadata = {**(message.metadata or {}), VIEW_METADATA_KEY: view.model_dump(mode="json")}
    await (message.update() if streamed else message.send())
    # The graph's HTML is rendered by pyvis: not on the loop.
    elements = await asyncio.to_thread(answer_elements, view, message.id)
    sent, problems = await send_each(message.id, elements)
    message.elements = sent  # type: ignore[assignment]  # chainlit types Message.elements with an unbound TypeVar
    if problems:
        await add_notice(message, problems)
    return message
