"""The running app (chainlit run app.py) under hostile use: regulation text full of markup in the chat and on the
share page (no script runs, the text shows literally), and the JSON API's auth and input checks."""
from __future__ import annotations

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
    env = app_env(test_settings, {READER[0]: READER[1]}, ADMIN) | {"CITEWALK_DEFAULT_CORPUS": CORPUS}
    with running_app(env, tmp_path_factory.mktemp("app-xss") / "chainlit.log") as url:
        yield url


def test_api_needs_a_session(app_url: str) -> None:
    body = {"question": QUESTION}
    assert httpx.post(f"{app_url}/api/ask", json=body).status_code == 401
    assert httpx.post(f"{app_url}/api/ask", json=body, headers={"Authorization": "Bearer forged.jwt.x"}).status_code == 401
    assert httpx.post(f"{app_url}/api/ask", json=body, cookies={"access_token": "forged"}).status_code == 401


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
            assert client.post("/api/ask", json={"question": QUESTION, "corpus": corpus}).status_code == 404
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
