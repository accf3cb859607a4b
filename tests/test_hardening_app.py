"""The running app (chainlit run app.py) under hostile use: regulation text full of markup in the chat and on the
share page (no script runs, the text shows literally), and the JSON API's auth and input checks."""
from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import httpx
import pytest

from core.settings import Settings
from tests.app_process import app_env, running_app
from tests.hardening_support import api_client, cited_ids, ingest, write_tiny_corpus
from tests.test_browser_chat import CHROMIUM, LAUNCH_ARGS, OriginGuard, _graph_nodes, _sign_in, guarded_page

CORPUS = "xsstest"
ADMIN = ("sec@example.org", "sec-pass-1")
READER = ("peer@example.org", "peer-pass-1")
SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'
LINK = "[link](javascript:alert(1))"
# In a fence right under Article 2(2), so the Markdown reader keeps the markup as that clause's text instead of
# stripping it (as it does in prose).
HOSTILE = f"\n```\n{SCRIPT} {IMG} {LINK}\n```\n"
QUESTION = "When does disclosure for research need ethics approval?"


@pytest.fixture(scope="module")
def app_url(test_settings: Settings, neo4j_driver, tmp_path_factory) -> Iterator[str]:
    ingest(write_tiny_corpus(tmp_path_factory.mktemp("xss"), HOSTILE), CORPUS, test_settings)
    env = app_env(test_settings, {READER[0]: READER[1]}, ADMIN) | {"CITEWALK_DEFAULT_CORPUS": CORPUS,
                                                                   "CITEWALK_LOGIN_FAILURES_BURST": "3"}
    with running_app(env, tmp_path_factory.mktemp("app-xss") / "chainlit.log") as url:
        yield url


def test_api_needs_a_session(app_url: str) -> None:
    body = {"question": QUESTION}
    assert httpx.post(f"{app_url}/api/ask", json=body).status_code == 401
    assert httpx.post(f"{app_url}/api/ask", json=body, headers={"Authorization": "Bearer forged.jwt.x"}).status_code == 401
    assert httpx.post(f"{app_url}/api/ask", json=body, cookies={"access_token": "forged"}).status_code == 401


def test_guessing_a_password_is_rate_limited(app_url: str) -> None:
    """The app's /login is the limited one (ahead of Chainlit's): an account's failed sign-ins run out."""
    guesses = [httpx.post(f"{app_url}/login", data={"username": "guessed@example.org", "password": f"guess-{i}"})
               for i in range(4)]
    assert [g.status_code for g in guesses] == [401, 401, 401, 429]
    assert int(guesses[-1].headers["Retry-After"]) >= 1 and "failed sign-ins" in guesses[-1].json()["detail"]
    assert httpx.post(f"{app_url}/login", data={"username": READER[0], "password": READER[1]}).status_code == 200


def test_a_crafted_corpus_in_the_chat_settings_is_refused(app_url: str) -> None:
    """The settings panel's values arrive as a websocket message, which a client can fill with any corpus name: the
    chat names the unknown corpus and the corpora there are, instead of taking it."""
    import socketio  # Chainlit's own dependency; only this test speaks its websocket protocol

    signed = api_client(app_url, *ADMIN)
    token = signed.cookies["access_token"]
    signed.close()
    said: list[str] = []

    async def crafted() -> None:
        client = socketio.AsyncClient()
        started, told = asyncio.Event(), asyncio.Event()

        @client.on("chat_settings")
        async def panel(_: object) -> None:  # on_chat_start has sent the panel: the session is ready
            started.set()

        @client.on("new_message")
        async def message(step: dict) -> None:
            said.append(str(step.get("output", "")))
            if "Unknown corpus" in said[-1]:
                told.set()

        await client.connect(app_url, socketio_path="/ws/socket.io", transports=["websocket"],
                             headers={"Cookie": f"access_token={token}"},
                             auth={"sessionId": str(uuid.uuid4()), "clientType": "webapp"})
        try:
            await client.emit("connection_successful")
            await asyncio.wait_for(started.wait(), timeout=60)
            await client.emit("chat_settings_change", {"corpus": "no-such-corpus", "k": 5})
            await asyncio.wait_for(told.wait(), timeout=60)
        finally:
            await client.disconnect()

    asyncio.run(crafted())
    # The chat escapes the typed name's Markdown ("no\\-such\\-corpus"): what the user typed is never markup.
    refusal = next(text for text in said if "Unknown corpus" in text).replace("\\", "")
    assert "'no-such-corpus'" in refusal and CORPUS in refusal and f"Still using {CORPUS}" in refusal


