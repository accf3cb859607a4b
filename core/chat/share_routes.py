"""`/answers/<token>`: the read-only page of a shared answer, and its revocation by the author.

Chainlit serves its SPA from a catch-all GET route; routes added after it are never reached, so these are
moved to the front of the router. Chainlit's own auth dependency answers 401 JSON; a person following a
link should get a page, so the session cookie is read here and an absent/invalid one means "not signed in".
"""
from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncEngine

from core.render.share_page import CONTENT_SECURITY_POLICY, message_page_html, share_page_html
from core.sharing import Access, get_link, revoke_link, view_access

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "private, no-store",
}
_MESSAGES = {
    Access.SIGN_IN: ("Sign in to read this answer", "Shared answers are visible to signed-in users of this Citewalk."),
    Access.FORBIDDEN: ("Not allowed", "Only the person who shared this answer can revoke its link."),
    Access.NOT_FOUND: ("Link not found", "This answer link does not exist or has been revoked."),
}


def signed_in_user(request: Request) -> str | None:
    from chainlit.auth import get_token_from_cookies
    from chainlit.auth.jwt import decode_jwt

    token = get_token_from_cookies(request.cookies)
    if not token:
        return None
    try:
        return decode_jwt(token).identifier
    except Exception:  # noqa: BLE001 — expired, forged or from another secret: treated as signed out
        return None


def page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


def refusal(access: Access) -> HTMLResponse:
    title, message = _MESSAGES[access]
    return page(message_page_html(title, message, sign_in_link=access is Access.SIGN_IN), access.value)


def install_share_routes(app: FastAPI, engine: AsyncEngine, public_links: bool, anonymous: bool) -> None:
    async def show_answer(token: str, request: Request) -> Response:
        link = await get_link(engine, token)
        viewer = signed_in_user(request)
        access = view_access(link, viewer, public_links or anonymous)
        if access is not Access.ALLOWED or link is None:
            return refusal(access)
        revoke_url = f"/answers/{link.token}/revoke" if viewer == link.author else None
        # The page carries the citation graph: rendering it is CPU work, kept off the loop.
        html = await asyncio.to_thread(lambda: share_page_html(link.view, shared_by=link.author,
                                                               created_at=link.created_at, revoke_url=revoke_url,
                                                               token=link.token))
        return page(html)

    async def revoke_answer(token: str, request: Request) -> Response:
        viewer = signed_in_user(request)
        if viewer is None:
            return refusal(Access.SIGN_IN)
        access = await revoke_link(engine, token, viewer)
        if access is not Access.ALLOWED:
            return refusal(access)
        return RedirectResponse(f"/answers/{token}", status_code=303)

    # `:path` so that anything under /answers/ (encoded slashes, traversal attempts) gets our 404, not the SPA.
    app.add_api_route("/answers/{token:path}", show_answer, methods=["GET"], response_class=HTMLResponse)
    app.add_api_route("/answers/{token}/revoke", revoke_answer, methods=["POST"], response_class=HTMLResponse)
    routes_first(app, 2)


def routes_first(app: FastAPI, count: int) -> None:
    """Moves the last `count` routes ahead of Chainlit's SPA catch-all, which would otherwise answer every GET."""
    added = app.router.routes[-count:]
    del app.router.routes[-count:]
    app.router.routes[0:0] = added
