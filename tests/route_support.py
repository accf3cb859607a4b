"""The chat's share routes on a bare FastAPI app, as tests of the HTTP routes need them: a fresh app database
with one shared answer, and a catch-all standing in for Chainlit's SPA (the routes must come before it)."""
from __future__ import annotations

import asyncio

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from core.app_db import create_schema
from core.chat.share_routes import install_share_routes
from core.render.view import AnswerView
from core.sharing import create_link

AUTH_SECRET = "test-secret-" + "x" * 40  # CHAINLIT_AUTH_SECRET: the session cookies below are signed with it


def share_app(engine: AsyncEngine, author: str, message_id: str, view: AnswerView) -> tuple[FastAPI, str]:
    """The app and the token of `view`, shared by `author`; add more routes before the client starts."""
    async def setup() -> str:
        await create_schema(engine)
        return await create_link(engine, author, message_id, view)

    token = asyncio.run(setup())
    app = FastAPI()

    @app.get("/{full_path:path}")
    async def spa(full_path: str) -> dict:
        return {"spa": full_path}

    install_share_routes(app, engine, public_links=False, anonymous=False)
    return app, token


def sign_in(client: TestClient, email: str) -> None:
    # Late: importing chainlit.auth loads the project's Chainlit config, which only the tests that sign in need.
    from chainlit.auth.jwt import create_jwt
    from chainlit.user import User

    client.cookies.set("access_token", create_jwt(User(identifier=email)))
