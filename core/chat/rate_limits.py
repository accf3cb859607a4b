"""Rate limits on signing in and on `POST /api/ask`: token buckets, refused with 429 and Retry-After.

- `POST /login`: every attempt per client address (password checks are CPU work), and failed attempts per account
  name (guessing one account's password from many addresses);
- `POST /api/ask`: per account, or per client address when the app is anonymous.

The buckets live in the worker's memory: with N `core.serve` workers a client gets up to N times the rate, and
a restart forgets them. The client address is the one uvicorn reports (behind a proxy, set its forwarded-ips so
that it is the client's, not the proxy's). Each limiter keeps at most `MAX_KEYS` buckets, dropping the least
recently used, so a flood of addresses or names cannot grow memory without bound.
"""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request, Response
from fastapi.security import OAuth2PasswordRequestForm

from core.chat.share_routes import routes_first
from core.settings import Settings

MAX_KEYS = 10_000
LoginRoute = Callable[[Request, Response, OAuth2PasswordRequestForm], Awaitable[Any]]


class TokenBuckets:
    """One bucket per key: `burst` tokens, refilled at `per_minute`; a request takes one."""

    def __init__(self, burst: int, per_minute: float, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = MAX_KEYS) -> None:
        self.burst, self.rate, self.clock, self.max_keys = burst, per_minute / 60.0, clock, max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, when counted)

    def _tokens(self, key: str) -> float:
        tokens, counted = self._buckets.get(key, (float(self.burst), self.clock()))
        return min(float(self.burst), tokens + (self.clock() - counted) * self.rate)

    def wait_s(self, key: str) -> float:
        """Seconds until `key` has a token (0: it has one now); takes none."""
        return max(0.0, (1.0 - self._tokens(key)) / self.rate)

    def take(self, key: str) -> float:
        """Takes a token and returns 0, or returns the seconds until there is one."""
        tokens = self._tokens(key)
        if tokens < 1.0:
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, self.clock())
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return 0.0


def refuse_if_waiting(wait_s: float, what: str) -> None:
    if wait_s > 0:
        retry = max(1, math.ceil(wait_s))
        raise HTTPException(status_code=429, detail=f"too many {what}; try again in {retry} s",
                            headers={"Retry-After": str(retry)})


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class AskLimit:
    """`POST /api/ask`'s limit, checked by the route before it reads the request's corpus or starts an answer."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.buckets = TokenBuckets(settings.ask_rate_burst, settings.ask_rate_per_minute, clock)

    def check(self, request: Request, account: str | None) -> None:
        key = f"account:{account}" if account else f"address:{client_address(request)}"
        refuse_if_waiting(self.buckets.take(key), "questions")


def install_login_limits(app: FastAPI, settings: Settings, login: LoginRoute, path: str = "/login",
                         clock: Callable[[], float] = time.monotonic) -> None:
    """Puts a limited `POST <path>` ahead of `login` (Chainlit's own route at that path), which it calls for the
    sign-in itself."""
    attempts = TokenBuckets(settings.login_rate_burst, settings.login_rate_per_minute, clock)
    failures = TokenBuckets(settings.login_failures_burst, settings.login_failures_per_minute, clock)

    async def limited_login(request: Request, response: Response,
                            form_data: OAuth2PasswordRequestForm = Depends()) -> Any:
        refuse_if_waiting(attempts.take(client_address(request)), "sign-in attempts from this address")
        account = form_data.username.strip().casefold()[:320]
        refuse_if_waiting(failures.wait_s(account), "failed sign-ins for this account")
        try:
            return await login(request, response, form_data)
        except HTTPException as exc:
            if exc.status_code == 401:
                failures.take(account)
            raise

    app.add_api_route(path, limited_login, methods=["POST"])
    routes_first(app, 1)