def test_api_inputs(app_url: str) -> None:
    client = api_client(app_url, *ADMIN)
    try:
        jwt = client.cookies.get("access_token")
        bearer = httpx.post(f"{app_url}/api/ask", json={"question": QUESTION}, headers={"Authorization": f"Bearer {jwt}"},
                            timeout=300)
        assert bearer.status_code == 200 and bearer.json()["corpus"] == CORPUS
        answer = bearer.json()
        assert answer["answer"]["rules"] and cited_ids(answer) <= set(answer["evidence_ids"])
        for question in ("", "   ", "x" * 100_000, "\x00\x01\x02" * 100, "?!?!"):
            refused = client.post("/api/ask", json={"question": question})
            assert refused.status_code == 200 and refused.json()["error"] and not refused.json()["answer"]["rules"]
        assert client.post("/api/ask", json={"question": "x" * 250_000}).status_code == 422
        assert client.post("/api/ask", content=b"\xff\xfe not json", headers={"content-type": "application/json"}
                           ).status_code in (400, 422)
        for corpus in ("x' }) DETACH DELETE n //", "../../etc", "nope"):
            unknown = client.post("/api/ask", json={"question": QUESTION, "corpus": corpus})
            assert unknown.status_code == 404 and unknown.json()["detail"].startswith("corpus: unknown corpus")
            assert CORPUS in unknown.json()["detail"]
        assert client.post("/api/ask", json={"question": QUESTION, "method": "bm25; DROP"}).status_code == 422
    finally:
        client.close()


def test_a_corpus_ingested_while_the_app_runs_is_answered_by_it(app_url: str, test_settings: Settings,
                                                                 tmp_path) -> None:
    """The worker opens it on a background thread on its first question and answers it itself."""
    ingest(write_tiny_corpus(tmp_path / "late"), "latetest", test_settings)
    client = api_client(app_url, *ADMIN)
    try:
        response = client.post("/api/ask", json={"question": QUESTION, "corpus": "latetest"}, timeout=300)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer["corpus"] == "latetest" and not answer["error"] and answer["answer"]["rules"]
        assert all(uid.startswith("latetest/") for uid in cited_ids(answer)), cited_ids(answer)
    finally:
        client.close()


def _no_script_ran(page) -> None:
    for frame in page.frames:  # the page and its graph iframes
        assert frame.evaluate("typeof window.__xss") == "undefined", frame.url


def test_markup_in_regulation_text_stays_text(app_url: str) -> None:
    from playwright.sync_api import Dialog, sync_playwright

    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        guard = OriginGuard(app_url)
        page = guarded_page(browser, guard, viewport={"width": 1280, "height": 1400})
        page.on("dialog", dismiss)
        _sign_in(page, app_url, ADMIN)
        composer = page.locator("#chat-input")
        composer.wait_for(timeout=60_000)
        composer.click()
        page.keyboard.type(QUESTION)  # typed, not filled: the composer is a contenteditable React watches for input
        page.locator("#chat-submit").click()
        page.locator('[data-testid="answer-cards"] .rule-card').first.wait_for(timeout=240_000)
        assert _graph_nodes(page) >= 1
        page.wait_for_timeout(1000)
        _no_script_ran(page)

        page.get_by_role("button", name="Copy link").first.click()
        link = page.locator('[data-testid="share-link"] input.share-url')
        link.wait_for(timeout=30_000)
        shared = page.context.new_page()  # same signed-in session
        shared.on("dialog", dismiss)
        shared.goto(link.input_value())
        assert _graph_nodes(shared, ".graph iframe") >= 1
        for details in shared.locator(".rule-card details summary").all():
            details.click()
        text = shared.locator("body").inner_text()
        assert SCRIPT in text and LINK in text and "onerror" in text, text[:2000]
        assert shared.locator('a[href^="javascript:"], img[src="x"], .rule-card script').count() == 0
        shared.wait_for_timeout(1000)
        _no_script_ran(shared)
        browser.close()
    assert dialogs == [] and guard.outside == []
