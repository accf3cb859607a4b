"""Two chat workers started from one clone against the same stores (data dir, Neo4j, app database): stopping one
with SIGTERM leaves the other's answers whole in a real browser (rule cards, graph, permalink), and an element that
cannot be sent is named in the answer, whose permalink still opens."""
from __future__ import annotations

import re
import shutil
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from core.chat.starters import starters_for
from core.serve import worker_root
from core.settings import Settings
from tests.app_process import app_env, running_app
from tests.chat_page import (
    ANSWER_TIMEOUT_MS,
    CARDS,
    CHROMIUM,
    GRAPHS,
    LAUNCH_ARGS,
    NOTICE,
    ask,
    graph_nodes,
    open_link,
    share_last_answer,
    sign_in,
    submit,
)

ADMIN = ("worker-officer@example.org", "worker-officer-1")
READER = ("worker-reader@example.org", "worker-reader-1")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed (apt-get install chromium)")


def _root(settings: Settings, url: str) -> Path:
    port = urlsplit(url).port
    assert port is not None, url
    return worker_root(settings, port)


def test_stopping_one_worker_leaves_the_other_whole(test_settings: Settings, neo4j_driver, hipaa_corpus,
                                                    tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    env = app_env(test_settings, {READER[0]: READER[1]}, ADMIN)
    questions = [s.question for s in starters_for("hipaa")]
    with ExitStack() as stack:
        first = ExitStack()
        stack.callback(first.close)
        # One after the other, as a rolling deploy would: the second finds the schema and accounts made.
        url_a = first.enter_context(running_app(env, tmp_path / "worker-a.log", timeout_s=300))
        url_b = stack.enter_context(running_app(env, tmp_path / "worker-b.log", timeout_s=300))
        files_a, files_b = _root(test_settings, url_a) / ".files", _root(test_settings, url_b) / ".files"
        assert files_a != files_b and files_a.is_dir() and files_b.is_dir()
        assert files_b.is_relative_to(test_settings.data_dir.resolve())

        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        stack.callback(browser.close)
        page = browser.new_context(viewport={"width": 1360, "height": 1400}).new_page()
        sign_in(page, url_b, ADMIN)
        page.locator('[id^="starter-"]').first.wait_for(timeout=60_000)
        ask(page, questions[0], GRAPHS)

        first.close()  # SIGTERM; its shutdown deletes its own session-files folder, as Chainlit does
        assert not files_a.exists(), "worker A was not stopped by SIGTERM (its shutdown clean-up did not run)"
        assert files_b.is_dir()

        ask(page, questions[1], GRAPHS)
        answer = page.locator(CARDS).last
        labels = answer.locator(".rule-card").evaluate_all("cards => cards.map(c => c.dataset.label)")
        assert labels and page.locator(CARDS).count() == 2 and page.locator(GRAPHS).count() == 2
        assert graph_nodes(page) >= 1  # a one-rule answer's path view is that rule alone
        assert page.get_by_text(NOTICE).count() == 0
        link = share_last_answer(page)
        assert link.startswith(f"{url_b}/answers/")
        assert open_link(browser, url_b, link, READER) == labels

        # The old fault, reproduced on purpose: the folder vanishes under a running worker. The answer still
        # comes, says what is missing, and its permalink (from the stored answer) opens with the cards.
        shutil.rmtree(files_b)
        submit(page, questions[2])
        page.get_by_text(f"the rule cards {NOTICE}").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        assert page.locator(CARDS).count() == 2
        assert page.get_by_text("FileNotFoundError").count() >= 1
        # The link box is an element too: the link then comes as text in the reply, with the same notice.
        page.get_by_role("button", name="Copy link").last.click()
        page.get_by_text(f"the link box {NOTICE}").first.wait_for(timeout=30_000)
        path = re.search(r"/answers/[A-Za-z0-9_-]{32}", page.get_by_text(f"the link box {NOTICE}").last.inner_text())
        assert path, "the reply to Copy link does not give the link as text"
        shared = open_link(browser, url_b, f"{url_b}{path.group(0)}", READER)
        assert shared, "the permalink of the answer whose cards could not be shown has no rule cards"
    log = (tmp_path / "worker-b.log").read_text()
    assert log.count("could not send element") >= 1  # logged with its traceback, not swallowed
