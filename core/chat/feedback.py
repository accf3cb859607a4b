"""The thumbs under an answer, read back for whoever reviews them.

Chainlit's data layer stores each thumb in the app database's `feedbacks` table (value 0 = down, 1 = up, with
the comment typed), keyed by the answer message, whose metadata holds the answer's view (`show_answer`). So a
thumb is stored with its answer; this reads both together.

    python -m core.chat.feedback [--all] [--json]    # answers marked wrong (or every rated answer), newest first
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import sqlalchemy as sa
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncEngine

from core.app_db import make_engine, metadata
from core.chat.answer_message import VIEW_METADATA_KEY
from core.render.view import AnswerView
from core.settings import get_settings

WRONG = 0


class RatedAnswer(BaseModel):
    feedback_id: str
    message_id: str
    thread_id: str
    author: str | None = None
    value: int
    comment: str = ""
    asked_at: str = ""
    question: str = ""
    corpus: str = ""
    answer: str = ""
    cited_unit_ids: list[str] = Field(default_factory=list)
    cited_labels: list[str] = Field(default_factory=list)
    note: str = Field(default="", description="why the answer itself could not be read back, if it could not")


def _rated(row: sa.Row[*tuple[Any, ...]]) -> RatedAnswer:
    item = RatedAnswer(feedback_id=row.id, message_id=row.forId, thread_id=row.threadId, author=row.userIdentifier,
                       value=row.value, comment=row.comment or "", asked_at=row.createdAt or "")
    stored = json.loads(row.metadata) if isinstance(row.metadata, str) else (row.metadata or {})
    if VIEW_METADATA_KEY not in stored:
        return item.model_copy(update={"note": "the answer message holds no answer snapshot"})
    try:
        view = AnswerView.model_validate(stored[VIEW_METADATA_KEY])
    except ValidationError as exc:
        return item.model_copy(update={"note": f"the stored answer no longer matches ({exc.error_count()} fields)"})
    return item.model_copy(update={
        "question": view.question, "corpus": view.corpus, "answer": view.answer,
        "cited_unit_ids": [c.unit_id for c in view.cards], "cited_labels": [c.label for c in view.cards],
    })


async def rated_answers(engine: AsyncEngine, only_wrong: bool = True) -> list[RatedAnswer]:
    """Answers with a thumb (only thumbs down by default), newest first, each with its question and citations."""
    feedbacks, steps, threads = (metadata.tables[t] for t in ("feedbacks", "steps", "threads"))
    query = (sa.select(feedbacks.c.id, feedbacks.c.forId, feedbacks.c.threadId, feedbacks.c.value, feedbacks.c.comment,
                       steps.c.metadata, steps.c.createdAt, threads.c.userIdentifier)
             .select_from(feedbacks.outerjoin(steps, steps.c.id == feedbacks.c.forId)
                          .outerjoin(threads, threads.c.id == feedbacks.c.threadId))
             .order_by(steps.c.createdAt.desc()))
    if only_wrong:
        query = query.where(feedbacks.c.value == WRONG)
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [_rated(row) for row in rows]


def _table(items: list[RatedAnswer]) -> str:
    if not items:
        return "No rated answers."
    lines = []
    for item in items:
        thumb = "wrong" if item.value == WRONG else "right"
        lines += [f"[{thumb}] {item.asked_at or '?'} · {item.author or 'anonymous'} · {item.corpus} · message {item.message_id}",
                  f"  Q: {item.question or item.note}", f"  A: {item.answer[:300]}",
                  f"  cited: {', '.join(item.cited_labels) or '-'}", f"  comment: {item.comment or '-'}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.chat.feedback", description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every rated answer, not only those marked wrong")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)

    async def read() -> list[RatedAnswer]:
        engine = make_engine(get_settings())
        try:
            return await rated_answers(engine, only_wrong=not args.all)
        finally:
            await engine.dispose()

    try:
        items = asyncio.run(read())
    except Exception as exc:  # noqa: BLE001 — the admin is told which database failed and why
        print(f"cannot read the app database ({type(exc).__name__}: {str(exc)[:200]}); check DATABASE_URL or "
              "CITEWALK_DATA_DIR", file=sys.stderr)
        return 1
    print("\n".join(i.model_dump_json() for i in items) if args.json else _table(items))
    return 0


if __name__ == "__main__":
    sys.exit(main())
