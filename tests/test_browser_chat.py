"""The chat in a real browser (Debian's Chromium via Playwright): sign in, ask a starter, read the answer and
its graph, share it, open the link as a colleague; no request may leave the app's origin."""
from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from core.chat.starters import starters_for
from core.settings import REPO_ROOT, Settings
from tests.app_process import app_env, running_app
from tests.render_support import HOSTILE, hostile_view

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
RESULTS = REPO_ROOT / "bench" / "results"
SCREENS = RESULTS / "screens"
ADMIN = ("officer@example.org", "officer-pass-1")
READER = ("reader@example.org", "reader-pass-1")
ANSWER_TIMEOUT_MS = 240_000

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def app_url(test_settings: Settings, neo4j_driver, hipaa_corpus, tmp_path_factory) -> Iterator[str]:
    env = app_env(test_settings, {READER[0]: READER[1]}, ADMIN)
    with running_app(env, tmp_path_factory.mktemp("app") / "chainlit.log") as url:
        yield url


class OriginGuard:
    """Records every request a page makes that is not to the app's own origin."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.outside: list[str] = []

    def __call__(self, request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob", "about"):
            return
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            self.outside.append(request.url)


def _sign_in(page, url: str, account: tuple[str, str]) -> None:
    page.goto(f"{url}/login")
    page.fill("#email", account[0])
    page.fill("#password", account[1])
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login" not in u, timeout=30_000)


def _graph_nodes(frame_locator_owner, selector: str = "iframe.citation-graph-frame, .graph iframe") -> int:
    frame = frame_locator_owner.frame_locator(selector).first
    body = frame.locator("body[data-node-count]")
    body.wait_for(timeout=60_000)
    frame.locator("#mynetwork canvas").wait_for(timeout=60_000)
    return int(body.get_attribute("data-node-count"))


def _unit_labels_exist(driver, database: str, labels: list[str]) -> bool:
    records, _, _ = driver.execute_query(
        "UNWIND $labels AS l MATCH (u:Unit {label: l}) RETURN count(DISTINCT l) AS n", labels=labels, database_=database
    )
    return records[0]["n"] == len(set(labels))


def _hostile_link(settings: Settings) -> str:
    """A permalink whose snapshot is all markup, written straight into the app's database."""
    from core.app_db import make_engine
    from core.sharing import create_link

    async def make() -> str:
        engine = make_engine(settings)
        try:
            return await create_link(engine, ADMIN[0], "hostile-message", hostile_view())
        finally:
            await engine.dispose()

    return asyncio.run(make())


def _ask_and_time(page, question: str) -> tuple[float, float, float]:
    """Type a question; seconds until the chat echoes it, its first step shows, and its cards and graph show."""
    counts = "s => document.querySelectorAll(s.sel).length > s.n"
    echoes_before = page.locator('[data-step-type="user_message"]').count()
    steps_before = page.locator('[data-step-type="tool"]').count()
    frames_before = page.locator("iframe.citation-graph-frame").count()
    page.locator("#chat-input").fill(question)
    sent = time.perf_counter()
    page.locator("#chat-submit").click()
    page.wait_for_function(counts, arg={"sel": '[data-step-type="user_message"]', "n": echoes_before}, timeout=ANSWER_TIMEOUT_MS)
    echoed = time.perf_counter() - sent
    page.wait_for_function(counts, arg={"sel": '[data-step-type="tool"]', "n": steps_before}, timeout=ANSWER_TIMEOUT_MS)
    first_step = time.perf_counter() - sent
    page.wait_for_function(counts, arg={"sel": "iframe.citation-graph-frame", "n": frames_before}, timeout=ANSWER_TIMEOUT_MS)
    return first_step, time.perf_counter() - sent, echoed


