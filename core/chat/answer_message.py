"""The answer as a Chainlit message: Markdown body, rule-card and graph elements, and the Copy-link action."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

import chainlit as cl
from chainlit.logger import logger
from neo4j import Driver

from core.chat.element_faults import add_notice, send_each
from core.render.chain import chain_segments
from core.render.graph_html import graph_html
from core.render.graph_path import path_ids
from core.render.markdown import answer_markdown, escape_markdown
from core.render.source_view import SourceView, card_sources
from core.render.view import AnswerView

GRAPH_HEIGHT_PX = 420
VIEW_METADATA_KEY = "citewalk_view"
COPY_LINK_ACTION = "copy_link"
# How long the cards wait, once the graph is drawn, for their source views still being read; past it they go
# without them and a click fetches its view.
SOURCES_WAIT_S = 0.5


def card_props(view: AnswerView, answer_id: str) -> dict[str, Any]:
    """`answerId` (the message's id) names the answer for its Export links and pairs the cards with the graph."""
    return {
        "cards": [card.model_dump(mode="json") for card in view.cards],
        "mayBeAbout": [ref.model_dump(mode="json") for ref in view.may_be_about],
        "abstained": view.abstained,
        "chain": chain_segments(view.chain, view.labels),
        "answerId": answer_id,
        "asOf": view.as_of,
    }


def source_props(sources: Mapping[str, SourceView]) -> dict[str, Any]:
    """The cards' source views read with the answer, and `sourcesReadAt` (ms since the epoch): the element uses
    them only while fresh, so a chat resumed later fetches current ones."""
    if not sources:
        return {}
    return {"sources": {unit_id: source.model_dump(mode="json") for unit_id, source in sources.items()},
            "sourcesReadAt": int(time.time() * 1000)}


def start_card_sources(driver: Driver | None, database: str, view: AnswerView) -> asyncio.Task[dict[str, SourceView]] | None:
    """Reads the cards' source views on a thread while the answer message and its graph are sent."""
    if driver is None or not view.cards:
        return None

    def read() -> dict[str, SourceView]:
        try:
            return card_sources(driver, database, view)
        except Exception as exc:  # noqa: BLE001 — without them a click fetches its view (and shows any fault)
            logger.warning("source views not read with the answer: %s: %s", type(exc).__name__, str(exc)[:200])
            return {}

    return asyncio.ensure_future(asyncio.to_thread(read))


async def _arrived(sources: asyncio.Task[dict[str, SourceView]] | None) -> dict[str, SourceView]:
    if sources is None:
        return {}
    done, _ = await asyncio.wait({sources}, timeout=SOURCES_WAIT_S)
    return sources.result() if done else {}


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


async def show_answer(streamed: cl.Message | None, view: AnswerView, labelled: bool = False,
                      sources: asyncio.Task[dict[str, SourceView]] | None = None) -> cl.Message:
    """Fills the streamed message (or a new one) with the final answer; the view rides in its metadata for sharing.
    Elements are sent one after the other: Chainlit sends a message's elements concurrently, and the cards must
    come before the graph. `sources` (start_card_sources) are read meanwhile and ride with the cards."""
    message = streamed or cl.Message(content="")
    message.content = (f"{answer_label(view)}\n\n" if labelled else "") + answer_markdown(view)
    message.actions = [copy_link_action()]
    message.metadata = {**(message.metadata or {}), VIEW_METADATA_KEY: view.model_dump(mode="json")}
    await (message.update() if streamed else message.send())
    # The graph's HTML is rendered by pyvis: not on the loop.
    elements = await asyncio.to_thread(answer_elements, view, message.id)
    elements[0].props.update(source_props(await _arrived(sources)))
    sent, problems = await send_each(message.id, elements)
    message.elements = sent  # type: ignore[assignment]  # chainlit types Message.elements with an unbound TypeVar
    if problems:
        await add_notice(message, problems)
    return message
