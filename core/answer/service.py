"""The one entry point for the chat, the CLI and the benchmarks: a question in, an AnswerEnvelope out."""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from pydantic_ai import ModelHTTPError, ModelTimeoutError, RunTimedOut, UnexpectedModelBehavior, UsageLimitExceeded
from pydantic_ai.models import Model

from core.answer.agent import USAGE_LIMITS, answer_agent
from core.answer.deps import AnswerDeps, Stores, open_stores
from core.answer.events import AnswerEvent, EventSink, Finished, PartialAnswer, RuleCard, StepFinished, StepStarted, ignore
from core.answer.extractive import MODEL_NAME as EXTRACTIVE, extractive_model
from core.answer.models import AnswerEnvelope, AttributedAnswer
from core.answer.partial import stream_partial_answer
from core.answer.questions import clean_question, question_problem
from core.settings import Settings

DEFAULT_METHOD = "citewalk"
TOOL_STEPS = ("search", "expand", "read", "current_version")


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


def _fault(exc: BaseException) -> str:
    """A short, user-facing reason for an LLM failure."""
    if isinstance(exc, ModelHTTPError):
        return f"HTTP {exc.status_code} from the model endpoint"
    if isinstance(exc, RunTimedOut | TimeoutError | ModelTimeoutError):
        return "timed out"
    if isinstance(exc, UsageLimitExceeded):
        return f"too many tool calls: {exc}"
    if isinstance(exc, UnexpectedModelBehavior):
        return f"malformed or invalid output: {exc.message}"
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__


async def _run(deps: AnswerDeps, model: Model, stream: bool) -> AttributedAnswer:
    result = await answer_agent().run(
        f"Question: {deps.question}", deps=deps, model=model, usage_limits=USAGE_LIMITS,
        event_stream_handler=stream_partial_answer if stream else None,
        timeout=deps.settings.llm_timeout_s * 4,
    )
    return result.output


async def run_extractive(deps: AnswerDeps) -> AttributedAnswer:
    """The extractive answer over the same tools; afterwards `deps.ledger` holds everything they returned."""
    return await _run(deps, extractive_model(deps), False)


async def _compose(deps: AnswerDeps, choice: ModelChoice, stream: bool) -> tuple[AttributedAnswer, AnswerDeps, bool]:
    """The LLM answer, or the extractive one (as fallback with a notice); returns the deps whose ledger backs it."""
    if not choice.extractive:
        from core.answer.llm import chat_model

        try:
            model = choice.model or chat_model(deps.settings, choice.name)
            return await _run(deps, model, stream), deps, True
        except Exception as exc:  # noqa: BLE001 — any model fault ends in the extractive answer, never a crash
            deps.notice(f"The language model {choice.name!r} failed ({_fault(exc)}); "
                        "this is the extractive answer (verbatim sentences from the provisions).")
            deps = deps.fresh()
    return await run_extractive(deps), deps, False


def _rejected(question: str, corpus: str, choice: ModelChoice, method: str, message: str) -> AnswerEnvelope:
    return AnswerEnvelope(
        question=question, corpus=corpus, answer=AttributedAnswer(answer=message), error=message, method=method,
        mode="extractive" if choice.extractive else "llm", model=choice.name, notices=[message],
    )


async def answer_question_async(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    on_event: EventSink = ignore, stores: Stores | None = None,
) -> AnswerEnvelope:
    started = time.perf_counter()
    choice = choose_model(settings, model)
    problem = question_problem(question, settings)
    if problem:
        envelope = _rejected(question, corpus, choice, method, problem)
        on_event(Finished(envelope=envelope))
        return envelope
    stores = stores or open_stores(settings, corpus, method)
    deps = AnswerDeps(settings, corpus, clean_question(question), stores.retriever, stores.graph, emit=on_event)
    if stores.graph_notice:
        deps.notice(stores.graph_notice)
    on_event(StepStarted(step="compose", detail=f"composing answer with {choice.name}"))
    composing = time.perf_counter()
    answer, used, is_llm = await _compose(deps, choice, stream=on_event is not ignore)
    tool_ms = sum(used.timings_ms.get(s, 0.0) for s in TOOL_STEPS)
    used.timings_ms["compose"] = round(max(0.0, (time.perf_counter() - composing) * 1000 - tool_ms), 1)
    on_event(StepFinished(step="compose", detail=choice.name if is_llm else EXTRACTIVE, elapsed_ms=used.timings_ms["compose"]))
    on_event(PartialAnswer(text=answer.answer))
    for rule in answer.rules:
        on_event(RuleCard(rule=rule))
    used.timings_ms["total"] = round((time.perf_counter() - started) * 1000, 1)
    envelope = AnswerEnvelope(
        question=question, corpus=corpus, answer=answer, mode="llm" if is_llm else "extractive",
        model=choice.name if is_llm else EXTRACTIVE, notices=list(used.notices), evidence_ids=used.ledger.ids(),
        seed_ids=[e.unit.id for e in used.ledger.seeds()], timings_ms=dict(used.timings_ms), method=method,
    )
    on_event(Finished(envelope=envelope))
    return envelope


def answer_question(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    on_event: EventSink = ignore, stores: Stores | None = None,
) -> AnswerEnvelope:
    """Synchronous form for the CLI and benchmarks (not for use inside a running event loop: use the async forms)."""
    return asyncio.run(answer_question_async(question, corpus, settings, method=method, model=model,
                                             on_event=on_event, stores=stores))


async def stream_answer(
    question: str, corpus: str, settings: Settings, *, method: str = DEFAULT_METHOD, model: str | Model | None = None,
    stores: Stores | None = None,
) -> AsyncIterator[AnswerEvent]:
    """Yields events as the run makes progress; the last one is Finished with the envelope."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[AnswerEvent | None] = asyncio.Queue()

    def push(event: AnswerEvent) -> None:
        # Sync tools run in worker threads: hand their events to the loop safely.
        loop.call_soon_threadsafe(queue.put_nowait, event)

    async def produce() -> None:
        try:
            await answer_question_async(question, corpus, settings, method=method, model=model, on_event=push,
                                        stores=stores)
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    task = asyncio.create_task(produce())
    while (event := await queue.get()) is not None:
        yield event
    await task
