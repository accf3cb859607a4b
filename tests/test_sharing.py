"""Permalinks, accounts and Chainlit's data layer on the app database: SQLite by default, PostgreSQL via DATABASE_URL."""
from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.accounts import authenticate, ensure_accounts
from core.app_db import create_schema, database_url, make_engine
from core.settings import Settings
from core.sharing import Access, create_link, get_link, revoke_link, valid_token, view_access
from tests.render_support import hostile_view
from tests.sharing_support import PG_BIN, postgres_cluster

BAD_TOKENS = ["", "short", "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "a" * 31 + "/", "a" * 31 + ".", "a" * 33,
              "a" * 31 + "'", "x" * 32 + "\x00"]


def _settings(tmp: Path, url: str | None = None) -> Settings:
    return Settings(data_dir=tmp, database_url=url, admin_email="Admin@Example.org", admin_password=None,
                    app_users={"colleague@example.org": "pw-colleague"})


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if not (PG_BIN / "initdb").exists():
        pytest.skip("PostgreSQL 15 binaries not installed")
    with postgres_cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def app_settings(request, tmp_path: Path) -> Settings:
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
    if url:
        # A fresh schema per test on the shared cluster, so tests do not see each other's rows.
        url = _fresh_database(url)
    return _settings(tmp_path, url)


def _fresh_database(url: str) -> str:
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    name = f"t_{uuid.uuid4().hex[:10]}"
    admin = url.replace("postgresql://", "postgresql+asyncpg://")

    async def create() -> None:
        engine = create_async_engine(admin, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        await engine.dispose()

    asyncio.run(create())
    return url.rsplit("/", 1)[0] + f"/{name}"


def run(coro):
    return asyncio.run(coro)


def test_database_url_choice(tmp_path: Path):
    assert database_url(_settings(tmp_path)).startswith("sqlite+aiosqlite:///")
    assert database_url(_settings(tmp_path, "postgres://u:p@h:5/db")) == "postgresql+asyncpg://u:p@h:5/db"


def test_token_shape():
    from core.sharing import new_token

    token = new_token()
    assert valid_token(token) and len(token) == 32  # 24 random bytes = 192 bits
    assert all(not valid_token(t) for t in BAD_TOKENS)


def test_permalink_lifecycle(app_settings: Settings):
    async def scenario() -> None:
        engine = make_engine(app_settings)
        await create_schema(engine)
        await create_schema(engine)  # idempotent
        view = hostile_view()
        token = await create_link(engine, "alice@example.org", "msg-1", view)
        assert await create_link(engine, "alice@example.org", "msg-1", view) == token
        assert await create_link(engine, "bob@example.org", "msg-1", view) != token
        link = await get_link(engine, token)
        assert link is not None and link.view == view and link.author == "alice@example.org"
        for bad in BAD_TOKENS:
            assert await get_link(engine, bad) is None
        assert view_access(link, "bob@example.org", public_links=False) is Access.ALLOWED
        assert view_access(link, None, public_links=False) is Access.SIGN_IN
        assert view_access(link, None, public_links=True) is Access.ALLOWED
        assert await revoke_link(engine, token, "bob@example.org") is Access.FORBIDDEN
        assert await revoke_link(engine, token, "alice@example.org") is Access.ALLOWED
        assert view_access(await get_link(engine, token), "alice@example.org", True) is Access.NOT_FOUND
        assert await revoke_link(engine, token, "alice@example.org") is Access.NOT_FOUND
        fresh = await create_link(engine, "alice@example.org", "msg-1", view)
        fresh_link = await get_link(engine, fresh)
        assert fresh != token and fresh_link is not None and fresh_link.revoked_at is None
        await engine.dispose()

    run(scenario())


def test_accounts(app_settings: Settings):
    async def scenario() -> None:
        engine = make_engine(app_settings)
        await create_schema(engine)
        await ensure_accounts(engine, app_settings)
        await ensure_accounts(engine, app_settings)
        password = (app_settings.app_path / "admin-password").read_text().strip()
        assert len(password) >= 16
        admin = await authenticate(engine, " admin@example.ORG", password)
        assert admin is not None and admin.role == "admin"
        assert await authenticate(engine, "admin@example.org", password + "x") is None
        colleague = await authenticate(engine, "colleague@example.org", "pw-colleague")
        assert colleague is not None and colleague.role == "user"
        assert await authenticate(engine, "nobody@example.org", "pw-colleague") is None
        await engine.dispose()

    run(scenario())
    assert (app_settings.app_path / "admin-password").stat().st_mode & 0o077 == 0


def test_chainlit_data_layer_keeps_threads_across_restarts(app_settings: Settings):
    """Thread, steps, element props and feedback written by one data layer are read back by a new one, the JSON it
    stored (a step's metadata, an answer's card props) as JSON: a resumed chat mounts its cards from them."""
    from chainlit.element import CustomElement
    from chainlit.types import Feedback, ThreadDict
    from chainlit.user import User

    from core.chat.data_layer import CitewalkDataLayer
    from core.chat.storage import LocalStorageClient

    thread_id, step_id = str(uuid.uuid4()), str(uuid.uuid4())

    def layer() -> CitewalkDataLayer:
        return CitewalkDataLayer(conninfo=database_url(app_settings),
                                 storage_provider=LocalStorageClient(app_settings.app_path / "elements"))

    async def write() -> None:
        from chainlit.context import init_http_context

        init_http_context(thread_id=thread_id)  # the data layer's write methods read Chainlit's request context
        engine = make_engine(app_settings)
        await create_schema(engine)
        await engine.dispose()
        data = layer()
        user = await data.create_user(User(identifier="alice@example.org", metadata={"role": "user"}))
        assert user is not None
        await data.update_thread(thread_id, name="Research disclosures", user_id=user.id, metadata={"is_shared": True})
        await data.create_step({"id": step_id, "threadId": thread_id, "name": "Citewalk", "type": "assistant_message",
                                "output": "answer", "streaming": False, "createdAt": "2026-01-01T00:00:00Z",
                                "metadata": {"citewalk_view": {"k": 1}}})
        await data.upsert_feedback(Feedback(forId=step_id, value=1, threadId=thread_id, comment="useful"))
        await data.create_element(CustomElement(name="AnswerCards", thread_id=thread_id, for_id=step_id,
                                                props={"cards": [{"unit_id": "u1", "claims": []}], "answerId": step_id}))
        await data.engine.dispose()

    async def read() -> ThreadDict:
        data = layer()
        thread = await data.get_thread(thread_id)
        await data.engine.dispose()
        assert thread is not None
        return thread

    run(write())
    thread = run(read())
    assert thread["name"] == "Research disclosures" and thread["userIdentifier"] == "alice@example.org"
    step = next(s for s in thread["steps"] if s["id"] == step_id)
    assert step["output"] == "answer" and step["feedback"]["value"] == 1
    assert step["metadata"]["citewalk_view"] == {"k": 1}
    [element] = thread["elements"]
    assert element["props"] == {"cards": [{"unit_id": "u1", "claims": []}], "answerId": step_id}
