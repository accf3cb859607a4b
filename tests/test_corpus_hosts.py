"""A corpus the chat process has not opened is opened and answered in a process of its own (issue 26, item 6): the
chat process does not open it, and a process that dies, hangs or loses its client leaves every question answered,
within a bound."""
from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from core.answer.events import AnswerEvent, NoticeEvent, StepStarted
from core.answer.models import AnswerEnvelope
from core.chat import corpus_hosts
from core.chat.answering import HOST_FALLBACK, chat_envelope
from core.chat.controls import RunOptions
from core.retrieval import reload as store_reload
from core.settings import Settings

QUESTION = "When may a covered entity disclose protected health information for research?"


@pytest.fixture
def hosted(test_settings: Settings, hipaa_corpus: str, monkeypatch):
    """Settings that answer in the corpus's process, that process started and its corpus opened."""
    monkeypatch.setattr(store_reload, "_OPEN", {})  # this process has not opened the corpus
    settings = test_settings.model_copy(update={"answer_processes": True})
    _ask(settings, hipaa_corpus)
    yield settings
    corpus_hosts.stop_all()


def _ask(settings: Settings, corpus: str, question: str = QUESTION) -> tuple[AnswerEnvelope | None, list[AnswerEvent]]:
    events: list[AnswerEvent] = []

    async def collect(event: AnswerEvent) -> None:
        events.append(event)

    return asyncio.run(chat_envelope(question, RunOptions(corpus=corpus), settings, collect)), events


def test_a_corpus_is_opened_and_answered_in_its_own_process(test_settings, hipaa_corpus, monkeypatch) -> None:
    monkeypatch.setattr(store_reload, "_OPEN", {})  # this process has opened no corpus
    hosted = test_settings.model_copy(update={"answer_processes": True})
    try:
        envelope, events = _ask(hosted, hipaa_corpus)
        host = corpus_hosts.host_for(hosted, hipaa_corpus)
    finally:
        corpus_hosts.stop_all()
    assert envelope is not None and envelope.error is None and envelope.answer.rules
    assert HOST_FALLBACK not in envelope.notices
    assert any(isinstance(e, StepStarted) for e in events), "the run's steps are streamed back as they happen"
    assert store_reload._OPEN == {}, "the chat process opened the corpus's stores itself"
    assert host.process.pid != os.getpid()


def test_a_corpus_this_process_opened_is_answered_here(test_settings, hipaa_corpus, monkeypatch) -> None:
    monkeypatch.setattr(store_reload, "_OPEN", {})
    settings = test_settings.model_copy(update={"answer_processes": True})
    store_reload.open_stores(settings, hipaa_corpus)  # as the warm-up does at start-up
    try:
        envelope, _ = _ask(settings, hipaa_corpus)
        assert envelope is not None and envelope.answer.rules
        assert not corpus_hosts.has_host(settings, hipaa_corpus), "an open corpus was sent to another process"
    finally:
        corpus_hosts.stop_all()


def test_a_process_that_dies_mid_answer_leaves_the_question_to_this_one_with_a_notice(hosted, hipaa_corpus) -> None:
    dying = corpus_hosts.host_for(hosted, hipaa_corpus)
    events: list[AnswerEvent] = []

    async def kill_at_first_step(event: AnswerEvent) -> None:
        if not events:
            dying.process.kill()
        events.append(event)

    envelope = asyncio.run(chat_envelope(QUESTION, RunOptions(corpus=hipaa_corpus), hosted, kill_at_first_step))
    assert envelope is not None and envelope.answer.rules, "the question went unanswered"
    assert HOST_FALLBACK in envelope.notices
    assert any(isinstance(e, NoticeEvent) and HOST_FALLBACK in e.text for e in events), "the user was not told"
    again, _ = _ask(hosted, hipaa_corpus)
    assert again is not None and again.answer.rules and HOST_FALLBACK not in again.notices
    assert corpus_hosts.host_for(hosted, hipaa_corpus).process.pid != dying.process.pid, "no new process was started"


def test_a_silent_answering_process_is_given_up_within_its_bound(hosted, hipaa_corpus) -> None:
    hosted = hosted.model_copy(update={"answer_process_silence_s": 4.0})  # the same process, a shorter patience
    stuck = corpus_hosts.host_for(hosted, hipaa_corpus)
    os.kill(stuck.process.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        envelope, _ = _ask(hosted, hipaa_corpus)
        took = time.monotonic() - started
    finally:
        if stuck.process.poll() is None:
            os.kill(stuck.process.pid, signal.SIGCONT)
    assert envelope is not None and envelope.answer.rules and HOST_FALLBACK in envelope.notices
    assert took < hosted.answer_process_silence_s + 30, f"a hung answering process held the question {took:.0f} s"
    assert stuck.process.wait(timeout=10) is not None, "the silent process was left running"


def test_a_client_that_goes_away_cancels_its_run_and_the_process_answers_on(hosted, hipaa_corpus) -> None:
    host = corpus_hosts.host_for(hosted, hipaa_corpus)

    async def gone(_event: AnswerEvent) -> None:
        raise ConnectionResetError("the browser went away")

    with pytest.raises(ConnectionResetError):
        asyncio.run(chat_envelope(QUESTION, RunOptions(corpus=hipaa_corpus), hosted, gone))
    envelope, _ = _ask(hosted, hipaa_corpus, "What must a business associate contract contain?")
    assert envelope is not None and envelope.answer.rules and HOST_FALLBACK not in envelope.notices
    assert corpus_hosts.host_for(hosted, hipaa_corpus) is host and host.alive


def test_processes_start_at_the_lowest_priority_and_take_the_chat_s_back_once_answering(hosted, hipaa_corpus) -> None:
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    if not corpus_hosts.can_take_back(mine):
        pytest.skip("this process may not lower a niceness it raised")
    host = corpus_hosts.host_for(hosted, hipaa_corpus)
    threads = Path(f"/proc/{host.process.pid}/task")
    deadline = time.monotonic() + 30  # taken back just after the first answer is sent
    while {os.getpriority(os.PRIO_PROCESS, int(t.name)) for t in threads.iterdir()} != {mine}:
        assert time.monotonic() < deadline, "the answering process kept the start's priority"
        time.sleep(0.2)
    spare = corpus_hosts._SPARE[0]
    assert spare.ready.wait(60) and spare.alive
    assert os.getpriority(os.PRIO_PROCESS, spare.process.pid) == corpus_hosts.START_NICENESS


def test_a_spare_loads_the_chat_s_embedding_model_before_it_says_it_is_ready(test_settings) -> None:
    if not corpus_hosts.can_take_back(os.getpriority(os.PRIO_PROCESS, 0)):
        pytest.skip("no spare is started where this process may not lower a niceness it raised")
    try:
        corpus_hosts.start_spare(test_settings)
        spare = corpus_hosts._SPARE[0]
        assert spare.ready.wait(corpus_hosts.START_S) and spare.alive
        assert spare.model_loaded, "the spare left the model and its first pass to the opening of its corpus"
    finally:
        corpus_hosts.stop_all()
