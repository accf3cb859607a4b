"""Citewalk chat: Chainlit events wired to core/ (rendering in core/render, glue in core/chat)."""
from __future__ import annotations

import asyncio

import chainlit as cl
from chainlit.logger import logger
from chainlit.server import app as fastapi_app
from chainlit.server import login as chainlit_login
from chainlit.server import router as chainlit_router
from chainlit.types import ThreadDict

from core.accounts import authenticate, ensure_accounts
from core.app_db import create_schema, database_url, make_engine
from core.chat import offline_page
from core.chat.answer_message import COPY_LINK_ACTION
from core.chat.api_routes import install_api_routes
from core.chat.controls import RunOptions, available_methods, read_as_of, read_options, settings_widgets
from core.chat.corpora import picker_corpora
from core.chat.data_layer import CitewalkDataLayer
from core.chat.element_faults import add_notice, send_each
from core.chat.rate_limits import install_login_limits
from core.chat.run_answer import answer_in_chat
from core.chat.share_routes import install_share_routes
from core.chat.source_routes import install_source_routes
from core.chat.starters import starters_for
from core.chat.storage import LocalStorageClient
from core.chat.stored_views import keep_view, save_view, stored_view, views_in_steps
from core.chat.warmup import warm_up
from core.kept_secrets import ensure_auth_secret
from core.render.markdown import escape_markdown
from core.render.view import AnswerView
from core.serve import files_folder_warning
from core.settings import get_settings
from core.sharing import create_link
from core.stores.corpora import answerable_corpora
from core.stores.graph_reader import reader_for

settings = get_settings()
if warning := files_folder_warning(settings):
    logger.warning(warning)
ensure_auth_secret(settings.app_path)
engine = make_engine(settings)
offline_page.install()
install_share_routes(fastapi_app, engine, settings.app_public_links, settings.app_anonymous)
install_source_routes(fastapi_app, engine, settings, settings.app_public_links or settings.app_anonymous)
ANONYMOUS = "anonymous"


# The process's one Neo4j reader, shared with the API routes: answers without it come from search alone, with a notice.
graph = reader_for(settings)
install_api_routes(fastapi_app, engine, settings)
install_login_limits(fastapi_app, settings, chainlit_login, path=f"{chainlit_router.prefix}/login")


@cl.on_app_startup
async def startup() -> None:
    await create_schema(engine)
    await ensure_accounts(engine, settings)
    await warm_up(settings)  # before serving: the first question must not pay for loading models and indexes


@cl.data_layer
def data_layer() -> CitewalkDataLayer:
    return CitewalkDataLayer(conninfo=database_url(settings), storage_provider=LocalStorageClient(settings.app_path / "elements"))


if not settings.app_anonymous:
    @cl.password_auth_callback
    async def sign_in(email: str, password: str) -> cl.User | None:
        account = await authenticate(engine, email, password)
        return cl.User(identifier=account.email, metadata={"role": account.role, "provider": "credentials"}) if account else None


@cl.on_shared_thread_view
async def shared_thread_view(thread: ThreadDict, viewer: cl.User | None) -> bool:
    # Chainlit already shows threads their author marked shared; nothing else is opened up.
    return False


@cl.set_starters
async def starters(user: cl.User | None = None, language: str | None = None) -> list[cl.Starter]:
    return [cl.Starter(label=s.label, message=s.question) for s in starters_for(settings.default_corpus)]


async def _corpora() -> list[str]:
    # Neo4j down at chat start: the chat still opens, and says so in the same words as the answers will.
    if notice := await asyncio.to_thread(graph.notice):
        await cl.Message(content=f"Note: {notice}").send()
    return await asyncio.to_thread(picker_corpora, settings)  # lists the data dir: not on the loop


@cl.on_chat_start
async def chat_start() -> None:
    corpora = await _corpora()
    options = RunOptions(corpus=corpora[0])
    cl.user_session.set("options", options)
    await cl.ChatSettings(settings_widgets(corpora, available_methods(), options)).send()


@cl.on_chat_resume
async def chat_resume(thread: ThreadDict) -> None:
    await chat_start()
    for message_id, view in views_in_steps(thread.get("steps", [])):  # an older answer's link reads its view back
        keep_view(_views(), message_id, view)


def _options() -> RunOptions:
    # A starter can be clicked before on_chat_start has stored the panel's options.
    return cl.user_session.get("options") or RunOptions(corpus=settings.default_corpus)


def _views() -> dict[str, AnswerView]:
    views = cl.user_session.get("views")
    if views is None:
        views = {}
        cl.user_session.set("views", views)
    return views


@cl.on_settings_update
async def settings_update(values: dict) -> None:
    # Checked against the corpora on disk (a thread's job: it lists the data dir), as the API checks its own.
    change = read_as_of(values, read_options(values, _options(), await asyncio.to_thread(answerable_corpora, settings)))
    cl.user_session.set("options", change.options)
    for problem in change.problems:
        await cl.Message(content=escape_markdown(problem)).send()


@cl.on_message
async def on_message(message: cl.Message) -> None:
    driver = await asyncio.to_thread(graph.driver_or_none)
    shown = await answer_in_chat(message.content, _options(), settings, driver)
    if shown is not None:
        message_id, view = shown
        keep_view(_views(), message_id, view)
        user = cl.user_session.get("user")
        await save_view(engine, message_id, user.identifier if user else None, view)


@cl.action_callback(COPY_LINK_ACTION)
async def copy_link(action: cl.Action) -> None:
    user = cl.user_session.get("user")
    answer_id = action.forId
    if answer_id is None:  # a button sent without its answer: nothing names what to share
        await cl.Message(content="This answer cannot be shared: the button is not attached to an answer.").send()
        return
    view = _views().get(answer_id)
    if view is None:  # not asked in this session (worker restarted, or the socket reconnected to another worker)
        found = await stored_view(engine, answer_id, user.identifier if user else None)
        if found.view is None:
            await cl.Message(content=f"This answer cannot be shared: {found.reason}.").send()
            return
        view = found.view
        keep_view(_views(), answer_id, view)
    token = await create_link(engine, user.identifier if user else ANONYMOUS, answer_id, view)
    message = cl.Message(content="A read-only link to this answer; signed-in colleagues can open it, "
                                 "and you can revoke it from the page.")
    await message.send()
    box = cl.CustomElement(name="ShareLink", props={"path": f"/answers/{token}"}, display="inline")
    sent, problems = await send_each(message.id, [box])
    message.elements = sent  # type: ignore[assignment]  # chainlit types Message.elements with an unbound TypeVar
    if problems:
        await add_notice(message, problems, then=f"The link is `/answers/{token}` on this site.")
