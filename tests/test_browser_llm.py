"""The chat with an LLM configured (a scripted OpenAI-compatible server): the extractive answer shows at once,
labelled; the LLM's answer arrives beside it, labelled; an LLM failure leaves the extractive answer with a notice,
and the chat takes the next question."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.chat.starters import starters_for
from core.settings import Settings
from tests.app_process import app_env, running_app
from tests.chat_page import THREAD_LIST, HeldRequests, on_thread_page, submit
from tests.support.openai_stub import OpenAIStub, Reply, tool
from tests.test_browser_chat import ADMIN, ANSWER_TIMEOUT_MS, CHROMIUM, LAUNCH_ARGS, SCREENS, _sign_in

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed (apt-get install chromium)")

LLM_TEXT = "Scripted model answer, composed after the quoted provisions."
LLM_ANSWER = (tool("search_provisions", {"query": "authorization psychotherapy notes"}),
              tool("final_result", {"answer": LLM_TEXT, "rules": [], "chain": [], "caveats": ["scripted model"]}))


@pytest.fixture(scope="module")
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub(Reply(status=500)) as server:
        yield server


@pytest.fixture(scope="module")
def llm_app(stub: OpenAIStub, test_settings: Settings, neo4j_driver, hipaa_corpus, tmp_path_factory) -> Iterator[str]:
    env = app_env(test_settings, {}, ADMIN) | {
        "CITEWALK_LLM_MODEL": "stub-model", "OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": "test-key",
        "CITEWALK_LLM_DEADLINE_S": "30",
    }
    with running_app(env, tmp_path_factory.mktemp("llm-app") / "chainlit.log") as url:
        yield url


# The answer labels (bold runs of the messages' text) in document order.
LABEL_ORDER = """() => [...document.querySelectorAll('.message-content .font-bold')]
  .map(e => e.textContent.trim()).filter(t => t === 'Extractive answer' || t === 'LLM answer')"""


def _signed_in(pw, url: str, height: int):
    """A Chromium page signed in to the app, its message box ready."""
    browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
    page = browser.new_page(viewport={"width": 1360, "height": height})
    _sign_in(page, url, ADMIN)
    page.locator("#chat-input").wait_for(timeout=60_000)
    return browser, page


def _first_answer_with_the_list_held(page, question: str) -> HeldRequests:
    """Asks with the sidebar's thread list held, so the chat stays on its first page; waits for the answer's end
    (the stub's model endpoint failing)."""
    thread_list = HeldRequests(page, THREAD_LIST)
    submit(page, question)
    page.get_by_text("failed (HTTP 500").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
    return thread_list


def test_extractive_first_then_llm_or_notice(llm_app: str, stub: OpenAIStub):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    questions = [s.question for s in starters_for("hipaa")]
    with sync_playwright() as pw:
        browser, page = _signed_in(pw, llm_app, height=1600)
        # The thread list is held until the first answer is in, as a loaded server can be late with it: the chat
        # then moves to its thread's page after the answer, on every run, and the next question must still go.
        # The model endpoint fails: the extractive answer stays, labelled, with the reason.
        thread_list = _first_answer_with_the_list_held(page, questions[0])
        assert page.get_by_text("Extractive answer", exact=False).first.is_visible()
        assert page.get_by_text("LLM answer").count() == 0
        assert thread_list.routes and not on_thread_page(page.url)
        thread_list.release()

        # The model answers: both answers are on the page, each under its own label.
        stub.script, stub.requests = list(LLM_ANSWER), []
        submit(page, questions[1])
        page.get_by_text(LLM_TEXT).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.get_by_text("Composed by stub-model").first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        assert page.get_by_text("LLM answer").count() == 1
        assert page.get_by_text("Extractive answer").count() >= 2  # one per question
        # Document order, not boxes: a long page of answers may have a label scrolled out of the rendered area.
        # Waited for, not read once: the labels are read while the answers' elements may still be arriving.
        try:
            page.wait_for_function(f"() => {{ const l = ({LABEL_ORDER})(); return l.at(-1) === 'LLM answer' && l.at(-2) === 'Extractive answer'; }}",
                                   timeout=10_000)
        except PlaywrightTimeout:
            pytest.fail(f"the extractive answer came first and stays above the LLM's; labels in page order: "
                        f"{page.evaluate(LABEL_ORDER)}")
        assert len(stub.requests) == 2
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(1000)
        page.screenshot(path=str(SCREENS / "chat-llm.png"), full_page=True)
        browser.close()


def test_a_question_typed_before_the_chat_moves_to_its_thread_is_kept(llm_app: str, stub: OpenAIStub):
    """Chainlit moves a new chat to /thread/<id> after its first answer's thread list comes back, and mounts a new
    message box there: the question typed meanwhile is put back into it (public/citewalk.js) and can be sent."""
    from playwright.sync_api import sync_playwright

    stub.script, stub.requests = [Reply(status=500)], []  # the first answer ends at once, with the LLM's failure
    questions = [s.question for s in starters_for("hipaa")]
    with sync_playwright() as pw:
        browser, page = _signed_in(pw, llm_app, height=1000)
        thread_list = _first_answer_with_the_list_held(page, questions[0])
        page.locator("#chat-input").fill(questions[1])  # typed while the chat is still on its first page
        assert not on_thread_page(page.url)
        thread_list.release()
        page.wait_for_url(on_thread_page, timeout=60_000)
        page.wait_for_function("q => document.getElementById('chat-input')?.value === q", arg=questions[1],
                               timeout=15_000)
        page.locator("#chat-submit").click(timeout=15_000)
        page.wait_for_function(
            "q => [...document.querySelectorAll('[data-step-type=\"user_message\"]')].some(e => e.textContent.includes(q))",
            arg=questions[1], timeout=30_000)
        browser.close()
