"""What the user gets is what is measured: the chat's path (panel caps, streamed events) and `POST /api/ask` give
the same answer to the same question on the real stores, with the corpus signals on in both."""
from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI

from core.answer.deps import AnswerDeps
from core.answer.events import AnswerEvent, StepStarted
from core.answer.models import AnswerEnvelope
from core.answer.signals import signals_for
from core.app_db import make_engine
from core.chat.answering import chat_envelope, chat_stores
from core.chat.api_routes import install_api_routes
from core.chat.controls import RunOptions
from core.chat.starters import starters_for
from core.chat.step_order import COMPOSE, OpenStep, StepOrder

# The starters and two questions the chat once answered badly: signals decide between their candidates.
QUESTIONS = [s.question for s in starters_for("hipaa")] + [
    "What must a business associate contract contain?",
    "Can a covered entity disclose psychotherapy notes to a business associate without an authorization?",
]


def _what_the_user_reads(envelope: AnswerEnvelope) -> dict:
    answer = envelope.answer
    return {
        "short_answer": answer.answer,
        "cited": [r.unit_id for r in answer.rules],
        "claims": [[(c.text, c.paragraph, c.span) for c in r.claims] for r in answer.rules],
        "chain": [(e.source, e.type, e.target) for e in answer.chain],
        "caveats": answer.caveats,
        "mode": envelope.mode,
        "seeds": envelope.seed_ids,
    }


@pytest.fixture(scope="module")
def both_paths(test_settings, neo4j_driver, hipaa_corpus) -> list[tuple[AnswerEnvelope | None, dict, list[AnswerEvent]]]:
    """(chat envelope or None, API response body, chat events) per question: the two must not differ."""
    app = FastAPI()
    engine = make_engine(test_settings)
    install_api_routes(app, engine, test_settings)
    options = RunOptions(corpus=hipaa_corpus)

    async def run() -> list[tuple[AnswerEnvelope | None, dict, list[AnswerEvent]]]:
        out = []
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api") as client:
            for question in QUESTIONS:
                events: list[AnswerEvent] = []

                async def collect(event: AnswerEvent, events: list[AnswerEvent] = events) -> None:
                    events.append(event)

                chat = await chat_envelope(question, options, test_settings, collect)
                response = await client.post("/api/ask", json={"question": question, "corpus": hipaa_corpus},
                                             timeout=300)
                assert response.status_code == 200, response.text
                out.append((chat, response.json(), events))
        await engine.dispose()
        return out

    return asyncio.run(run())


def test_chat_and_api_give_the_same_answer(both_paths):
    for chat, body, _ in both_paths:
        api = AnswerEnvelope.model_validate(body)
        assert chat is not None and chat.error is None and chat.answer.rules, chat.question
        assert _what_the_user_reads(chat) == _what_the_user_reads(api), chat.question


def test_the_chat_reads_the_corpus_signals(test_settings, hipaa_corpus):
    stores = chat_stores(test_settings, RunOptions(corpus=hipaa_corpus))
    corpus_stores = stores.retriever.corpus_stores(hipaa_corpus)
    assert corpus_stores is not None
    deps = AnswerDeps(test_settings, hipaa_corpus, QUESTIONS[0], stores.retriever, stores.graph)
    signals = signals_for(deps)
    assert signals is not None and signals.stores is corpus_stores


def test_chat_steps_open_in_the_order_they_run(both_paths):
    for chat, _, events in both_paths:
        order = StepOrder()
        opened = [a.step for e in events for a in order.feed(e) if isinstance(a, OpenStep)]
        ran = list(dict.fromkeys(e.step for e in events if isinstance(e, StepStarted) and e.step != COMPOSE))
        # Tools open in the order they ran (the extractive answerer reads a lead-in's items last); composing closes.
        assert opened[:2] == ["search", "expand"] and opened == [*ran, COMPOSE], (chat.question, opened)
