"""Driving the chat page in Chromium: ask, wait for the answer, share it, open its permalink (tests and bench)."""
from __future__ import annotations

from urllib.parse import urlsplit

from tests.test_browser_chat import CHROMIUM, LAUNCH_ARGS, _graph_nodes, _sign_in

__all__ = ["CHROMIUM", "LAUNCH_ARGS", "CARDS", "GRAPHS", "NOTICE", "ask", "graph_nodes", "on_thread_page", "open_link",
           "share_last_answer", "sign_in", "submit", "HeldRequests", "THREAD_LIST", "THREAD_PAGE_TIMEOUT_MS"]

ANSWER_TIMEOUT_MS = 240_000
CARDS = '[data-testid="answer-cards"]'
GRAPHS = "iframe.citation-graph-frame"
NOTICE = "could not be shown"
SHARE_INPUT = '[data-testid="share-link"] input.share-url'
USER_MESSAGES = '[data-step-type="user_message"]'
# Chainlit's move to the thread's own page waits on a thread-list request to the app, slow only under load.
THREAD_PAGE_TIMEOUT_MS = 60_000
sign_in, graph_nodes = _sign_in, _graph_nodes


# The sidebar's thread list, which Chainlit re-reads after a chat's first question before it moves the chat to
# /thread/<id> (see `submit`).
THREAD_LIST = "**/project/threads"


class HeldRequests:
    """The page's requests to `pattern` wait until `release()`; later ones go at once."""

    def __init__(self, page, pattern: str) -> None:
        self.routes: list = []
        self.holding = True
        page.route(pattern, self._route)

    def _route(self, route) -> None:
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()


def _more_than(page, selector: str, count: int, timeout_ms: float) -> None:
    page.wait_for_function("s => document.querySelectorAll(s.sel).length > s.n", arg={"sel": selector, "n": count},
                           timeout=timeout_ms)


def on_thread_page(url: str) -> bool:
    return urlsplit(url).path.rstrip("/").rsplit("/", 2)[-2:-1] == ["thread"]


def submit(page, question: str) -> None:
    """Types a question and sends it; a later question only once Chainlit has moved the chat to its thread's page.

    After a signed-in chat's first question, Chainlit's frontend (2.x, `ThreadHistory.tsx`) re-reads the sidebar's
    thread list and then navigates from / to /thread/<id>. That route mounts a new composer: a question typed before
    the move is wiped and #chat-submit stays disabled (its input is empty), though the run has ended.
    """
    if page.locator(USER_MESSAGES).count() and not on_thread_page(page.url):
        page.wait_for_url(on_thread_page, timeout=THREAD_PAGE_TIMEOUT_MS)
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
    try:
        _more_than(page, SHARE_INPUT, before, 30_000)
    except Exception as exc:  # noqa: BLE001 — Playwright's timeout: said with what the page showed instead
        # Seen once in CI (stop 42, test_workers) with nothing in the worker's log: what the chat showed (Chainlit's
        # toast when the action's request fails, the last message) is what tells a lost click from a failed action.
        toasts = page.locator("[data-sonner-toast]").all_inner_texts()
        messages = page.locator('[data-step-type="assistant_message"]')
        last = messages.last.inner_text()[:300] if messages.count() else ""
        raise AssertionError(f"no share link after Copy link: toasts {toasts}, last message {last!r}, "
                             f"at {page.url}") from exc
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
