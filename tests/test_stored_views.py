"""Copy link without the session's memory: the answer's view is read back from the stored message, only from the
asking user's own chats, and every way that can fail says why."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from core.app_db import create_schema, metadata
from core.chat.answer_message import VIEW_METADATA_KEY
from core.chat.stored_views import SESSION_VIEWS, keep_view, save_view, stored_view, views_in_steps
from tests.render_support import hostile_view

OWNER = "owner@example.org"


async def _app_db(tmp_path: Path, steps: dict[str, dict]) -> AsyncEngine:
    """An app database holding one chat of OWNER's with these answer messages (id → metadata)."""
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'app.db'}")
    await create_schema(engine)
    async with engine.begin() as conn:
        await conn.execute(metadata.tables["threads"].insert().values(id="t1", userIdentifier=OWNER))
        # Chainlit's data layer writes metadata as a JSON string through raw SQL; mirrored here.
        for step_id, meta in steps.items():
            await conn.execute(sa.text('INSERT INTO steps (id, name, type, "threadId", streaming, metadata) '
                                       "VALUES (:id, 'a', 'assistant_message', 't1', 0, :meta)"),
                               {"id": step_id, "meta": json.dumps(meta)})
    return engine


def _broken_db(tmp_path: Path) -> AsyncEngine:
    (tmp_path / "garbage.db").write_bytes(b"not a database" * 512)
    return create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'garbage.db'}")


def _lookups(tmp_path: Path) -> dict:
    view = hostile_view()

    async def run() -> dict:
        engine = await _app_db(tmp_path, {"answer": {VIEW_METADATA_KEY: view.model_dump(mode="json")}, "plain": {},
                                          "stale": {VIEW_METADATA_KEY: {"question": 3}}})
        found = {
            "own": await stored_view(engine, "answer", OWNER),
            "other": await stored_view(engine, "answer", "someone@example.org"),
            "anonymous": await stored_view(engine, "answer", None),
            "missing": await stored_view(engine, "nope", OWNER),
            "plain": await stored_view(engine, "plain", OWNER),
            "stale": await stored_view(engine, "stale", OWNER),
        }
        await engine.dispose()
        broken = _broken_db(tmp_path)
        found["down"] = await stored_view(broken, "answer", OWNER)
        await broken.dispose()
        return found

    return asyncio.run(run())


def test_view_comes_back_only_for_its_author_and_failures_say_why(tmp_path: Path) -> None:
    found = _lookups(tmp_path)
    assert found["own"].view == hostile_view() and found["own"].reason is None
    for key in ("other", "anonymous", "missing"):
        assert found[key].view is None and "no such answer in your chats" in found[key].reason
    assert "without its answer snapshot" in found["plain"].reason
    assert "no longer matches" in found["stale"].reason
    assert "could not be read" in found["down"].reason and "DatabaseError" in found["down"].reason


def test_a_session_keeps_its_latest_views_only() -> None:
    views: dict = {}
    view = hostile_view()
    for n in range(SESSION_VIEWS + 30):
        keep_view(views, f"m{n}", view)
    keep_view(views, "m40", view)  # shown again (a link copied): now the newest
    assert len(views) == SESSION_VIEWS
    assert list(views)[-1] == "m40" and "m29" not in views and "m30" in views


def test_the_apps_own_copy_serves_an_answer_whose_message_lost_its_snapshot(tmp_path: Path) -> None:
    # Chainlit persists a streamed message in fire-and-forget whole-row upserts; on a loaded machine the first
    # (no snapshot) once landed after the last, and the answer could no longer be exported.
    view = hostile_view()

    async def run() -> dict:
        engine = await _app_db(tmp_path, {"answer": {}})
        saved = await save_view(engine, "answer", OWNER, view)
        again = await save_view(engine, "answer", OWNER, view)  # shown twice (an LLM answer after the extractive)
        found = {"saved": saved and again, "own": await stored_view(engine, "answer", OWNER),
                 "other": await stored_view(engine, "answer", "someone@example.org"),
                 "anonymous": await stored_view(engine, "answer", None)}
        await engine.dispose()
        broken = _broken_db(tmp_path)
        found["saved_on_broken"] = await save_view(broken, "answer", OWNER, view)
        await broken.dispose()
        return found

    found = asyncio.run(run())
    assert found["saved"] and found["own"].view == view
    assert found["other"].view is None and found["anonymous"].view is None  # the copy is its author's alone
    assert found["saved_on_broken"] is False


def test_a_resumed_chat_restores_the_snapshots_its_messages_hold_and_skips_one_that_no_longer_reads(caplog):
    view = hostile_view()
    steps = [{"id": "m-user", "metadata": {}},
             {"id": "m-old", "metadata": {VIEW_METADATA_KEY: {"cards": "not a list"}}},
             {"id": "m-new", "metadata": {VIEW_METADATA_KEY: view.model_dump(mode="json")}},
             {"id": "m-plain", "metadata": None}]
    restored = views_in_steps(steps)
    assert [(message_id, v.model_dump()) for message_id, v in restored] == [("m-new", view.model_dump())]
    assert "m-old" in caplog.text
    assert [m for m, _ in views_in_steps([*steps, {"id": "m-last", "metadata": steps[2]["metadata"]}], limit=1)] == ["m-last"]
