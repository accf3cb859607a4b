"""How fast "See the source" opens in the chat: click a rule card (or a cited-by link) → the source view of that
unit painted, on the page's own clock, in Chromium against a running chat on a corpus.

    python -m bench.source_view --corpus adgm --questions ../shared/bench/obliqa_dev.jsonl --limit 8 \
        [--repeats 3] [--screenshot bench/results/screens/source-view-adgm.png] [--out bench/results/source_view_adgm.json]

It starts the chat (`core.serve`, as `make app`) on the stores of this environment (CITEWALK_DATA_DIR, Neo4j
ports), signs in with a throw-away admin, asks each question, then for each rule card: click → view (the side
sheet opening included), Escape, `--repeats` times; and follows the first cited-by link of each view once.
Times are the click event → the animation frame in which the source view of the clicked unit is in the page
(performance.now), as tests/test_browser_chat.py times answers; Playwright's own polling is not in them. For the
first click on each card, `first_click_breakdown` says where the time went: a view at hand (sent with the answer)
or one waiting for its /api/source response, and the main thread's long tasks meanwhile.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import tempfile
from pathlib import Path

from bench.report import print_and_save
from bench.stats import percentile
from core.settings import REPO_ROOT, get_settings
from tests.app_process import app_env, running_app
from tests.chat_page import CHROMIUM, LAUNCH_ARGS, ask, sign_in

CARDS = '[data-testid="answer-cards"]'
VIEW = '[data-testid="source-panel"] [data-testid="source-view"]'
# Armed before each click: the click event's time, then the frame after the view of `unit` is in the page.
CLOCK = """unit => {
  const marks = window.__cwSource = {click: null, shown: null};
  const sel = `[data-testid="source-panel"] [data-testid="source-view"][data-unit-id="${CSS.escape(unit)}"]`;
  document.addEventListener("click", () => { if (marks.click === null) marks.click = performance.now(); },
                            {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (document.querySelector(sel)) {
      observer.disconnect();
      requestAnimationFrame(() => { marks.shown = performance.now(); });
    }
  });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-unit-id"]});
}"""


# Where a click's time went, on the page's clock relative to the click: the /api/source request of the clicked
# unit (start and response end from resource timing; a request made before the click, on pointer-over or when the
# answer was drawn, starts before it; none when the view came from the element's cache) and the main thread's
# long tasks (> 50 ms) between the click and the view.
FETCH = """unit => {
  const marks = window.__cwSource;
  const mine = (window.__cwRequests || {})[unit];
  const entries = performance.getEntriesByType("resource").filter(e => e.name.endsWith("/api/source"))
    .filter(e => mine !== undefined && Math.abs(e.startTime - mine) < 5);
  const last = entries.length ? entries[0] : null;
  const busy = (window.__cwLongTasks || []).filter(t => t.end > marks.click && t.start < marks.shown)
    .reduce((sum, t) => sum + Math.min(t.end, marks.shown) - Math.max(t.start, marks.click), 0);
  return {request_ms: last ? last.responseEnd - last.startTime : null,
          request_start_ms: last ? last.startTime - marks.click : null,
          response_end_ms: last ? last.responseEnd - marks.click : null,
          long_tasks_ms: busy};
}"""
# Installed once per page: long tasks as they happen, and when the page last asked for each unit's source.
WATCH = """() => {
  performance.setResourceTimingBufferSize(100000);
  window.__cwLongTasks = [];
  new PerformanceObserver(list => { for (const e of list.getEntries())
    window.__cwLongTasks.push({start: e.startTime, end: e.startTime + e.duration}); }).observe({type: "longtask"});
  window.__cwRequests = {};
  const fetchBefore = window.fetch;
  window.fetch = function (url, init) {
    if (String(url).endsWith("/api/source") && init && typeof init.body === "string") {
      try { window.__cwRequests[JSON.parse(init.body).unit_id] = performance.now(); }
      catch (e) { /* not a source request */ }
    }
    return fetchBefore.apply(this, arguments);
  };
}"""


class NoView(RuntimeError):
    """The click gave no source view within the wait; the message says what the page showed instead."""


def _timed_click(page, locator, unit: str, fetches: list[dict] | None = None) -> float:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(CLOCK, unit)
    locator.click()
    try:
        page.wait_for_function("() => window.__cwSource.shown !== null", timeout=30_000)
    except PlaywrightTimeout as exc:
        shown = page.locator('[data-testid="source-problem"]').all_inner_texts()
        raise NoView(f"{unit}: {shown[0] if shown else 'no panel' if not page.locator('[data-testid=source-panel]').count() else 'panel without the view'}") from exc
    marks = page.evaluate("window.__cwSource")
    if fetches is not None:
        fetches.append({**page.evaluate(FETCH, unit), "view_ms": marks["shown"] - marks["click"]})
    return marks["shown"] - marks["click"]


def close_source(page) -> None:
    """Escape, then wait until the sheet and its fading overlay are gone (the overlay would take the next click)."""
    page.keyboard.press("Escape")
    page.locator('[data-testid="source-panel"]').wait_for(state="detached", timeout=10_000)
    page.wait_for_function("() => !document.querySelector('div.fixed.inset-0.z-50')", timeout=10_000)


def measure(url: str, account: tuple[str, str], questions: list[str], repeats: int, screenshot: Path | None) -> dict:
    from playwright.sync_api import sync_playwright

    opens: list[float] = []
    moves: list[float] = []
    first_opens: list[float] = []
    fetches: list[dict] = []
    failures: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        page = browser.new_context(viewport={"width": 1360, "height": 1100}).new_page()
        page.add_init_script(f"({WATCH})();")
        sign_in(page, url, account)
        page.locator("#chat-input").wait_for(timeout=60_000)
        for question in questions:
            ask(page, question, finished=CARDS)
            cards = page.locator(CARDS).last.locator(".rule-card")
            for i in range(cards.count()):
                card = cards.nth(i)
                unit = card.get_attribute("data-unit-id") or ""
                for r in range(repeats):
                    try:
                        took = _timed_click(page, card.locator(".rule-label"), unit, fetches if r == 0 else None)
                    except NoView as exc:
                        failures.append(str(exc))
                        if page.locator('[data-testid="source-panel"]').count():
                            close_source(page)
                        continue
                    opens.append(took)
                    if r == 0:
                        first_opens.append(took)
                    if screenshot is not None and not screenshot.exists() and page.locator(f"{VIEW} mark").count():
                        page.wait_for_timeout(300)
                        screenshot.parent.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(screenshot))
                    if r == repeats - 1:
                        link = page.locator(f'{VIEW} [data-testid="cited-by"] button.cw-link').first
                        if link.count():
                            moves.append(_timed_click(page, link, link.get_attribute("data-unit-id") or ""))
                    close_source(page)
        browser.close()

    def summary(values: list[float]) -> dict:
        if not values:
            return {"n": 0}
        return {"n": len(values), "p50_ms": round(statistics.median(values), 1),
                "p95_ms": round(percentile(values, 95), 1), "max_ms": round(max(values), 1)}

    return {"card_click_to_view": summary(opens), "first_click_per_card": summary(first_opens),
            "cited_by_click_to_view": summary(moves), "all_clicks": summary(opens + moves),
            "first_click_breakdown": _breakdown(fetches, summary), "clicks_without_a_view": failures}


def _breakdown(clicks: list[dict], summary) -> dict:
    """Where the first click on each card spent its time: whether the view waited for an /api/source request
    (one made on pointer-over, so before the click; then: the wait after the click, and the frame after the
    response) or was at hand (sent with the answer: no request before the click, only the one re-reading it
    behind the view), and the main thread's long tasks between the click and the view."""
    waited = [c for c in clicks if c["request_start_ms"] is not None and c["request_start_ms"] < 0]
    return {
        "views_at_hand": len(clicks) - len(waited),
        "views_waiting_for_a_request": len(waited),
        "api_source_request": summary([c["request_ms"] for c in clicks if c["request_ms"] is not None]),
        "waited_click_to_response_end": summary([max(0.0, c["response_end_ms"]) for c in waited]),
        "waited_response_end_to_view": summary([c["view_ms"] - max(0.0, c["response_end_ms"]) for c in waited]),
        "long_tasks_during_click": summary([c["long_tasks_ms"] for c in clicks]),
    }


