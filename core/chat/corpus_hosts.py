"""The chat process's side of the corpus processes (core.chat.corpus_host): one per corpus and settings.

A question is sent to its corpus's process, which streams the run's events back and then the envelope; the chat
process only shows them. A process is given its corpus on that corpus's first question (a spare, started ahead at
the lowest priority with its libraries loaded, when there is one) and lives as long as this one. If it dies, hangs
or fails a run, the question raises HostFailed and the caller answers it here, with a notice.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import resource
import socket
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass
from multiprocessing.connection import Connection

from core.answer.models import AnswerEnvelope
from core.chat.controls import RunOptions
from core.chat.host_protocol import FROM_HOST, Ask, Cancel, Done, Failed, Prepare, Progress, Ready, Start, send
from core.chat.local_answer import EventHandler
from core.domain import AnswerError
from core.settings import REPO_ROOT, Settings

log = logging.getLogger("citewalk.corpus_hosts")


# Loading the answering libraries (pydantic-ai, torch, the embedding model's code) takes 5-10 s on two cores.
START_S = 90.0
START_NICENESS = 19


def can_take_back(niceness: int) -> bool:
    """Whether a process started at START_NICENESS may later lower its niceness back to `niceness`: with
    CAP_SYS_NICE (root here), or where RLIMIT_NICE allows it (its soft limit is 20 minus the lowest niceness)."""
    return niceness < START_NICENESS and (os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20 - niceness)


class HostFailed(AnswerError):
    """The corpus's answering process could not give this answer (it died, went silent or raised)."""


@dataclass
class _Pending:
    loop: asyncio.AbstractEventLoop
    replies: asyncio.Queue[Progress | Done | Failed]


class CorpusHost:
    """One answering process; given one corpus (`bind`), it answers many questions at once, told apart by id."""

    def __init__(self, prepare: Settings | None = None) -> None:
        """`prepare`: a spare's; the settings whose embedding model it loads before it says Ready."""
        self.corpus = "(not yet given one)"
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-m", "core.chat.corpus_host", str(theirs.fileno())]
        niceness = os.getpriority(os.PRIO_PROCESS, 0)
        if can_take_back(niceness):
            # Loading its libraries and opening its corpus are seconds of CPU that no user waits for but its first:
            # at the lowest priority they leave the cores to the answers running meanwhile (OPEN_STALL.md).
            command = ["nice", "-n", str(START_NICENESS - niceness), *command, "--restore-niceness", str(niceness)]
        with theirs:
            self.process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), cwd=REPO_ROOT, env=dict(os.environ))
        self.connection = Connection(ours.detach())
        self._sending = threading.Lock()
        self._pending: dict[str, _Pending] = {}
        self.alive = True
        self.ready = threading.Event()
        self.model_loaded = False
        threading.Thread(target=self._read, name="citewalk-host-read", daemon=True).start()
        if prepare is not None:
            self.send(Prepare(settings=prepare.model_dump(mode="json")))

    def bind(self, settings: Settings, corpus: str) -> None:
        self.corpus = corpus
        self.send(Start(settings=settings.model_dump(mode="json"), corpus=corpus))

    def send(self, message: Start | Prepare | Ask | Cancel) -> None:
        send(self.connection, self._sending, message)

    def _read(self) -> None:
        """Replies go to the question that is waiting for them; when the process is gone, every waiting
        question is told so."""
        try:
            while True:
                reply = FROM_HOST.validate_json(self.connection.recv_bytes())
                if isinstance(reply, Ready):
                    self.model_loaded = reply.model_loaded
                    self.ready.set()
                    continue
                pending = self._pending.get(reply.id)
                if pending is not None:
                    pending.loop.call_soon_threadsafe(pending.replies.put_nowait, reply)
        except (EOFError, OSError):
            pass
        self.alive = False
        code = self.process.wait()
        for run_id, pending in list(self._pending.items()):
            failed = Failed(id=run_id, error=f"the answering process of corpus {self.corpus!r} ended (exit code {code})")
            pending.loop.call_soon_threadsafe(pending.replies.put_nowait, failed)

    async def ask(self, question: str, options: RunOptions, on_event: EventHandler, silence_s: float, *,
                  for_api: bool = False) -> AnswerEnvelope | None:
        """The envelope; the run's events go to `on_event` as they come. HostFailed when the process fails the
        run, is not ready within START_S of its start, or sends nothing for `silence_s` once ready."""
        if not self.ready.is_set() and not await asyncio.to_thread(self.ready.wait, START_S):
            self.stop()
            raise HostFailed(f"the answering process of corpus {self.corpus!r} did not start within {START_S:.0f} s")
        run_id = uuid.uuid4().hex
        pending = _Pending(asyncio.get_running_loop(), asyncio.Queue())
        self._pending[run_id] = pending
        finished = False
        try:
            if not self.alive:
                raise HostFailed(f"the answering process of corpus {self.corpus!r} is not running")
            try:
                self.send(Ask(id=run_id, question=question, options=options, for_api=for_api))
            except OSError as exc:
                self.alive = False
                raise HostFailed(f"the answering process of corpus {self.corpus!r} cannot be reached ({exc})") from exc
            while True:
                try:
                    reply = await asyncio.wait_for(pending.replies.get(), silence_s)
                except TimeoutError:
                    self.stop()  # a process that stops answering is stopped; the next question starts another
                    raise HostFailed(f"the answering process of corpus {self.corpus!r} sent nothing for "
                                     f"{silence_s:.0f} s") from None
                if isinstance(reply, Progress):
                    await on_event(reply.event)
                    continue
                finished = True
                if isinstance(reply, Failed):
                    raise HostFailed(reply.error)
                return reply.envelope
        finally:
            self._pending.pop(run_id, None)
            if not finished and self.alive:
                self._cancel(run_id)

    def _cancel(self, run_id: str) -> None:
        try:
            self.send(Cancel(id=run_id))
        except OSError:
            pass  # the process is gone: nothing runs to cancel

    def stop(self) -> None:
        self.alive = False
        self.process.kill()
        self.connection.close()


