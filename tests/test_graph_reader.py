"""One Neo4j driver per process: a question through retrieval, the answer tools, the chat's view and the API
opens exactly one driver, the one the process's reader holds."""
from __future__ import annotations

import asyncio
from collections import OrderedDict

import httpx
import pytest
from fastapi import FastAPI
from neo4j import GraphDatabase

from core.answer import stores as answer_stores
from core.answer.service import answer_question_async
from core.app_db import create_schema, make_engine
from core.chat.answering import chat_envelope
from core.chat.api_routes import install_api_routes
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.retrieval import reload as store_reload
from core.stores import graph_reader
from core.stores.graph_reader import reader_for

QUESTION = "Can a covered entity disclose psychotherapy notes to a business associate without an authorization?"


@pytest.fixture()
def fresh_process(monkeypatch) -> list[object]:
    """As if the process had just started (no reader, stores or retrievers yet); returns the drivers made."""
    monkeypatch.setattr(graph_reader, "_READERS", {})
    monkeypatch.setattr(store_reload, "_OPEN", OrderedDict())
    monkeypatch.setattr(answer_stores, "_RETRIEVERS", {})
    made: list[object] = []
    real = GraphDatabase.driver

    def counting(*args, **kwargs):
        driver = real(*args, **kwargs)
        made.append(driver)
        return driver

    monkeypatch.setattr(GraphDatabase, "driver", counting)
    return made


def test_one_driver_per_process(fresh_process, test_settings, hipaa_corpus) -> None:
    app = FastAPI()
    engine = make_engine(test_settings)
    install_api_routes(app, engine, test_settings)

    async def run() -> None:
        await create_schema(engine)
        envelope = await answer_question_async(QUESTION, hipaa_corpus, test_settings)  # retrieval + answer tools
        assert envelope.error is None and set(envelope.evidence_ids) - set(envelope.seed_ids), "expansion ran"
        view = answer_view(reader_for(test_settings).driver_or_none(), test_settings.neo4j_database, envelope)
        assert view.nodes, "the chat's view read the graph"
        chat = await chat_envelope(QUESTION, RunOptions(corpus=hipaa_corpus), test_settings, _ignore)
        assert chat is not None and chat.error is None
        assert reader_for(test_settings).notice() is None  # the chat-start check
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api") as client:
            response = await client.post("/api/ask", json={"question": QUESTION, "corpus": hipaa_corpus,
                                                           "share": True, "export": True}, timeout=300)
        assert response.status_code == 200 and response.json()["permalink"], response.text
        body = response.json()  # the audit-file export of the same answer, as the chat's Export builds it
        assert [r["unit_id"] for r in body["export"]["rules"]] == [r["unit_id"] for r in body["answer"]["rules"]]
        assert body["export"]["answer_id"] == body["answer_id"] in body["export_markdown"].replace("\\", "")
        await engine.dispose()

    asyncio.run(run())
    assert len(fresh_process) == 1, f"{len(fresh_process)} Neo4j drivers opened by one process"
    assert reader_for(test_settings).driver() is fresh_process[0]


async def _ignore(event) -> None:
    return None