def _questions(path: Path, limit: int) -> list[str]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row["question"] for row in rows[:limit]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.source_view", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--questions", type=Path, required=True, help="a JSONL question file with a `question` field")
    parser.add_argument("--limit", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3, help="clicks on each card (the first one is reported apart)")
    parser.add_argument("--screenshot", type=Path, default=None, help="a screenshot of the first view with marks")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = get_settings().model_copy(update={"default_corpus": args.corpus})
    account = ("bench@example.org", secrets.token_urlsafe(12))
    env = app_env(settings, {}, account)
    env["CITEWALK_DEFAULT_CORPUS"] = args.corpus
    questions = _questions(args.questions, args.limit)
    if args.screenshot is not None:
        args.screenshot.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as logs, running_app(env, Path(logs) / "chainlit.log", timeout_s=300) as url:
        load_before = os.getloadavg()[0]
        figures = measure(url, account, questions, args.repeats, args.screenshot)
    result = {"corpus": args.corpus, "questions": len(questions), "question_file": args.questions.name,
              "repeats": args.repeats, **figures, "cpus": os.cpu_count(),
              "load_average_1min": {"before": round(load_before, 1), "after": round(os.getloadavg()[0], 1)},
              "note": "click event → animation frame with the clicked unit's source view in the page (performance.now); "
                      "card clicks open the side sheet, cited-by clicks move it; chat, Neo4j and Chromium on one machine"}
    print_and_save(result, args.out)
    if args.screenshot is not None:
        print(f"screenshot: {args.screenshot.relative_to(REPO_ROOT) if args.screenshot.is_relative_to(REPO_ROOT) else args.screenshot}")


if __name__ == "__main__":
    main()
