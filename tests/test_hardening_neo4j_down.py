"""Neo4j stopped while the app serves: answers fall back to retrieval without expansion and say so, in the
envelope and in what the user sees; when Neo4j is back, expansion resumes without restarting anything.

Runs on a private Neo4j (own data dir and port), so stopping it cannot disturb the other tests.
"""
from __future__ import annotations

import asyncio
import shutil
import time
from collections import OrderedDict
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI

from core import neo4j_local
from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question_async
from core.answer.stores import open_stores
from core.app_db import make_engine
from core.chat.answering import chat_envelope
from core.chat.api_routes import install_api_routes
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.chat.limits import limited
from core.render.markdown import answer_markdown
from core.retrieval import reload as store_reload
from core.retrieval import saved_read
from core.settings import Settings
from core.stores import graph_reader
from core.stores.graph_reader import UNAVAILABLE, reader_for
from tests.app_process import app_env, running_app
from tests.hardening_support import DISCLOSURE_QUESTION, api_client, ingest, private_neo4j, write_tiny_corpus

CORPUS = "tinydown"
ADMIN = ("ops@example.org", "ops-pass-1")
__all__ = ["private_neo4j"]  # the fixture, imported for pytest
APP_RECONNECT_S = graph_reader.RECONNECT_EVERY_S  # what an app process waits; this process patches its own to 0


@pytest.fixture(scope="module")
def corpus(private_neo4j: Settings, tmp_path_factory) -> str:
    ingest(write_tiny_corpus(tmp_path_factory.mktemp("tiny")), CORPUS, private_neo4j)
    return CORPUS


@pytest.fixture(autouse=True)
def quick_reconnect(monkeypatch) -> None:
    # The graph reader waits a few seconds between reconnect attempts; the test need not.
    monkeypatch.setattr(graph_reader, "RECONNECT_EVERY_S", 0.0)


def _graph_notices(notices: list[str]) -> list[str]:
    return [n for n in notices if "graph" in n.lower()]


def _ask(settings: Settings) -> AnswerEnvelope:
    async def run() -> AnswerEnvelope:
        # Few seeds, so that whatever else the evidence holds was reached over citation edges.
        stores = limited(open_stores(settings, CORPUS, "citewalk"), k=2, max_hops=2, edge_types=["REFERENCES"])
        return await answer_question_async(DISCLOSURE_QUESTION, CORPUS, settings, stores=stores)

    return asyncio.run(run())


def _expanded(envelope: AnswerEnvelope) -> set[str]:
    return set(envelope.evidence_ids) - set(envelope.seed_ids)


@pytest.fixture()
def restart_afterwards(private_neo4j: Settings) -> Iterator[None]:
    yield
    neo4j_local.start(private_neo4j)  # whatever the test did, the next one finds Neo4j up


def test_service_degrades_and_recovers(private_neo4j: Settings, corpus: str, restart_afterwards) -> None:
    up = _ask(private_neo4j)
    assert up.error is None and up.answer.rules and not _graph_notices(up.notices)
    assert _expanded(up), "with Neo4j up the answer should use units reached over citations"

    neo4j_local.stop(private_neo4j)
    down = _ask(private_neo4j)
    assert down.error is None and down.answer.rules, "retrieval alone must still answer"
    assert _graph_notices(down.notices), down.notices
    assert not _expanded(down)
    assert {r.unit_id for r in down.answer.rules} <= set(down.evidence_ids)
    view = answer_view(None, private_neo4j.neo4j_database, down)
    assert any("graph" in line.lower() and "Note" in line for line in answer_markdown(view).splitlines())

    neo4j_local.start(private_neo4j)
    back = _ask(private_neo4j)
    assert back.error is None and not _graph_notices(back.notices) and _expanded(back)


def test_app_degrades_and_recovers_over_http(private_neo4j: Settings, corpus: str, tmp_path_factory,
                                            restart_afterwards) -> None:
    env = app_env(private_neo4j, {}, ADMIN) | {"CITEWALK_DEFAULT_CORPUS": CORPUS}
    with running_app(env, tmp_path_factory.mktemp("app-down") / "chainlit.log") as url:
        client = api_client(url, *ADMIN)
        up = client.post("/api/ask", json={"question": DISCLOSURE_QUESTION})
        assert up.status_code == 200 and not _graph_notices(up.json()["notices"])

        neo4j_local.stop(private_neo4j)
        down = client.post("/api/ask", json={"question": DISCLOSURE_QUESTION, "share": True})
        assert down.status_code == 200, down.text
        body = down.json()
        assert body["error"] is None and body["answer"]["rules"] and _graph_notices(body["notices"])
        # What the user reads (the shared page renders the same view as the chat message) names the fallback.
        page = client.get(body["permalink"])
        assert page.status_code == 200 and _graph_notices(body["notices"])[0].split(":")[0] in page.text

        neo4j_local.start(private_neo4j)
        back = client.post("/api/ask", json={"question": DISCLOSURE_QUESTION})
        assert back.status_code == 200 and not _graph_notices(back.json()["notices"])
        client.close()


