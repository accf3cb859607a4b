"""Answers marked wrong in the chat → a question file for bench.answers / bench.retrieval (units format).

    python -m bench.feedback_questions --out bench/questions/feedback.jsonl [--corpus hipaa]

Each row keeps the question, the corpus, the units the wrong answer cited (`wrong_unit_ids`) and the reviewer's
comment. `gold_unit_ids` starts empty: a person who knows the right provisions fills it in (the comment often
names them) before the row is scored; rows still without gold are listed when the file is written.
"""
from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from core.app_db import make_engine
from core.chat.feedback import RatedAnswer, rated_answers
from core.settings import get_settings


def question_rows(items: list[RatedAnswer], corpus: str | None = None) -> list[dict]:
    """One row per distinct (corpus, question), the newest rating first; answers without a snapshot are skipped."""
    rows: dict[tuple[str, str], dict] = {}
    for item in items:
        if not item.question or (corpus and item.corpus != corpus):
            continue
        key = (item.corpus, " ".join(item.question.split()))
        if key in rows:
            rows[key]["comments"].append(item.comment)
            continue
        rows[key] = {"id": f"feedback-{item.message_id}", "question": item.question, "corpus": item.corpus,
                     "gold_unit_ids": [], "wrong_unit_ids": item.cited_unit_ids, "wrong_labels": item.cited_labels,
                     "wrong_answer": item.answer, "comments": [item.comment], "source": "chat feedback (thumbs down)"}
    return list(rows.values())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.feedback_questions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpus", default=None, help="only questions asked of this corpus")
    args = parser.parse_args(argv)

    async def read() -> list[RatedAnswer]:
        engine = make_engine(get_settings())
        try:
            return await rated_answers(engine)
        finally:
            await engine.dispose()

    rows = question_rows(asyncio.run(read()), args.corpus)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} questions from answers marked wrong → {args.out}; fill in gold_unit_ids before scoring")


if __name__ == "__main__":
    main()
