"""A user's own words in the browser: the research question is answered by the permission with its conditions, its
caveats name only words worth checking, and every step shows once, in the order it ran."""
from __future__ import annotations

import re

import pytest

from core.answer.checkable import is_checkable
from core.chat.steps import STEP_TITLES
from core.domain import Step
from tests.test_answer_starters import PARAPHRASED
from tests.test_browser_chat import (  # noqa: F401 — app_url is the module's app fixture, used by name
    ADMIN,
    ANSWER_TIMEOUT_MS,
    CHROMIUM,
    LAUNCH_ARGS,
    STEP_SELECTOR,
    OriginGuard,
    _sign_in,
    app_url,
    first_answer_labels,
    guarded_page,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium not installed (apt-get install chromium)")
# 164.512(i)(1), or a unit that contains it.
PERMISSION = ("45 CFR 164.512(i)(1)", "45 CFR 164.512(i)", "45 CFR 164.512")


def test_paraphrased_research_question_in_the_browser(app_url: str):  # noqa: F811 — the imported fixture
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        guard = OriginGuard(app_url)
        page = guarded_page(browser, guard, viewport={"width": 1360, "height": 1500})
        _sign_in(page, app_url, ADMIN)
        page.locator("#chat-input").fill(PARAPHRASED)
        page.locator("#chat-submit").click()
        labels = first_answer_labels(page)
        assert labels and labels[0] in PERMISSION, labels
        cards = page.locator('[data-testid="answer-cards"] .rule-card')
        assert "provided that" in cards.first.inner_text()  # the permission with its conditions
        page.locator(STEP_SELECTOR).filter(has_text=STEP_TITLES[Step.COMPOSE]).first.wait_for(timeout=ANSWER_TIMEOUT_MS)
        text = page.locator("body").inner_text()
        named = re.findall(r"“([^”]+)”", " ".join(line for line in text.splitlines() if "does not mention" in line))
        assert all(is_checkable(w) for w in named), named
        steps = " ".join(page.locator(STEP_SELECTOR).all_inner_texts())
        shown = [t for t in STEP_TITLES.values() if t in steps]
        assert all(steps.count(t) == 1 for t in shown), steps
        assert shown and [steps.find(t) for t in shown] == sorted(steps.find(t) for t in shown)
        browser.close()
    assert guard.outside == []
