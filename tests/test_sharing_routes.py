"""`/answers/<token>` over HTTP: who may read, who may revoke, and what bad tokens get."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from core.app_db import make_engine
from core.settings import Settings
from tests.render_support import hostile_view
from tests.route_support import AUTH_SECRET, share_app, sign_in


@pytest.fixture()
def served(tmp_path: Path, monkeypatch) -> Iterator[tuple[TestClient, str]]:
    monkeypatch.setenv("CHAINLIT_AUTH_SECRET", AUTH_SECRET)
    app, token = share_app(make_engine(Settings(data_dir=tmp_path)), "alice@example.org", "m1", hostile_view())
    with TestClient(app) as client:
        yield client, token


def test_signed_in_reader_sees_the_answer(served):
    client, token = served
    sign_in(client, "bob@example.org")
    page = client.get(f"/answers/{token}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page.text
    assert "Revoke this link" not in page.text  # bob is not the author


def test_signed_out_reader_is_asked_to_sign_in(served):
    client, token = served
    page = client.get(f"/answers/{token}")
    assert page.status_code == 401 and 'href="/login"' in page.text
    client.cookies.set("access_token", "forged.jwt.value")
    assert client.get(f"/answers/{token}").status_code == 401


@pytest.mark.parametrize("path", ["/answers/nope", "/answers/..%2F..%2Fetc%2Fpasswd", "/answers/%2e%2e",
                                  "/answers/" + "A" * 32])
def test_bad_tokens_are_404(served, path):
    client, _ = served
    sign_in(client, "bob@example.org")
    assert client.get(path).status_code == 404


def test_only_the_author_revokes(served):
    client, token = served
    sign_in(client, "bob@example.org")
    assert client.post(f"/answers/{token}/revoke").status_code == 403
    sign_in(client, "alice@example.org")
    assert "Revoke this link" in client.get(f"/answers/{token}").text
    done = client.post(f"/answers/{token}/revoke", follow_redirects=False)
    assert done.status_code == 303
    assert client.get(f"/answers/{token}").status_code == 404
    assert client.post(f"/answers/{token}/revoke").status_code == 404


def test_routes_come_before_the_spa_catch_all(served):
    client, _ = served
    assert client.get("/somewhere").json() == {"spa": "somewhere"}