def test_chat_answer_graph_and_shared_link(app_url: str, test_settings: Settings, neo4j_driver):
    from playwright.sync_api import sync_playwright

    SCREENS.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    hostile_token = _hostile_link(test_settings)  # before Playwright: its sync API owns an event loop
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        guard = OriginGuard(app_url)
        officer = browser.new_context(viewport={"width": 1360, "height": 1500})
        officer.on("request", guard)
        page = officer.new_page()
        _sign_in(page, app_url, ADMIN)

        starter = page.locator('[id^="starter-"]').first
        starter.wait_for(timeout=60_000)
        question = next(s.question for s in starters_for("hipaa") if s.label == starter.inner_text().strip())
        clicked = time.perf_counter()
        starter.click()
        page.locator('[data-step-type="tool"]').first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        timings["first_visible_step_s"] = round(time.perf_counter() - clicked, 2)
        cards = page.locator('[data-testid="answer-cards"] .rule-card')
        cards.first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.locator("iframe.citation-graph-frame").first.wait_for(timeout=60_000)
        timings["complete_answer_s"] = round(time.perf_counter() - clicked, 2)

        labels = [cards.nth(i).get_attribute("data-label") for i in range(cards.count())]
        assert labels and _unit_labels_exist(neo4j_driver, test_settings.neo4j_database, labels)
        assert page.locator('[data-testid="chain-line"]').first.inner_text().count("→") >= 1
        assert page.get_by_text("Extractive answer").first.is_visible() or page.get_by_text("Composed by").first.is_visible()
        chat_nodes = _graph_nodes(page)
        assert chat_nodes >= 2
        page.wait_for_timeout(1500)  # let the graph's physics settle for the screenshot
        page.screenshot(path=str(SCREENS / "chat.png"), full_page=True)

        # Warm timings: further questions typed into the same chat, as an officer would ask them.
        warm = [_ask_and_time(page, s.question) for s in starters_for("hipaa") if s.question != question][:3]
        timings["warm_first_step_s"] = [round(w[0], 2) for w in warm]
        timings["warm_complete_answer_s"] = [round(w[1], 2) for w in warm]
        timings["warm_question_echoed_s"] = [round(w[2], 2) for w in warm]
        timings["warm_first_step_p50_s"] = round(statistics.median(w[0] for w in warm), 2)
        timings["warm_complete_answer_p50_s"] = round(statistics.median(w[1] for w in warm), 2)

        page.get_by_role("button", name="Copy link").first.click()
        link_input = page.locator('[data-testid="share-link"] input.share-url')
        link_input.wait_for(timeout=30_000)
        link = link_input.input_value()
        assert link.startswith(f"{app_url}/answers/")

        colleague = browser.new_context(viewport={"width": 1200, "height": 1400})
        colleague.on("request", guard)
        shared = colleague.new_page()
        dialogs: list[str] = []
        shared.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        _sign_in(shared, app_url, READER)
        shared.goto(link)
        assert shared.locator("h1#question").inner_text().strip() == question
        shared_labels = shared.locator(".rule-card .rule-label").all_inner_texts()
        assert shared_labels == labels
        assert _graph_nodes(shared, ".graph iframe") == chat_nodes
        shared.wait_for_timeout(1500)
        shared.screenshot(path=str(SCREENS / "shared.png"), full_page=True)

        # Regulation text full of markup stays text on the shared page, and no script of its runs.
        shared.goto(f"{app_url}/answers/{hostile_token}")
        assert HOSTILE.split(" ")[0] in shared.locator(".short-answer").inner_text()
        assert _graph_nodes(shared, ".graph iframe") == 2
        shared.locator(".rule-card details summary").click()
        shared.screenshot(path=str(SCREENS / "shared-hostile.png"), full_page=True)
        assert dialogs == []
        assert shared.locator(".answer img, .rule-card img, .rule-card a").count() == 0

        signed_out = browser.new_context()
        signed_out.on("request", guard)
        assert signed_out.new_page().goto(link).status == 401
        browser.close()

    assert guard.outside == [], f"requests outside the app's origin: {guard.outside[:5]}"
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "browser_timings.json").write_text(json.dumps({
        "question": question, **timings,
        "note": "first_* / complete_*: starter click → first step visible / → answer cards and graph visible, first "
                "question of the session; warm_*: three further questions typed into the chat; extractive mode",
    }, indent=2) + "\n")
