"""A corpus's own answering process: opens that corpus's stores and answers its questions for a chat process.

    python -m core.chat.corpus_host FD [--restore-niceness N]      (started by core.chat.corpus_hosts)

Opening a corpus and answering a question new to it are seconds of Python work that hold the interpreter lock;
done in the chat process they slowed every other user's answer (bench/results/OPEN_STALL.md). Here they hold
only this process's lock. The process ends when the chat process closes its end of the socket (or dies).
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import socket
import threading
from multiprocessing.connection import Connection

from core.answer.events import AnswerEvent
from core.chat.host_protocol import TO_HOST, Ask, Cancel, Done, Failed, Prepare, Progress, Ready, Start, send
from core.chat.local_answer import local_envelope
from core.embeddings import EmbeddingModelError, get_embedder
from core.settings import Settings
from core.stores import heap

log = logging.getLogger("citewalk.corpus_host")


def take_back(niceness: int) -> None:
    """Every thread of this process at `niceness`: on Linux a niceness is a thread's, and the answering threads
    started meanwhile kept the start's."""
    for thread_id in os.listdir("/proc/self/task"):
        try:
            os.setpriority(os.PRIO_PROCESS, int(thread_id), niceness)
        except ProcessLookupError:
            continue  # ended since the listing


class Host:
    def __init__(self, connection: Connection, settings: Settings, loop: asyncio.AbstractEventLoop,
                 restore_niceness: int | None) -> None:
        self.connection = connection
        self.settings = settings
        self.loop = loop
        self.restore_niceness = restore_niceness
        self.runs: dict[str, asyncio.Task[None]] = {}
        self._sending = threading.Lock()
        self._settled = False

    def send(self, message: Ready | Progress | Done | Failed) -> None:
        send(self.connection, self._sending, message)

    async def answer(self, ask: Ask) -> None:
        async def on_event(event: AnswerEvent) -> None:
            self.send(Progress(id=ask.id, event=event))

        try:
            envelope = await local_envelope(ask.question, ask.options, self.settings, on_event,
                                            for_api=ask.for_api)
        except asyncio.CancelledError:
            return  # asked by the chat process, which waits for nothing more
        except Exception as exc:  # noqa: BLE001 — reported to the chat process, which shows it and answers itself
            log.exception("answering %r on %s failed", ask.question[:80], ask.options.corpus)
            self.send(Failed(id=ask.id, error=f"{type(exc).__name__}: {exc}"))
            return
        finally:
            self.runs.pop(ask.id, None)
        self.send(Done(id=ask.id, envelope=envelope))
        if not self._settled:  # the first answer loaded the stores and models: keep them out of full collections
            self._settled = True
            await asyncio.to_thread(heap.settle)
            if self.restore_niceness is not None:  # started and opened at the lowest priority; now the chat's
                take_back(self.restore_niceness)

    def take(self, message: Ask | Cancel | Start | Prepare) -> None:
        if isinstance(message, Ask):
            self.runs[message.id] = self.loop.create_task(self.answer(message))
        elif isinstance(message, Cancel) and message.id in self.runs:
            self.runs[message.id].cancel()


def load_model(settings: Settings) -> bool:
    """The embedding model of `settings` loaded and run once (its first pass sets up what every later one reuses);
    False, logged, if it cannot be: the opening that needs it then loads it and reports why it cannot."""
    try:
        get_embedder(settings).embed_queries(["What does this provision require?"])
    except EmbeddingModelError as exc:
        log.warning("the embedding model could not be loaded ahead (%s); the corpus's opening will load it", exc)
        return False
    return True


def _read(connection: Connection, loop: asyncio.AbstractEventLoop, inbox: asyncio.Queue[bytes | None]) -> None:
    """Blocking reads in a thread of their own; None when the chat process is gone."""
    try:
        while True:
            loop.call_soon_threadsafe(inbox.put_nowait, connection.recv_bytes())
    except (EOFError, OSError):
        loop.call_soon_threadsafe(inbox.put_nowait, None)


async def serve(connection: Connection, settings: Settings, restore_niceness: int | None) -> None:
    loop = asyncio.get_running_loop()
    host = Host(connection, settings, loop, restore_niceness)
    inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
    threading.Thread(target=_read, args=(connection, loop, inbox), name="citewalk-host-read", daemon=True).start()
    while (frame := await inbox.get()) is not None:
        host.take(TO_HOST.validate_json(frame))
    for run in list(host.runs.values()):
        run.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.chat.corpus_host")
    parser.add_argument("fd", type=int, help="this end of the socket to the chat process")
    parser.add_argument("--restore-niceness", type=int, default=None, help=(
        "started at a lower priority: the niceness to take back once the corpus is open and its first answer given"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s corpus-host %(levelname)s %(name)s: %(message)s")
    connection = Connection(socket.socket(fileno=args.fd).detach())
    # The embedding model's libraries are the slow part of a start; loaded before Ready, a process started ahead of
    # need (a spare) has them when it is given its corpus, and the model itself when it was sent Prepare.
    importlib.import_module("sentence_transformers")
    try:
        first = TO_HOST.validate_json(connection.recv_bytes())
        loaded = load_model(Settings(**first.settings)) if isinstance(first, Prepare) else False
        send(connection, threading.Lock(), Ready(model_loaded=loaded))
        start = TO_HOST.validate_json(connection.recv_bytes()) if isinstance(first, Prepare) else first
    except (EOFError, OSError):
        return 0  # a spare whose chat process ended before it was given a corpus
    if not isinstance(start, Start):
        raise SystemExit("the first message to a corpus host must be Start")
    settings = Settings(**start.settings)
    log.info("answering for corpus %r (pid %d)", start.corpus, os.getpid())
    asyncio.run(serve(connection, settings, args.restore_niceness))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
