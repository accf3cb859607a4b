"""Asks one question in a running chat through Chromium and reports whether the answer came whole.

    python -m bench.chat_probe --url http://127.0.0.1:8000 --email E --password-file data/app/admin-password [--out F]

Whole means: its rule cards and citation graph are drawn, no element is reported missing, and Copy link gives a
permalink that opens with the same rule cards. Used around bench.load to show the chat outlives the load workers.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from core.chat.starters import starters_for
from core.settings import get_settings
from tests.chat_page import CARDS, CHROMIUM, LAUNCH_ARGS, NOTICE, ask, graph_nodes, open_link, share_last_answer, sign_in


def probe(url: str, account: tuple[str, str], question: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        try:
            page = browser.new_context(viewport={"width": 1360, "height": 1400}).new_page()
            sign_in(page, url, account)
            page.locator("#chat-input").wait_for(timeout=60_000)
            began = time.monotonic()
            ask(page, question)
            seconds = round(time.monotonic() - began, 2)
            cards = page.locator(CARDS).last.locator(".rule-card")
            labels = cards.evaluate_all("cards => cards.map(c => c.dataset.label)")
            nodes, notices = graph_nodes(page), page.get_by_text(NOTICE).count()
            same_cards = open_link(browser, url, share_last_answer(page), account) == labels
        finally:
            browser.close()
    return {"url": url, "question": question, "answer_s": seconds, "rule_cards": len(labels), "graph_nodes": nodes,
            "missing_element_notices": notices, "permalink_same_cards": same_cards,
            "whole": len(labels) > 0 and nodes >= 2 and same_cards and notices == 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chat_probe", description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--email", default=get_settings().admin_email)
    parser.add_argument("--password-file", type=Path, default=get_settings().app_path / "admin-password")
    parser.add_argument("--question", default=None, help="default: the first starter of the default corpus")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = parser.parse_args(argv)
    if not args.password_file.is_file():
        parser.error(f"--password-file {args.password_file} does not exist; pass the chat account's password file")
    question = args.question or starters_for(get_settings().default_corpus)[0].question
    result = probe(args.url.rstrip("/"), (args.email, args.password_file.read_text().strip()), question)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0 if result["whole"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