def test_app_started_while_neo4j_is_down(private_neo4j: Settings, corpus: str, tmp_path_factory,
                                        restart_afterwards) -> None:
    neo4j_local.stop(private_neo4j)
    env = app_env(private_neo4j, {}, ADMIN) | {"CITEWALK_DEFAULT_CORPUS": CORPUS}
    with running_app(env, tmp_path_factory.mktemp("app-cold-down") / "chainlit.log") as url:
        client = api_client(url, *ADMIN)
        down = client.post("/api/ask", json={"question": DISCLOSURE_QUESTION})
        assert down.status_code == 200, down.text
        body = down.json()
        assert body["error"] is None and body["answer"]["rules"] and _graph_notices(body["notices"])

        neo4j_local.start(private_neo4j)
        # The app made no driver yet and retries a connect at most every RECONNECT_EVERY_S (its last failed
        # try may be moments before the server answered); the first question after that finds the graph.
        time.sleep(APP_RECONNECT_S)
        back = client.post("/api/ask", json={"question": DISCLOSURE_QUESTION}).json()
        assert not _graph_notices(back["notices"]), back["notices"]
        # Labels and headings come from the graph: stores opened during the outage must not keep lacking them.
        assert all(rule["label"] != rule["unit_id"] for rule in back["answer"]["rules"]), back["answer"]["rules"]
        client.close()


def test_stores_opened_during_an_outage_are_reloaded_when_neo4j_is_back(
        private_neo4j: Settings, corpus: str, restart_afterwards, monkeypatch) -> None:
    monkeypatch.setattr(store_reload, "_OPEN", OrderedDict())  # this process has not opened the corpus yet
    for saved in (private_neo4j.lexical_path / CORPUS).glob(f"{saved_read.SAVED_PREFIX}*"):
        shutil.rmtree(saved)  # nor has any other: a saved read would give the graph's labels without Neo4j
    neo4j_local.stop(private_neo4j)
    cold = store_reload.open_stores(private_neo4j, CORPUS)
    assert not cold.graph_info and not cold.order and not any(u.label for u in cold.units.values())

    neo4j_local.start(private_neo4j)
    _ask(private_neo4j)  # a question's expansion reconnects the graph driver
    deadline = time.monotonic() + 120
    while (warm := store_reload.open_stores(private_neo4j, CORPUS)) is cold and time.monotonic() < deadline:
        time.sleep(0.2)
    assert warm is not cold and warm.graph_info
    assert warm.order and all(u.label for u in warm.units.values())


# A question answered while Neo4j is down may take no longer than this (no connect or retry waits).
DOWN_ANSWER_S = 20.0


def _chat_and_api(settings: Settings) -> tuple[AnswerEnvelope, AnswerEnvelope, str | None, float]:
    """The chat's answer, the API's answer, the chat-start notice, and the slowest of the three, in one process."""
    app = FastAPI()
    engine = make_engine(settings)
    install_api_routes(app, engine, settings)

    async def ignore(event) -> None:
        return None

    async def run() -> tuple[AnswerEnvelope, AnswerEnvelope, str | None, float]:
        slowest = 0.0
        started = time.monotonic()
        start_notice = await asyncio.to_thread(reader_for(settings).notice)
        slowest = max(slowest, time.monotonic() - started)
        started = time.monotonic()
        # Few seeds, as in _ask, so that the rest of the chat's evidence was reached over citations.
        options = RunOptions(corpus=CORPUS, k=2, hops=2, edge_types=["REFERENCES"])
        chat = await chat_envelope(DISCLOSURE_QUESTION, options, settings, ignore)
        slowest = max(slowest, time.monotonic() - started)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api") as client:
            started = time.monotonic()
            response = await client.post("/api/ask", json={"question": DISCLOSURE_QUESTION, "corpus": CORPUS},
                                         timeout=300)
            slowest = max(slowest, time.monotonic() - started)
        await engine.dispose()
        assert response.status_code == 200, response.text
        assert chat is not None
        return chat, AnswerEnvelope.model_validate(response.json()), start_notice, slowest

    return asyncio.run(run())


def test_chat_and_api_share_one_unavailable_behaviour(private_neo4j: Settings, corpus: str,
                                                      restart_afterwards) -> None:
    chat, api, start_notice, _ = _chat_and_api(private_neo4j)  # opens the process's one driver
    assert start_notice is None and not _graph_notices(chat.notices) and not _graph_notices(api.notices)

    neo4j_local.stop(private_neo4j)
    chat, api, start_notice, slowest = _chat_and_api(private_neo4j)
    assert slowest < DOWN_ANSWER_S, f"a step took {slowest:.1f} s with Neo4j down"
    assert chat.error is None and chat.answer.rules and api.error is None and api.answer.rules
    # One wording, once, wherever the user meets the fallback: chat start, the chat's answer, the API's.
    assert start_notice == UNAVAILABLE
    assert _graph_notices(chat.notices) == [UNAVAILABLE] and _graph_notices(api.notices) == [UNAVAILABLE]

    neo4j_local.start(private_neo4j)
    chat, api, start_notice, _ = _chat_and_api(private_neo4j)
    assert start_notice is None and not _graph_notices(chat.notices) and not _graph_notices(api.notices)
    assert _expanded(chat), "expansion is back without a restart"
