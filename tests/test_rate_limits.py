"""Rate limits: the token buckets, `POST /login` through Chainlit's own sign-in, and `POST /api/ask`, each hit."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from core.app_db import make_engine
from core.chat.api_routes import install_api_routes
from core.chat.rate_limits import TokenBuckets, install_login_limits
from core.settings import Settings
from tests.route_support import AUTH_SECRET, sign_in

PASSWORD = "right-pass-1"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_its_rate_and_forgets_the_least_recent_keys():
    clock = Clock()
    buckets = TokenBuckets(burst=2, per_minute=60, clock=clock, max_keys=3)
    assert buckets.take("a") == buckets.take("a") == 0.0
    assert buckets.wait_s("a") == pytest.approx(1.0) and buckets.take("a") == pytest.approx(1.0)
    assert buckets.take("b") == 0.0  # another key, its own bucket
    clock.now += 0.5
    assert buckets.take("a") == pytest.approx(0.5)
    clock.now += 0.5
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    for key in "cdef":
        buckets.take(key)
    assert len(buckets._buckets) == 3


@pytest.fixture()
def chainlit_sign_in(monkeypatch) -> Iterator[None]:
    """Chainlit's password sign-in, with one password for every account, as app.py's callback gives it."""
    from chainlit.config import config
    from chainlit.user import User

    async def check(username: str, password: str) -> User | None:
        return User(identifier=username) if password == PASSWORD else None

    monkeypatch.setenv("CHAINLIT_AUTH_SECRET", AUTH_SECRET)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(config.code, "password_auth_callback", check)
    yield


def _login(client: TestClient, username: str, password: str):
    return client.post("/login", data={"username": username, "password": password})


def test_login_is_limited_per_address_and_per_account_failures(chainlit_sign_in, test_settings: Settings):
    from chainlit.server import login

    clock = Clock()
    settings = test_settings.model_copy(update={"login_rate_burst": 6, "login_rate_per_minute": 6,
                                                "login_failures_burst": 2, "login_failures_per_minute": 2})
    app = FastAPI()
    install_login_limits(app, settings, login, clock=clock)
    with TestClient(app) as client:
        assert _login(client, "ann@example.org", PASSWORD).status_code == 200
        assert client.cookies.get("access_token")
        assert [_login(client, "bob@example.org", "guess").status_code for _ in range(2)] == [401, 401]
        locked = _login(client, "Bob@example.org ", PASSWORD)  # the right password, once the guesses are spent
        assert locked.status_code == 429 and locked.headers["Retry-After"] == "30"
        assert "failed sign-ins for this account" in locked.json()["detail"]
        assert _login(client, "cat@example.org", PASSWORD).status_code == 200  # other accounts are not locked
        assert _login(client, "cat@example.org", PASSWORD).status_code == 200
        flooded = _login(client, "cat@example.org", PASSWORD)  # the address's seventh attempt
        assert flooded.status_code == 429 and flooded.headers["Retry-After"] == "10"
        assert "sign-in attempts from this address" in flooded.json()["detail"]
        clock.now += 30
        assert _login(client, "bob@example.org", PASSWORD).status_code == 200


def test_api_ask_is_limited_per_account(chainlit_sign_in, test_settings: Settings, tmp_path: Path):
    settings = test_settings.model_copy(update={"ask_rate_burst": 2, "ask_rate_per_minute": 1})
    app = FastAPI()
    install_api_routes(app, make_engine(settings.model_copy(update={"data_dir": tmp_path})), settings)
    body = {"question": "What must a contract contain?", "corpus": "no-such-corpus"}
    with TestClient(app) as client:
        assert client.post("/api/ask", json=body).status_code == 401  # the limit does not replace signing in
        sign_in(client, "ann@example.org")
        assert [client.post("/api/ask", json=body).status_code for _ in range(2)] == [404, 404]
        limited = client.post("/api/ask", json=body)
        assert limited.status_code == 429 and limited.headers["Retry-After"] == "60"
        assert "too many questions" in limited.json()["detail"]
        sign_in(client, "bob@example.org")
        assert client.post("/api/ask", json=body).status_code == 404
