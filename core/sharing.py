"""Answer permalinks: `/answers/<token>` snapshots of one answer, in the app database, revocable by their author.

The snapshot (AnswerView JSON) is stored rather than re-derived, so a link shows what its author saw.
Tokens are secrets.token_urlsafe(24): 192 bits, URL-safe; anything else is rejected before any query.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from core.app_db import permalinks
from core.render.view import AnswerView

TOKEN_BYTES = 24
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32}$")

@dataclass(frozen=True)
class Permalink:
    token: str
    author: str
    message_id: str
    created_at: str
    revoked_at: str | None
    view: AnswerView


class Access(Enum):
    ALLOWED = 200
    SIGN_IN = 401
    FORBIDDEN = 403
    NOT_FOUND = 404


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def valid_token(token: str) -> bool:
    return bool(_TOKEN.fullmatch(token))


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


async def create_link(engine: AsyncEngine, author: str, message_id: str, view: AnswerView) -> str:
    """One live link per (author, answer): asking again returns it; a revoked one is replaced by a fresh token."""
    async with engine.begin() as conn:
        row = (await conn.execute(
            sa.select(permalinks.c.token, permalinks.c.revoked_at)
            .where(permalinks.c.author == author, permalinks.c.message_id == message_id)
        )).first()
        if row is not None and row.revoked_at is None:
            return row.token
        if row is not None:
            await conn.execute(permalinks.delete().where(permalinks.c.token == row.token))
        token = new_token()
        await conn.execute(permalinks.insert().values(
            token=token, author=author, message_id=message_id, created_at=_now(), view_json=view.model_dump_json(),
        ))
        return token


async def get_link(engine: AsyncEngine, token: str) -> Permalink | None:
    if not valid_token(token):
        return None
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(permalinks).where(permalinks.c.token == token))).first()
    if row is None:
        return None
    return Permalink(
        token=row.token, author=row.author, message_id=row.message_id, created_at=row.created_at,
        revoked_at=row.revoked_at, view=AnswerView.model_validate_json(row.view_json),
    )


async def revoke_link(engine: AsyncEngine, token: str, user: str) -> Access:
    link = await get_link(engine, token)
    if link is None or link.revoked_at is not None:
        return Access.NOT_FOUND
    if link.author != user:
        return Access.FORBIDDEN
    async with engine.begin() as conn:
        await conn.execute(permalinks.update().where(permalinks.c.token == token).values(revoked_at=_now()))
    return Access.ALLOWED


def view_access(link: Permalink | None, viewer: str | None, public_links: bool) -> Access:
    """Revoked and unknown links look the same (404); signed-in users (or anyone, if public) may read."""
    if link is None or link.revoked_at is not None:
        return Access.NOT_FOUND
    if viewer is None and not public_links:
        return Access.SIGN_IN
    return Access.ALLOWED
