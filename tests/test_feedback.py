"""Thumbs under an answer: stored by Chainlit's own data layer beside the answer message, listed for an admin with
the question, the citations and the comment, and turned into a question file by bench.feedback_questions."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import sqlalchemy as sa
from chainlit.data.sql_alchemy import SQLAlchemyDataLayer
from chainlit.types import Feedback

from bench import feedback_questions
from core.app_db import create_schema, database_url, make_engine, metadata
from core.chat import feedback
from core.chat.answer_message import VIEW_METADATA_KEY
from core.settings import Settings
from tests.render_support import HOSTILE, hostile_view


def _rate(settings: Settings) -> None:
    view = hostile_view()

    async def run() -> None:
        engine = make_engine(settings)
        await create_schema(engine)
        async with engine.begin() as conn:
            await conn.execute(metadata.tables["threads"].insert().values(id="t1", userIdentifier="officer@example.org"))
            # Chainlit's data layer writes metadata as a JSON string through raw SQL; mirrored here.
            for step_id, when, meta in (("m-old", "2026-01-01T00:00:00", {VIEW_METADATA_KEY: view.model_dump(mode="json")}),
                                        ("m-new", "2026-02-01T00:00:00", {VIEW_METADATA_KEY: view.model_dump(mode="json")}),
                                        ("m-good", "2026-03-01T00:00:00", {VIEW_METADATA_KEY: view.model_dump(mode="json")}),
                                        ("m-plain", "2026-04-01T00:00:00", {})):
                await conn.execute(sa.text('INSERT INTO steps (id, name, type, "threadId", streaming, metadata, "createdAt") '
                                           "VALUES (:id, 'a', 'assistant_message', 't1', 0, :meta, :at)"),
                                   {"id": step_id, "meta": json.dumps(meta), "at": when})
        await engine.dispose()
        layer = SQLAlchemyDataLayer(conninfo=database_url(settings))
        await layer.upsert_feedback(Feedback(forId="m-old", value=0, threadId="t1", comment="cites the wrong part"))
        await layer.upsert_feedback(Feedback(forId="m-new", value=0, threadId="t1", comment=f"wrong {HOSTILE}"))
        await layer.upsert_feedback(Feedback(forId="m-good", value=1, threadId="t1"))
        await layer.upsert_feedback(Feedback(forId="m-plain", value=0, threadId="t1", comment="not an answer"))
        await layer.engine.dispose()

    asyncio.run(run())


def test_wrong_answers_are_listed_with_question_citations_and_comment(tmp_path: Path, monkeypatch, capsys):
    settings = Settings(data_dir=tmp_path)
    _rate(settings)
    # The commands read the process's settings; here, those of this test's app database.
    monkeypatch.setattr(feedback, "get_settings", lambda: settings)
    monkeypatch.setattr(feedback_questions, "get_settings", lambda: settings)

    assert feedback.main(["--json"]) == 0
    items = [feedback.RatedAnswer.model_validate_json(line) for line in capsys.readouterr().out.splitlines()]
    assert [i.message_id for i in items] == ["m-plain", "m-new", "m-old"]  # thumbs down only, newest first
    assert items[1].question == f"Q {HOSTILE}" and items[1].comment == f"wrong {HOSTILE}"
    assert items[1].cited_unit_ids == ["u1"] and items[1].author == "officer@example.org"
    assert "no answer snapshot" in items[0].note
    assert feedback.main(["--all"]) == 0
    assert capsys.readouterr().out.count("[right]") == 1

    out = tmp_path / "feedback.jsonl"
    feedback_questions.main(["--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1  # the same question twice is one row, with both comments; no snapshot, no row
    assert rows[0]["question"] == f"Q {HOSTILE}" and rows[0]["gold_unit_ids"] == [] and rows[0]["wrong_unit_ids"] == ["u1"]
    assert rows[0]["comments"] == [f"wrong {HOSTILE}", "cites the wrong part"]
    feedback_questions.main(["--out", str(out), "--corpus", "adgm"])
    assert out.read_text() == ""
