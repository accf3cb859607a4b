"""An answer's snapshot read back from the app database, for "Copy link" and export when the chat session no longer
holds it (a worker restart, a websocket reconnected to another worker).

Each shown answer's view is in its own table (`save_view`); older answers carry it only in their message's metadata
(`show_answer`), read next. When neither holds it, the reason says which step failed.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

import sqlalchemy as sa
from pydantic import BaseModel, ValidationError
from sqlalchemy.ext.asyncio import AsyncEngine

from core.app_db import answer_views, metadata
from core.chat.answer_message import VIEW_METADATA_KEY
from core.render.view import AnswerView

# The views a chat session holds in memory for "Copy link": its latest answers. An older answer's link reads its
# view back from the app database (as after a restart), so a chat left open all day does not grow without end.
SESSION_VIEWS = 50
log = logging.getLogger("citewalk.chat")


def keep_view(views: dict[str, AnswerView], message_id: str, view: AnswerView, limit: int = SESSION_VIEWS) -> None:
    """Keeps `view` as the session's newest, dropping the oldest past `limit`."""
    views.pop(message_id, None)
    views[message_id] = view
    while len(views) > limit:
        del views[next(iter(views))]


def views_in_steps(steps: Iterable[Mapping[str, Any]], limit: int = SESSION_VIEWS) -> list[tuple[str, AnswerView]]:
    """The answer snapshots a resumed chat's messages hold, the latest `limit`. One that no longer validates (kept by
    an older Citewalk) is left out with a log line: the chat still opens, and its link reads it back and says why."""
    stored = [(step["id"], meta[VIEW_METADATA_KEY]) for step in steps
              if isinstance(meta := step.get("metadata"), dict) and VIEW_METADATA_KEY in meta]
    views = []
    for message_id, raw in stored[-limit:]:
        found = _validated(partial(AnswerView.model_validate, raw))
        if found.view is not None:
            views.append((message_id, found.view))
        else:
            log.warning("the snapshot of answer %s is not restored: %s", message_id, found.reason)
    return views


class ViewLookup(BaseModel):
    view: AnswerView | None = None
    reason: str | None = None


def _short(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


async def save_view(engine: AsyncEngine, message_id: str, author: str | None, view: AnswerView) -> bool:
    """Keeps `view` as the snapshot of the answer `message_id` in `author`'s chat (None: an anonymous chat); False
    (logged with its traceback) when the app database refused it: the message's own metadata may still hold it, and
    share and export say why when it does not."""
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.delete(answer_views).where(answer_views.c.message_id == message_id))
            await conn.execute(sa.insert(answer_views).values(message_id=message_id, author=author,
                                                              view_json=view.model_dump_json()))
    except Exception:  # noqa: BLE001 — the answer is already shown; losing its copy must not fail the chat turn
        log.exception("keeping the snapshot of answer %s failed", message_id)
        return False
    return True


async def stored_view(engine: AsyncEngine, message_id: str, author: str | None) -> ViewLookup:
    """The view stored with `message_id`, if that message is in one of `author`'s chats (None: anonymous chats)."""
    owner_of_view = answer_views.c.author == author if author is not None else answer_views.c.author.is_(None)
    own_copy = sa.select(answer_views.c.view_json).where(answer_views.c.message_id == message_id, owner_of_view)
    steps, threads = metadata.tables["steps"], metadata.tables["threads"]
    owner = threads.c.userIdentifier == author if author is not None else threads.c.userIdentifier.is_(None)
    in_message = (sa.select(steps.c.metadata).select_from(steps.join(threads, steps.c.threadId == threads.c.id))
                  .where(steps.c.id == message_id, owner))
    try:
        async with engine.connect() as conn:
            kept = (await conn.execute(own_copy)).first()
            row = None if kept is not None else (await conn.execute(in_message)).first()
    except Exception as exc:  # noqa: BLE001 — the user is told what failed instead of a silent refusal
        return ViewLookup(reason=f"the app database could not be read ({_short(exc)}); try again once it is back")
    if kept is not None:
        return _validated(lambda: AnswerView.model_validate_json(kept.view_json))
    if row is None:
        return ViewLookup(reason="the app database holds no such answer in your chats: saving it failed "
                                 "(see the server log) or its chat was deleted")
    stored = json.loads(row.metadata) if isinstance(row.metadata, str) else (row.metadata or {})
    if VIEW_METADATA_KEY not in stored:
        return ViewLookup(reason="this message was stored without its answer snapshot (it is not an answer, or it "
                                 "was made by a Citewalk version that did not keep one); ask the question again")
    return _validated(lambda: AnswerView.model_validate(stored[VIEW_METADATA_KEY]))


def _validated(read: Callable[[], AnswerView]) -> ViewLookup:
    try:
        return ViewLookup(view=read())
    except ValidationError as exc:
        return ViewLookup(reason=f"its stored snapshot no longer matches this Citewalk version ({exc.error_count()} "
                                 "fields differ); ask the question again")
