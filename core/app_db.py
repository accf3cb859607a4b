"""The app database: SQLite in the data dir by default, PostgreSQL when DATABASE_URL is set.

Chainlit's SQLAlchemy data layer ships no DDL, so its tables (quoted camelCase columns, as its queries
use them) are declared here and created on startup, next to the app's own tables (accounts, permalinks).
"""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from core.settings import Settings

metadata = sa.MetaData()

# Text ids on every dialect: Chainlit binds ids as strings and builds `IN ('…')` lists from them.
_Tags = sa.ARRAY(sa.Text).with_variant(sa.Text(), "sqlite")
# JSONB on PostgreSQL: Chainlit's thread query GROUPs BY metadata, and plain json has no equality operator.
_Json = sa.JSON().with_variant(JSONB(), "postgresql")


def _id() -> sa.Column:
    return sa.Column("id", sa.Text, primary_key=True)


sa.Table(
    "users", metadata, _id(),
    sa.Column("identifier", sa.Text, nullable=False, unique=True),
    sa.Column("metadata", _Json, nullable=False),
    sa.Column("createdAt", sa.Text),
)
sa.Table(
    "threads", metadata, _id(),
    sa.Column("createdAt", sa.Text), sa.Column("name", sa.Text),
    sa.Column("userId", sa.Text, sa.ForeignKey("users.id", ondelete="CASCADE")),
    sa.Column("userIdentifier", sa.Text), sa.Column("tags", _Tags), sa.Column("metadata", _Json),
)
sa.Table(
    "steps", metadata, _id(),
    sa.Column("name", sa.Text, nullable=False), sa.Column("type", sa.Text, nullable=False),
    sa.Column("threadId", sa.Text, sa.ForeignKey("threads.id", ondelete="CASCADE"), nullable=False),
    sa.Column("parentId", sa.Text), sa.Column("streaming", sa.Boolean, nullable=False),
    sa.Column("waitForAnswer", sa.Boolean), sa.Column("isError", sa.Boolean), sa.Column("metadata", _Json),
    sa.Column("tags", _Tags), sa.Column("input", sa.Text), sa.Column("output", sa.Text),
    sa.Column("createdAt", sa.Text), sa.Column("command", sa.Text), sa.Column("modes", _Json),
    sa.Column("start", sa.Text), sa.Column("end", sa.Text), sa.Column("generation", _Json),
    sa.Column("showInput", sa.Text), sa.Column("language", sa.Text), sa.Column("indent", sa.Integer),
    sa.Column("defaultOpen", sa.Boolean), sa.Column("autoCollapse", sa.Boolean), sa.Column("icon", sa.Text),
)
sa.Table(
    "elements", metadata, _id(),
    sa.Column("threadId", sa.Text, sa.ForeignKey("threads.id", ondelete="CASCADE")),
    sa.Column("type", sa.Text), sa.Column("url", sa.Text), sa.Column("chainlitKey", sa.Text),
    sa.Column("name", sa.Text, nullable=False), sa.Column("display", sa.Text), sa.Column("objectKey", sa.Text),
    sa.Column("size", sa.Text), sa.Column("page", sa.Integer), sa.Column("language", sa.Text),
    sa.Column("forId", sa.Text), sa.Column("mime", sa.Text), sa.Column("props", _Json),
    sa.Column("autoPlay", sa.Boolean), sa.Column("playerConfig", _Json),
)
sa.Table(
    "feedbacks", metadata, _id(),
    sa.Column("forId", sa.Text, nullable=False),
    sa.Column("threadId", sa.Text, sa.ForeignKey("threads.id", ondelete="CASCADE"), nullable=False),
    sa.Column("value", sa.Integer, nullable=False), sa.Column("comment", sa.Text),
)

# The app's own tables.
accounts = sa.Table(
    "citewalk_accounts", metadata,
    sa.Column("email", sa.Text, primary_key=True),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("role", sa.Text, nullable=False, server_default="user"),
)
permalinks = sa.Table(
    "citewalk_permalinks", metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("author", sa.Text, nullable=False),
    sa.Column("message_id", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("revoked_at", sa.Text),
    sa.Column("view_json", sa.Text, nullable=False),
    sa.UniqueConstraint("author", "message_id", name="uq_permalink_author_message"),
)
# Each answer's snapshot, written by the app once the answer is shown. Chainlit persists a message's metadata
# in fire-and-forget writes, one per streamed update, each a whole-row upsert: on a loaded machine an earlier
# one (without the snapshot) can land last, and the answer could then be neither shared nor exported.
answer_views = sa.Table(
    "citewalk_answer_views", metadata,
    sa.Column("message_id", sa.Text, primary_key=True),
    sa.Column("author", sa.Text),  # None: an anonymous chat
    sa.Column("view_json", sa.Text, nullable=False),
)


def database_url(settings: Settings) -> str:
    """An async SQLAlchemy URL: DATABASE_URL (postgres:// or postgresql://) or the SQLite file."""
    if settings.database_url:
        url = sa.engine.make_url(settings.database_url)
        if url.drivername in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg"):
            url = url.set(drivername="postgresql+asyncpg")
        return url.render_as_string(hide_password=False)
    settings.app_path.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{settings.app_path / 'citewalk.db'}"


def make_engine(settings: Settings) -> AsyncEngine:
    return create_async_engine(database_url(settings))


async def create_schema(engine: AsyncEngine) -> None:
    """Idempotent: creates missing tables only (existing data and threads survive restarts)."""
    async with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            # WAL lets Chainlit's engine and ours write the same file without "database is locked".
            await conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        await conn.run_sync(metadata.create_all)
