"""A signed-in client of the app's JSON API (`POST /login`, then `POST /api/ask`), for the load benchmark and tests."""
from __future__ import annotations

import httpx


def _client(url: str, timeout: httpx.Timeout | float, cookies: httpx.Cookies | None = None) -> httpx.AsyncClient:
    # Idle connections are dropped before uvicorn's 5 s keep-alive timeout: reusing one the server is closing
    # at that moment fails with a ReadError that says nothing about the app.
    return httpx.AsyncClient(base_url=url, timeout=timeout, cookies=cookies, limits=httpx.Limits(keepalive_expiry=2.0))


def same_session(client: httpx.AsyncClient, url: str) -> httpx.AsyncClient:
    """A client of another worker carrying this client's session cookie (workers share CHAINLIT_AUTH_SECRET)."""
    return _client(url, client.timeout, client.cookies)


async def signed_in(url: str, email: str, password: str, timeout_s: float = 120) -> httpx.AsyncClient:
    """An httpx client holding the session cookie Chainlit's login sets; the caller closes it."""
    client = _client(url, timeout_s)
    response = await client.post("/login", data={"username": email, "password": password})
    if response.status_code != 200:
        await client.aclose()
        raise RuntimeError(f"sign-in as {email} at {url} failed: HTTP {response.status_code} {response.text[:200]}")
    return client


async def ask(client: httpx.AsyncClient, question: str, corpus: str | None = None, method: str | None = None,
              share: bool = False) -> httpx.Response:
    body: dict[str, object] = {"question": question, "share": share}
    if corpus:
        body["corpus"] = corpus
    if method:
        body["method"] = method
    return await client.post("/api/ask", json=body)