_HOSTS: dict[tuple[str, str], CorpusHost] = {}
_SPARE: list[CorpusHost] = []  # at most one, started ahead of the next corpus that needs a process
_STARTING = threading.Lock()
# What only the chat process reads: settings differing in these alone share a corpus's process.
_CHAT_SIDE = {"answer_processes", "answer_process_silence_s", "answer_process_spare"}


def _key(settings: Settings, corpus: str) -> tuple[str, str]:
    return corpus, hashlib.sha256(settings.model_dump_json(exclude=_CHAT_SIDE).encode()).hexdigest()


def has_host(settings: Settings, corpus: str) -> bool:
    return _key(settings, corpus) in _HOSTS


def start_spare(settings: Settings) -> None:
    """A process with its libraries and the embedding model of `settings` loaded, at the lowest priority, for the
    next corpus that needs one; only where it may take its priority back (at normal priority, loading them would
    cost the users being answered)."""
    with _STARTING:
        if not any(h.alive for h in _SPARE) and can_take_back(os.getpriority(os.PRIO_PROCESS, 0)):
            _SPARE[:] = [CorpusHost(prepare=settings)]


def host_for(settings: Settings, corpus: str) -> CorpusHost:
    """The corpus's running process under these settings; if there is none, the spare is given the corpus, or a
    process is started (a thread's job: it forks). The next spare is started once the answer is done
    (`hosted_envelope`)."""
    key = _key(settings, corpus)
    with _STARTING:
        host = _HOSTS.get(key)
        if host is None or not host.alive:
            if host is not None:
                log.warning("the answering process of corpus %r ended; starting another", corpus)
            spare = [h for h in _SPARE if h.alive]
            _SPARE.clear()
            host = _HOSTS[key] = spare[0] if spare else CorpusHost()
            host.bind(settings, corpus)
        return host


async def hosted_envelope(question: str, options: RunOptions, settings: Settings, on_event: EventHandler, *,
                          for_api: bool = False) -> AnswerEnvelope | None:
    host = _HOSTS.get(_key(settings, options.corpus))
    if host is None or not host.alive:  # starting one forks: a thread's job
        host = await asyncio.to_thread(host_for, settings, options.corpus)
    try:
        return await host.ask(question, options, on_event, settings.answer_process_silence_s, for_api=for_api)
    finally:
        if settings.answer_process_spare and not any(h.alive for h in _SPARE):
            # The next spare once this answer is done, not while the corpus that took the last one opens: loading
            # libraries, even at the lowest priority, slowed the other users' answers then (OPEN_STALL.md).
            await asyncio.to_thread(start_spare, settings)


def stop_for(settings: Settings, corpus: str) -> None:
    with _STARTING:
        host = _HOSTS.pop(_key(settings, corpus), None)
    if host is not None:
        host.stop()


def stop_all() -> None:
    with _STARTING:
        for host in [*_HOSTS.values(), *_SPARE]:
            host.stop()
        _HOSTS.clear()
        _SPARE.clear()
