"""Blocking work stays off the event loop: while one chat's stores open (Neo4j connect, Chroma, BM25) or an element
file is written, the other chats of the process go on being served."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest

from core.answer import service
from core.answer.stores import Stores
from core.chat.storage import LocalStorageClient
from core.settings import Settings, get_settings
from tests.support.answer_fakes import FakeGraph, FakeRetriever

BLOCKS_S = 1.0


async def _worst_lag(work: Awaitable[object]) -> float:
    """The longest the loop was kept from running a 10 ms ticker while `work` ran."""
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - started - 0.01)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.02)
    try:
        await work
    finally:
        done = True
        await ticker
    return worst


def test_opening_stores_leaves_the_loop_free(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_open(settings: Settings, corpus: str, method: str) -> Stores:
        time.sleep(BLOCKS_S)  # what connecting to Neo4j and loading a corpus costs, on the caller's thread
        return Stores(FakeRetriever(), FakeGraph())

    question = "Must a Recognised Body notify the Regulator?"
    # The agent's first run in a process builds its schemas and loads price tables on the loop (~0.7 s, the app's
    # warm-up pays it): done here first, so that what is measured is the opening alone.
    service.answer_question(question, "fake", get_settings(), model="extractive", stores=Stores(FakeRetriever(), FakeGraph()))
    monkeypatch.setattr(service, "open_stores", slow_open)
    work = service.answer_question_async(question, "fake", get_settings(), model="extractive")
    lag = asyncio.run(_worst_lag(work))
    assert lag < BLOCKS_S / 2, f"the event loop stood still for {lag:.2f} s while stores opened"


def test_element_files_are_written_off_the_loop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    client = LocalStorageClient(tmp_path)
    real_write = Path.write_bytes

    def slow_disk(path: Path, data: bytes) -> int:
        time.sleep(BLOCKS_S)
        return real_write(path, data)

    monkeypatch.setattr(Path, "write_bytes", slow_disk)
    lag = asyncio.run(_worst_lag(client.upload_file("answers/cards.json", b"{}")))
    assert (tmp_path / "answers" / "cards.json").read_bytes() == b"{}"
    assert lag < BLOCKS_S / 2, f"the event loop stood still for {lag:.2f} s while a file was written"
