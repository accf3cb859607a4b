""""See the source" and "Export" over HTTP, for the chat's cards, the permalink page and API clients.

- `POST /api/source`: a unit in its document (core.render.source_view) as JSON, the answer's quotes marked, its
  words those in force on `as_of` when given (with its version timeline);
- `POST /api/source/compare`: two of a unit's wordings, named by their dates in force, word by word;
- `GET /api/source/page?unit=<id>&quote=…`: a PDF unit's page as a PNG, its words and the quotes marked;
- `GET /api/answers/<message id>/export?format=md|docx`: an answer of one's own chats, as a file;
- `GET /answers/<token>/source?unit=<id>`, `…/source/page?unit=<id>` and `GET /answers/<token>/export?format=…`:
  the same, read-only, for whoever may read the permalink (its snapshot gives the quotes, the date and the
  export), for the units the shared answer shows (`AnswerView.unit_ids`) and no others;
  `…/source?unit=<id>&version=<date>` shows one version's wording, `&old=<date>&new=<date>` compares two.

Auth is the chat's own (Chainlit's session JWT, cookie or bearer); the permalink pages follow the link's rules.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from typing import TypeVar
from urllib.parse import quote as url_quote

from chainlit.auth import get_current_user
from chainlit.user import PersistedUser, User
from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from neo4j import Driver
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncEngine

from core.chat.share_routes import SECURITY_HEADERS, page, refusal, routes_first, signed_in_user
from core.chat.stored_views import stored_view
from core.render.compare import Comparison
from core.render.export import render_export
from core.render.highlight import Quote
from core.render.pdf_page import PageUnavailable, unit_page_png
from core.render.share_page import source_page_html
from core.render.source_view import (
    NEIGHBOURS,
    WHOLE_DOCUMENT,
    SourceView,
    answer_quotes,
    read_comparison,
    read_source_view,
)
from core.render.view import AnswerView
from core.settings import Settings
from core.sharing import Access, get_link, view_access
from core.stores.graph_reader import reader_for

MAX_QUOTES = 200
# A permalink opens its own answer's units only: with public links on, anything more would be anonymous access to
# the whole corpus and to its page renders.
NOT_SHARED = "this provision is not part of the shared answer; the link opens only the provisions its answer shows"
GONE = "this provision is not in the stored corpus (re-ingested or removed)"
PAGE_QUOTES = 20
# Source views read on threads of their own: a click right after an answer must not queue behind the answer's
# own worker-thread work (persisting steps and elements) in the default pool.
_READERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="citewalk-source")
T = TypeVar("T")


class SourceRequest(BaseModel):
    unit_id: str = Field(min_length=1, max_length=2_000)
    quotes: list[Quote] = Field(default_factory=list, max_length=MAX_QUOTES)
    above: int = Field(default=NEIGHBOURS, ge=0, le=WHOLE_DOCUMENT)
    below: int = Field(default=NEIGHBOURS, ge=0, le=WHOLE_DOCUMENT)
    as_of: date | None = Field(default=None, description="show the words in force on this date, YYYY-MM-DD")


class CompareRequest(BaseModel):
    unit_id: str = Field(min_length=1, max_length=2_000)
    old: date = Field(description="the date in force of one wording")
    new: date = Field(description="the date in force of the other")


async def download(view: AnswerView, answer_id: str, fmt: str) -> Response:
    try:
        # Building a DOCX is CPU work of tens of milliseconds: off the loop that serves every other chat.
        body, media_type, name = await asyncio.to_thread(render_export, view, answer_id, fmt)
    except ValueError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from exc
    headers = {**SECURITY_HEADERS, "Content-Disposition": f"attachment; filename=\"{name}\"; filename*=UTF-8''{url_quote(name)}"}
    return Response(body, media_type=media_type, headers=headers)


def _day(name: str, text: str) -> str | None:
    """A date from the permalink page's query (empty: none); anything else is refused by name."""
    if not text:
        return None
    try:
        return date.fromisoformat(text[:40]).isoformat()
    except ValueError:
        raise HTTPException(status_code=422, detail=f"{name}: {text[:40]!r} is not a date (write YYYY-MM-DD)") from None


