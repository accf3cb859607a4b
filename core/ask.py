"""Ask a question from the command line: `python -m core.ask [--json] [--corpus NAME] [--model NAME|extractive]
[--method NAME] "question"`."""
from __future__ import annotations

import argparse
import sys

from core.answer.service import answer_question
from core.answer.text import render_text
from core.law import as_of_date
from core.retrieval.base import DEFAULT_METHOD
from core.settings import get_settings


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m core.ask", description="Answer a question with per-rule citations.")
    parser.add_argument("question", help="the question, in quotes")
    parser.add_argument("--json", action="store_true", help="print the AnswerEnvelope as JSON")
    parser.add_argument("--corpus", default=None, help="corpus name (default: CITEWALK_DEFAULT_CORPUS)")
    parser.add_argument("--model", default=None, help="LLM name, or 'extractive' (default: CITEWALK_LLM_MODEL, else extractive)")
    parser.add_argument("--method", default=None, help="retrieval method (default: citewalk)")
    parser.add_argument("--as-of", default=None, help="answer under the law in force on this date, YYYY-MM-DD (default: today)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = get_settings()
    try:
        envelope = answer_question(args.question, args.corpus or settings.default_corpus, settings,
                                   method=args.method or DEFAULT_METHOD, model=args.model, as_of=as_of_date(args.as_of))
    except Exception as exc:  # noqa: BLE001 — stores missing or unreadable: say what to do, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(envelope.model_dump_json(indent=2) if args.json else render_text(envelope))
    return 2 if envelope.error else 0


if __name__ == "__main__":
    sys.exit(main())
