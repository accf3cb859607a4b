"""Driving the chat page in Chromium: ask, wait for the answer, share it, open its permalink (tests and bench)."""
from __future__ import annotations

from tests.test_browser_chat import CHROMIUM, LAUNCH_ARGS, _graph_nodes, _sign_in

__all__ = ["CHROMIUM", "LAUNCH_ARGS", "CARDS", "GRAPHS", "NOTICE", "ask", "graph_nodes", "open_link",
           "share_last_answer", "sign_in", "submit"]

ANSWER_TIMEOUT_MS = 240_000
CARDS = '[data-testid="answer-cards"]'
GRAPHS = "iframe.citation-graph-frame"
NOTICE = "could not be shown"
SHARE_INPUT = '[data-testid="share-link"] input.share-url'
sign_in, graph_nodes = _sign_in, _graph_nodes


def _more_than(page, selector: str, count: int, timeout_ms: float) -> None:
    page.wait_for_function("s => document.querySelectorAll(s.sel).length > s.n", arg={"sel": selector, "n": count},
                           timeout=timeout_ms)


def submit(page, question: str) -> None:
    page.locator("#chat-input").fill(question)
    page.locator("#chat-submit").click()


def ask(page, question: str, finished: str = GRAPHS) -> None:
    """Types a question and waits until one more `finished` element than before is on the page."""
    before = page.locator(finished).count()
    submit(page, question)
    _more_than(page, finished, before, ANSWER_TIMEOUT_MS)


def share_last_answer(page) -> str:
    before = page.locator(SHARE_INPUT).count()
    page.get_by_role("button", name="Copy link").last.click()
    _more_than(page, SHARE_INPUT, before, 30_000)
    return page.locator(SHARE_INPUT).last.input_value()


def open_link(browser, url: str, link: str, account: tuple[str, str]) -> list[str]:
    """The rule labels of a permalink as a signed-in colleague sees them (its graph must draw too)."""
    page = browser.new_context().new_page()
    try:
        sign_in(page, url, account)
        page.goto(link)
        labels = page.locator(".rule-card .rule-label").all_inner_texts()
        assert graph_nodes(page, ".graph iframe") >= 1, f"the permalink {link} draws no graph"
        return labels
    finally:
        page.context.close()