def install_source_routes(app: FastAPI, engine: AsyncEngine, settings: Settings, public_links: bool) -> None:
    graph = reader_for(settings)

    async def stored(read: Callable[[Driver, str], T | None], missing: str = GONE) -> T:
        """What `read` gives through the reader on a source thread: 503 when Neo4j fails, 404 (`missing`) for None."""
        value, problem = await asyncio.get_running_loop().run_in_executor(_READERS, graph.call, read, None)
        if problem:
            raise HTTPException(status_code=503, detail=problem)
        if value is None:
            raise HTTPException(status_code=404, detail=missing)
        return value

    async def read(unit_id: str, quotes: list[Quote], above: int, below: int, as_of: str | None = None) -> SourceView:
        return await stored(lambda driver, database: read_source_view(driver, database, unit_id, quotes, above, below,
                                                                      as_of=as_of))

    async def compared(unit_id: str, old: str, new: str) -> Comparison:
        return await stored(lambda driver, database: read_comparison(driver, database, unit_id, old, new),
                            f"this provision has no wordings in force from {old} and {new}")

    async def source(body: SourceRequest, user: User | PersistedUser | None = Depends(get_current_user)) -> SourceView:
        return await read(body.unit_id, body.quotes, body.above, body.below, body.as_of.isoformat() if body.as_of else None)

    async def compare_versions(body: CompareRequest,
                               user: User | PersistedUser | None = Depends(get_current_user)) -> Comparison:
        return await compared(body.unit_id, body.old.isoformat(), body.new.isoformat())

    async def rendered_page(unit: str, quotes: list[str]) -> Response:
        def render(driver: Driver, database: str) -> bytes | str | None:
            try:
                return unit_page_png(driver, database, unit, quotes)
            except PageUnavailable as exc:
                return str(exc)

        found = await stored(render)
        if isinstance(found, str):
            raise HTTPException(status_code=404, detail=found)
        return Response(found, media_type="image/png", headers={**SECURITY_HEADERS, "Cache-Control": "private, max-age=300"})

    async def page_image(unit: str = Query(min_length=1, max_length=2_000),
                         quote: list[str] = Query(default_factory=list, max_length=PAGE_QUOTES),
                         user: User | PersistedUser | None = Depends(get_current_user)) -> Response:
        return await rendered_page(unit, [q[:2_000] for q in quote])

    async def export_answer(message_id: str, format: str = "docx",
                            user: User | PersistedUser | None = Depends(get_current_user)) -> Response:
        found = await stored_view(engine, message_id, user.identifier if user else None)
        if found.view is None:
            raise HTTPException(status_code=404, detail=f"this answer cannot be exported: {found.reason}")
        return await download(found.view, message_id, format)

    async def shared(token: str, request: Request) -> AnswerView | HTMLResponse:
        link = await get_link(engine, token)
        access = view_access(link, signed_in_user(request), public_links)
        if access is not Access.ALLOWED or link is None:
            return refusal(access)
        return link.view

    async def shared_source(token: str, request: Request, unit: str = "", whole: bool = False, version: str = "",
                            old: str = "", new: str = "") -> Response:
        view = await shared(token, request)
        if isinstance(view, HTMLResponse):
            return view
        units = view.unit_ids()
        span = WHOLE_DOCUMENT if whole else NEIGHBOURS
        comparison: Comparison | None = None
        try:
            if unit not in units:
                raise HTTPException(status_code=404, detail=NOT_SHARED)
            shown = _day("version", version)
            found = await read(unit, answer_quotes(view), span, span, view.as_of)
            if old or new:
                comparison = await compared(unit, _day("old", old) or "", _day("new", new) or "")
        except HTTPException as exc:
            problem, status = str(exc.detail), exc.status_code
            html = await asyncio.to_thread(lambda: source_page_html(None, token=token, problem=problem,
                                                                    question=view.question, shared=units))
            return page(html, status)
        return page(await asyncio.to_thread(lambda: source_page_html(found, token=token, question=view.question,
                                                                     shared=units, whole=whole, version=shown,
                                                                     comparison=comparison)))

    async def shared_page(token: str, request: Request, unit: str = "") -> Response:
        view = await shared(token, request)
        if isinstance(view, HTMLResponse):
            return view
        if unit not in view.unit_ids():
            raise HTTPException(status_code=404, detail=NOT_SHARED)
        return await rendered_page(unit, [q.text for q in answer_quotes(view) if q.unit_id == unit][:PAGE_QUOTES])

    async def shared_export(token: str, request: Request, format: str = "docx") -> Response:
        view = await shared(token, request)
        if isinstance(view, HTMLResponse):
            return view
        link = await get_link(engine, token)
        return await download(view, link.message_id if link else token, format)

    app.add_api_route("/api/source", source, methods=["POST"], response_model=SourceView)
    app.add_api_route("/api/source/compare", compare_versions, methods=["POST"], response_model=Comparison)
    app.add_api_route("/api/source/page", page_image, methods=["GET"])
    app.add_api_route("/api/answers/{message_id}/export", export_answer, methods=["GET"])
    app.add_api_route("/answers/{token}/source", shared_source, methods=["GET"], response_class=HTMLResponse)
    app.add_api_route("/answers/{token}/source/page", shared_page, methods=["GET"])
    app.add_api_route("/answers/{token}/export", shared_export, methods=["GET"])
    routes_first(app, 7)
