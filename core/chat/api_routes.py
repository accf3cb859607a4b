"""`POST /api/ask`: the answering service over JSON, for programmatic clients and the load benchmark.

Auth is Chainlit's session JWT (cookie from `POST /login`, or `Authorization: Bearer <jwt>`); none in the anonymous
demo mode. A semaphore bounds how many CPU-bound answers run at once, so a burst queues instead of thrashing.
"""
from __future__ import annotations

import asyncio
import os
import uuid
from datetime import date

from chainlit.auth import get_current_user
from chainlit.user import PersistedUser, User
from fastapi import Depends, FastAPI, HTTPException, Request
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncEngine

from core.answer.models import AnswerEnvelope
from core.chat.answering import chat_envelope, unheard
from core.chat.controls import RunOptions
from core.chat.evidence import answer_view
from core.chat.rate_limits import AskLimit
from core.chat.share_routes import routes_first
from core.render.export import AnswerExport, answer_export, export_markdown
from core.retrieval.base import DEFAULT_METHOD
from core.retrieval.registry import RETRIEVERS
from core.settings import Settings
from core.sharing import create_link
from core.stores.corpora import answerable_corpora
from core.stores.graph_reader import reader_for

ANONYMOUS = "anonymous"
# Raw request cap, far above question_max_chars: longer bodies are refused before any work; shorter
# over-long questions get the service's own "please shorten it" answer.
MAX_BODY_CHARS = 200_000
# Two answers per core keep both cores busy while one waits on Neo4j; more only adds contention.
CONCURRENT_ANSWERS = max(2, 2 * (os.cpu_count() or 1))


class AskRequest(BaseModel):
    question: str = Field(max_length=MAX_BODY_CHARS)
    corpus: str | None = Field(default=None, max_length=200, description="default: the app's default corpus")
    method: str = DEFAULT_METHOD
    share: bool = Field(default=False, description="also create a permalink (/answers/<token>) to the answer")
    export: bool = Field(default=False, description="also return the audit-file export (as the chat's Export gives)")
    as_of: date | None = Field(default=None, description="the date the law is read for, YYYY-MM-DD (default: today)")


class AskResponse(AnswerEnvelope):
    permalink: str | None = Field(default=None, description="path of the shared answer when `share` was asked")
    answer_id: str = Field(default="", description="this answer's id: the permalink's, and the export's")
    export: AnswerExport | None = Field(default=None, description="the export's content when `export` was asked")
    export_markdown: str | None = Field(default=None, description="the same export as Markdown")


def _corpus(requested: str | None, settings: Settings) -> str:
    corpus = requested or settings.default_corpus
    # Checked against what is on disk: an unknown name is a 404, and never reaches a store as text.
    if corpus not in (known := answerable_corpora(settings)):
        raise HTTPException(status_code=404, detail=f"corpus: unknown corpus {corpus[:80]!r}; "
                                                    f"the corpora here are: {', '.join(known) or 'none yet'}")
    return corpus


def _method(requested: str) -> str:
    if requested not in RETRIEVERS:
        raise HTTPException(status_code=422, detail=f"unknown method; choose from {', '.join(sorted(RETRIEVERS))}")
    return requested


def install_api_routes(app: FastAPI, engine: AsyncEngine, settings: Settings) -> None:
    graph = reader_for(settings)  # the chat's reader too: one driver, one behaviour when Neo4j is down
    gate = asyncio.Semaphore(CONCURRENT_ANSWERS)
    limit = AskLimit(settings)

    async def ask(body: AskRequest, request: Request,
                  user: User | PersistedUser | None = Depends(get_current_user)) -> AskResponse:
        limit.check(request, user.identifier if user else None)  # 429 before any work, a bogus corpus's included
        # Checking the name lists the data dir: a thread's job, not the loop's.
        corpus, method = await asyncio.to_thread(_corpus, body.corpus, settings), _method(body.method)
        async with gate:
            as_of = body.as_of.isoformat() if body.as_of else None
            envelope = await chat_envelope(body.question, RunOptions(corpus=corpus, method=method, as_of=as_of), settings,
                                           unheard, for_api=True)
            if envelope is None:
                raise HTTPException(status_code=503, detail="the answer ended without a result; ask again")
            permalink, export, answer_id = None, None, f"api-{uuid.uuid4()}"
            if (body.share or body.export) and envelope.error is None:
                driver = await asyncio.to_thread(graph.driver_or_none)  # None: the view is built from the envelope alone
                view = await asyncio.to_thread(answer_view, driver, settings.neo4j_database, envelope)
                if body.share:
                    author = user.identifier if user else ANONYMOUS
                    permalink = f"/answers/{await create_link(engine, author, answer_id, view)}"
                if body.export:
                    export = await asyncio.to_thread(answer_export, view, answer_id)
        markdown = await asyncio.to_thread(export_markdown, export) if export else None
        return AskResponse(**envelope.model_dump(), permalink=permalink, answer_id=answer_id, export=export,
                           export_markdown=markdown)

    app.add_api_route("/api/ask", ask, methods=["POST"], response_model=AskResponse)
    routes_first(app, 1)
