"""How many answers this process is composing right now, besides the caller's own.

A small corpus opens faster in the serving process than a child process starts (core.retrieval.child_open), but
that reading holds the interpreter lock for up to ~0.7 s in pieces of ~0.1 s: alone, nobody waits for it; while
other users' answers run, each of them does. The opener asks this count to choose.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_lock = threading.Lock()
_answering = 0
# Set inside an answer's block; asyncio tasks and asyncio.to_thread carry it, so the answer's own search,
# opening a corpus in a worker thread, knows it is not another user's answer.
_inside: ContextVar[bool] = ContextVar("citewalk_inside_answer", default=False)


@contextmanager
def answering() -> Iterator[None]:
    """Counts one answer while the block runs (ended by return, error or cancel alike)."""
    global _answering
    with _lock:
        _answering += 1
    token = _inside.set(True)
    try:
        yield
    finally:
        _inside.reset(token)
        with _lock:
            _answering -= 1


def other_answers_in_flight() -> int:
    """Answers running in this process, the caller's own (if it is inside one) not counted."""
    return _answering - (1 if _inside.get() else 0)
