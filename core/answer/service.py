"""The one entry point for the chat, the CLI and the benchmarks: a question in, an AnswerEnvelope out."""
from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, replace
from datetime import date

from pydantic_ai.models import Model
from threadpoolctl import threadpool_limits

from core.answer.agent import USAGE_LIMITS, answer_agent
from core.answer.dated import dated_words
from core.answer.deps import AnswerDeps, EvidenceLedger
from core.answer.events import (
    AnswerEvent,
    EventSink,
    Finished,
    NoticeEvent,
    PartialAnswer,
    ProvisionalAnswer,
    RuleCard,
    StepFinished,
    StepStarted,
    ignore,
)
from core.answer.extractive import MODEL_NAME as EXTRACTIVE
from core.answer.extractive import extractive_model
from core.answer.llm import chat_model
from core.answer.llm_run import run_llm
from core.answer.models import AnswerEnvelope, AttributedAnswer, LlmRun
from core.answer.questions import clean_question, question_problem
from core.answer.stores import Stores, open_stores
from core.domain import TOOL_STEPS, CitewalkError, Step
from core.retrieval.base import DEFAULT_METHOD
from core.settings import Settings

log = logging.getLogger("citewalk.answer")
# Below this an LLM cannot even finish one request on a local server: give the extractive answer straight away.
MIN_LLM_BUDGET_S = 1.0
# Kept back from the LLM's budget for cancelling its request and handing over the answer, so that the whole
# answer, fallback included, is in by the deadline.
HANDOVER_S = 0.3


@dataclass
class ModelChoice:
    """What composes the answer: an LLM (by name, or a ready Model in tests) or the extractive answerer."""

    name: str
    model: Model | None = None

    @property
    def extractive(self) -> bool:
        return self.model is None and self.name == EXTRACTIVE


def choose_model(settings: Settings, model: str | Model | None) -> ModelChoice:
    if isinstance(model, Model):
        return ModelChoice(model.model_name, model)
    name = (model if model is not None else settings.llm_model).strip()
    return ModelChoice(name or EXTRACTIVE)


async def run_extractive(deps: AnswerDeps) -> AttributedAnswer:
    """The extractive answer over the same tools; afterwards `deps.ledger` holds everything they returned."""
    result = await answer_agent().run(f"Question: {deps.question}", deps=deps, model=extractive_model(deps),
                                      usage_limits=USAGE_LIMITS)
    return result.output


def internal_error(exc: BaseException) -> str:
    return (f"Citewalk could not answer: an internal error ({type(exc).__name__}) stopped the run; "
            "it is logged on the server.")


def _rejected(question: str, corpus: str, choice: ModelChoice, method: str, message: str) -> AnswerEnvelope:
    return AnswerEnvelope(
        question=question, corpus=corpus, answer=AttributedAnswer(answer=message), error=message, method=method,
        mode="extractive" if choice.extractive else "llm", model=choice.name, notices=[message],
    )


@dataclass
class _Run:
    question: str
    corpus: str
    method: str
    on_event: EventSink
    started: float
    as_of: str | None = None

    def envelope(self, answer: AttributedAnswer, deps: AnswerDeps, model: str, composing: float) -> AnswerEnvelope:
        """Closes the compose step (its time net of the tool steps inside it) and packs what `deps` gathered."""
        tool_ms = sum(deps.timings_ms.get(s, 0.0) for s in TOOL_STEPS)
        deps.timings_ms[Step.COMPOSE] = round(max(0.0, (time.perf_counter() - composing) * 1000 - tool_ms), 1)
        self.on_event(StepFinished(step=Step.COMPOSE, detail=model, elapsed_ms=deps.timings_ms[Step.COMPOSE]))
        deps.timings_ms["total"] = round((time.perf_counter() - self.started) * 1000, 1)
        return AnswerEnvelope(
            question=self.question, corpus=self.corpus, answer=answer, method=self.method,
            mode="extractive" if model == EXTRACTIVE else "llm", model=model, notices=list(deps.notices),
            evidence_ids=deps.ledger.ids(), seed_ids=[e.unit.id for e in deps.ledger.searched()],
            timings_ms=dict(deps.timings_ms), as_of=self.as_of,
        )

    async def extractive(self, deps: AnswerDeps) -> AnswerEnvelope:
        self.on_event(StepStarted(step=Step.COMPOSE, detail="composing the extractive answer"))
        composing = time.perf_counter()
        return self.envelope(await run_extractive(deps), deps, EXTRACTIVE, composing)

    async def llm(self, deps: AnswerDeps, choice: ModelChoice, fallback: AnswerEnvelope) -> AnswerEnvelope:
        """The LLM's answer with the extractive one attached, or the extractive one with a notice saying why."""
        self.on_event(StepStarted(step=Step.COMPOSE, detail=f"composing answer with {choice.name}",
                                  thinks_between_tools=True))
        composing = time.perf_counter()
        model = choice.model or chat_model(deps.settings, choice.name)  # a new client: part of what the deadline covers
        budget = deps.settings.llm_deadline_s - (time.perf_counter() - self.started) - HANDOVER_S
        if budget < MIN_LLM_BUDGET_S:
            answer, run = None, LlmRun(model=choice.name, fallback="no time left within the answer deadline")
        else:
            answer, run = await run_llm(deps, model, budget, stream=self.on_event is not ignore)
        if answer is not None:
            return self.envelope(answer, deps, choice.name, composing).model_copy(
                update={"llm_run": run, "extractive": fallback})
        self.on_event(StepFinished(step=Step.COMPOSE, detail=f"{choice.name} failed: {run.fallback}",
                                   elapsed_ms=round((time.perf_counter() - composing) * 1000, 1)))
        notice = (f"The language model {choice.name!r} failed ({run.fallback}); "
                  "this is the extractive answer (verbatim sentences from the provisions).")
        self.on_event(NoticeEvent(text=notice))
        timings = fallback.timings_ms | {"llm": run.elapsed_ms, "total": round((time.perf_counter() - self.started) * 1000, 1)}
        return fallback.model_copy(update={"notices": [*fallback.notices, notice], "llm_run": run, "timings_ms": timings})


