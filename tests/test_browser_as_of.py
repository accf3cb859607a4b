"""The law as of a date in a real browser (Debian's Chromium via Playwright, issue 50): on two real versions of
응급의료에 관한 법률 (cut to three articles, tests/versions_support.py), the date typed in the chat settings is the
date the answer applies; the same question as of two dates cites two different wordings of 제60조제1항; the card
flags the amendment adopted but not yet in force; the source view lists the versions, shows an older one's words
on a click and compares two side by side, word by word; the answer's permalink keeps its date, and its source page
compares the versions too; a date that is no date is refused with a message."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings import SENTENCE_TRANSFORMERS
from core.settings import Settings
from ingest.pipeline import run_ingest
from tests.app_process import app_env, running_app
from tests.chat_page import ANSWER_TIMEOUT_MS, CARDS, CHROMIUM, LAUNCH_ARGS, ask, share_last_answer, sign_in
from tests.test_browser_chat import ADMIN, OriginGuard, guarded_page
from tests.versions_support import small_versions

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed (apt-get install chromium)")

CORPUS = "kov-ui-test"
QUESTION = "응급실에서 응급의료종사자를 폭행하여 상해에 이르게 한 사람은 어떤 처벌을 받나요?"
# Only the wording in force from 2026-06-24 (법률 제21237호) reaches beyond the emergency room itself.
NEW_WORDS = "응급실 외의 장소"
PANEL = '[data-testid="source-panel"]'


@pytest.fixture(scope="module")
def versions_corpus(shared_root: Path, test_settings: Settings, neo4j_driver, tmp_path_factory) -> Settings:
    folder = shared_root / "corpora" / "real" / "ko-versions"
    if not folder.exists():
        pytest.skip(f"ko-versions not found under {shared_root} (set CITEWALK_SHARED)")
    # The small English model: e5 would take minutes; the app reads the backend stored with the vectors.
    settings = test_settings.model_copy(update={"embedding_backend": SENTENCE_TRANSFORMERS})
    summary = run_ingest(small_versions(folder, tmp_path_factory.mktemp("kov")), CORPUS, settings, quiet=True)
    assert not summary.failures, summary.failures
    assert summary.documents == 1  # two files, one act
    return settings


@pytest.fixture(scope="module")
def app_url(versions_corpus: Settings, tmp_path_factory) -> Iterator[str]:
    env = app_env(versions_corpus, {}, ADMIN) | {"CITEWALK_DEFAULT_CORPUS": CORPUS}
    with running_app(env, tmp_path_factory.mktemp("app") / "chainlit.log") as url:
        yield url


def _set_date(page, typed: str) -> None:
    page.locator("#chat-settings-open-modal").click()
    field = page.locator("#as_of")
    field.wait_for(timeout=30_000)
    field.fill(typed)
    page.get_by_role("button", name="Confirm").click()
    field.wait_for(state="hidden", timeout=30_000)


def _last_answer(page) -> dict:
    """The newest answer's date line, its first card's date lines and its full provision text."""
    cards = page.locator(CARDS).last
    card = cards.locator(".rule-card").first
    card.wait_for(timeout=ANSWER_TIMEOUT_MS)
    return {"as_of": cards.locator('[data-testid="answer-as-of"]').inner_text(),
            "dated": card.locator('[data-testid="as-of"]').inner_text(),
            "text": card.locator("details div").text_content() or "",
            "label": card.get_attribute("data-label") or ""}


def test_the_date_in_the_chat_picks_the_wording_and_the_source_compares_versions(app_url: str, tmp_path: Path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        guard = OriginGuard(app_url)
        page = guarded_page(browser, guard, viewport={"width": 1360, "height": 1100})
        sign_in(page, app_url, ADMIN)
        page.locator("#chat-input").wait_for(timeout=60_000)

        _set_date(page, "2026-05-01")
        ask(page, QUESTION, CARDS)
        before = _last_answer(page)
        assert before["as_of"] == "Law as of 2026-05-01"
        assert "제60조" in before["label"], before
        assert "As in force on 2026-05-01" in before["dated"]
        assert "Amended with effect from 2026-06-24" in before["dated"] and "21237" in before["dated"], before
        assert before["text"] and NEW_WORDS not in before["text"]

        _set_date(page, "2026-07-01")
        ask(page, QUESTION, CARDS)
        after = _last_answer(page)
        assert after["as_of"] == "Law as of 2026-07-01" and after["label"] == before["label"]
        assert NEW_WORDS in after["text"] and after["text"] != before["text"]
        assert "As in force on 2026-07-01" in after["dated"] and "with effect from" not in after["dated"]

        # The source of the newer answer's card: its versions, an older one's words, and the two compared.
        page.locator(CARDS).last.locator(".rule-card .see-source").first.click()
        versions = page.locator(f'{PANEL} [data-testid="versions"]')
        versions.wait_for(timeout=60_000)
        assert versions.locator(".cw-version").count() == 2
        versions.locator('.cw-version[data-from="2026-04-02"]').click()
        older = versions.locator('[data-testid="version-text"]').inner_text()
        assert NEW_WORDS not in older and "폭행하여 상해에 이르게 한 사람" in older
        assert versions.locator('[data-testid="compare-old"]').input_value() == "2026-04-02"
        assert versions.locator('[data-testid="compare-new"]').input_value() == "2026-06-24"
        versions.locator('[data-testid="compare"]').click()
        table = versions.locator('[data-testid="comparison"]')
        table.wait_for(timeout=30_000)
        inserted = " ".join(table.locator(".cw-new ins").all_inner_texts())
        assert NEW_WORDS in inserted, inserted
        assert table.locator(".cw-old ins").count() == 0 and table.locator(".cw-new del").count() == 0
        assert table.locator(".cw-old del").count() >= 1  # "응급실에서" gave way to the widened place
        page.screenshot(path=tmp_path / "as-of-comparison.png")  # for a look when it fails
        page.keyboard.press("Escape")

        # The permalink keeps the date it was answered for; its source page reads that day and compares.
        link = share_last_answer(page)
        shared = guarded_page(browser, guard)
        sign_in(shared, app_url, ADMIN)
        shared.goto(link)
        assert shared.locator('[data-testid="answer-as-of"]').inner_text() == "Law as of 2026-07-01"
        assert "As in force on 2026-07-01" in shared.locator('.rule-card [data-testid="as-of"]').first.inner_text()
        shared.locator(".rule-card .see-source").first.click()
        shared.locator('[data-testid="versions"] button[type="submit"]').click()
        assert NEW_WORDS in " ".join(shared.locator('[data-testid="comparison"] td.new ins').all_inner_texts())
        assert shared.locator('[data-testid="comparison"] td.old del').count() >= 1
        shared.context.close()

        # A date that is no date: refused by name, the previous one kept.
        _set_date(page, "2026-13-45")
        page.get_by_text("is not a date").last.wait_for(timeout=30_000)
        assert "answers stay as of 2026-07-01" in page.get_by_text("is not a date").last.inner_text()
        assert not guard.outside, guard.outside
        browser.close()
