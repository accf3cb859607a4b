"""The browser tests' way of asking: a question after the first waits for Chainlit's move to the thread's page."""
from __future__ import annotations

from collections.abc import Callable

from tests.chat_page import USER_MESSAGES, on_thread_page, submit


class FakePage:
    """Records what `submit` does, in order; `moves_to` is where Chainlit navigates once waited for."""

    def __init__(self, url: str, asked: int, moves_to: str) -> None:
        self.url, self.asked, self.moves_to = url, asked, moves_to
        self.calls: list[str] = []

    def wait_for_url(self, matches: Callable[[str], bool], timeout: float) -> None:
        assert matches(self.moves_to)
        self.calls.append(f"wait {self.moves_to}")
        self.url = self.moves_to

    def locator(self, selector: str) -> FakePage.Locator:
        return FakePage.Locator(self, selector)

    class Locator:
        def __init__(self, page: FakePage, selector: str) -> None:
            self.page, self.selector = page, selector

        def count(self) -> int:
            assert self.selector == USER_MESSAGES
            return self.page.asked

        def fill(self, text: str) -> None:
            self.page.calls.append(f"fill {self.selector} on {self.page.url}")

        def click(self) -> None:
            self.page.calls.append(f"click {self.selector} on {self.page.url}")


THREAD = "http://127.0.0.1:8000/thread/4626caf7-2f53-40f2-b804-f954d254d71f"


def test_a_later_question_is_typed_on_the_threads_page():
    # Typed on / after the first question, Chainlit's move to /thread/<id> would mount a new, empty composer.
    page = FakePage("http://127.0.0.1:8000/", asked=1, moves_to=THREAD)
    submit(page, "second question")
    assert page.calls == [f"wait {THREAD}", f"fill #chat-input on {THREAD}", f"click #chat-submit on {THREAD}"]


def test_the_first_question_and_a_chat_already_on_its_page_do_not_wait():
    for url, asked in (("http://127.0.0.1:8000/", 0), (THREAD, 3)):
        page = FakePage(url, asked=asked, moves_to=THREAD)
        submit(page, "a question")
        assert page.calls == [f"fill #chat-input on {url}", f"click #chat-submit on {url}"]


def test_thread_page_urls():
    assert on_thread_page(THREAD) and on_thread_page(THREAD + "/") and on_thread_page("http://h/base/thread/x?y=1")
    assert not any(on_thread_page(u) for u in ("http://h/", "http://h/thread/", "http://h/login", "http://h/answers/x"))