@functools.cache
def limit_blas_threads(threads: int) -> None:
    """Once per process (the limit is process-wide): numpy's BLAS at `threads` threads (0: left as it is)."""
    if threads:
        threadpool_limits(limits=threads, user_api="blas")


async def answer_question_async(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    on_event: EventSink = ignore, stores: Stores | None = None, as_of: str | None = None,
) -> AnswerEnvelope:
    """With an LLM asked, the extractive answer is composed first and sent as ProvisionalAnswer: it is the
    fallback, ready at once, and the LLM gets what is left of `llm_deadline_s`. Finished carries the LLM's
    answer (the extractive one attached), or the extractive one with a notice saying why the LLM failed."""
    limit_blas_threads(settings.answer_blas_threads)
    return await _answer(question, corpus, settings, method=method, model=model, on_event=on_event, stores=stores,
                         as_of=as_of)


async def _answer(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    on_event: EventSink = ignore, stores: Stores | None = None, as_of: str | None = None,
) -> AnswerEnvelope:
    """`as_of`: the date the law is read for (ISO; None: today)."""
    day = as_of or date.today().isoformat()
    run = _Run(question, corpus, method, on_event, time.perf_counter(), day)
    choice = choose_model(settings, model)
    problem = question_problem(question, settings)
    if problem:
        envelope = _rejected(question, corpus, choice, method, problem)
        on_event(Finished(envelope=envelope))
        return envelope
    # Opening connects to Neo4j and may load a corpus (~10 s): never on the loop, which serves every other chat.
    if stores is None:
        stores = await asyncio.to_thread(open_stores, settings, corpus, method)
    deps = AnswerDeps(settings, corpus, clean_question(question), stores.retriever, stores.graph, emit=on_event)
    if stores.search_k is not None:
        deps.search_k = stores.search_k
    if stores.graph_notice:
        deps.notice(stores.graph_notice)
    if stores.wordings:
        deps.ledger.dated = dated_words(day, stores.wordings)
    shared_notices = list(deps.notices)
    try:
        envelope = await run.extractive(deps)
    except CitewalkError as exc:  # a store or model the run needs failed in a way it can name: say what
        envelope = _rejected(question, corpus, choice, method, f"Citewalk could not answer: {exc}")
        on_event(Finished(envelope=envelope))
        return envelope
    except Exception as exc:  # noqa: BLE001 — the run's boundary: a bug is logged in full and the user told
        log.exception("answering a question on corpus %r failed", corpus)
        envelope = _rejected(question, corpus, choice, method, internal_error(exc))
        on_event(Finished(envelope=envelope))
        return envelope
    if not choice.extractive:
        on_event(ProvisionalAnswer(envelope=envelope))
        llm_deps = replace(deps, ledger=EvidenceLedger(dated=deps.ledger.dated), notices=list(shared_notices), timings_ms={})
        envelope = await run.llm(llm_deps, choice, envelope)
    if envelope.mode == "llm" or choice.extractive:  # a fallback's text and cards went out as ProvisionalAnswer
        on_event(PartialAnswer(text=envelope.answer.answer))
        for rule in envelope.answer.rules:
            on_event(RuleCard(rule=rule))
    on_event(Finished(envelope=envelope))
    return envelope


def answer_question(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    on_event: EventSink = ignore, stores: Stores | None = None, as_of: str | None = None,
) -> AnswerEnvelope:
    """Synchronous form for the CLI and benchmarks (not for use inside a running event loop: use the async forms)."""
    return asyncio.run(answer_question_async(question, corpus, settings, method=method, model=model,
                                             on_event=on_event, stores=stores, as_of=as_of))


async def stream_answer(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    stores: Stores | None = None, as_of: str | None = None,
) -> AsyncGenerator[AnswerEvent, None]:
    """Yields events as the run makes progress; the last one is Finished with the envelope.
    Closed early (the client went away, the consumer's handler raised), it cancels the run and waits for it to
    stop, so nobody's question keeps the CPU and the model busy; consumers close it with `contextlib.aclosing`."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[AnswerEvent | None] = asyncio.Queue()

    def push(event: AnswerEvent) -> None:
        # Sync tools run in worker threads: hand their events to the loop safely.
        loop.call_soon_threadsafe(queue.put_nowait, event)

    async def produce() -> None:
        try:
            await answer_question_async(question, corpus, settings, method=method, model=model, on_event=push,
                                        stores=stores, as_of=as_of)
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    task = asyncio.create_task(produce())
    finished = False
    try:
        while (event := await queue.get()) is not None:
            yield event
        finished = True
    finally:
        if not finished:
            task.cancel()
            # The run's own failure, if any, matters less than why the stream was closed: that one propagates.
            await asyncio.gather(task, return_exceptions=True)
    await task
