"""One process at a time over a folder's files: an exclusive advisory lock (flock) on a file beside them.

The kernel drops the lock when its holder exits, killed or not, so a crashed writer never leaves it stuck.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def exclusive(path: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold `path` locked for the block. When another process holds it, `on_wait` is told once what the
    holder wrote (its pid) before this one waits for it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                handle.seek(0)
                on_wait(handle.read().strip())
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()}")
            handle.flush()
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
