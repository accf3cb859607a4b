"""One LLM attempt at the answer, capped: output tokens per request, one deadline for the whole run.

The caller already holds the extractive answer, so a failure here costs the user nothing but the wait, and the
wait is bounded by `budget_s` (the SDK's own retries and per-request timeouts sit inside it, never on top).
"""
from __future__ import annotations

import logging
import time

from pydantic_ai import (
    AgentRunError,
    ModelHTTPError,
    ModelRequestTimeout,
    ModelTimeoutError,
    RunTimedOut,
    UnexpectedModelBehavior,
    UsageLimitExceeded,
    capture_run_messages,
)
from pydantic_ai.exceptions import OutputTokenLimitExceeded
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings

from core.answer.agent import USAGE_LIMITS, answer_agent
from core.answer.deps import AnswerDeps
from core.answer.models import AttributedAnswer, LlmRun
from core.answer.partial import OUTPUT_TOOL, stream_partial_answer

SAID_CHARS = 200
log = logging.getLogger("citewalk.answer")
# What a model endpoint does when it is down, slow, over its limits or answers nonsense; pydantic-ai wraps the
# SDK's HTTP and validation failures in AgentRunError. Anything else ending an LLM run is a bug in our tools.
MODEL_FAULTS = (AgentRunError, TimeoutError, OSError)


def fault(exc: BaseException) -> str:
    """A short, user-facing reason for an LLM failure."""
    if isinstance(exc, ModelHTTPError):
        return f"HTTP {exc.status_code} from the model endpoint"
    if isinstance(exc, RunTimedOut | TimeoutError | ModelTimeoutError | ModelRequestTimeout):
        return "timed out"
    if isinstance(exc, UsageLimitExceeded):
        return f"too many requests or tool calls: {exc}"
    if isinstance(exc, OutputTokenLimitExceeded):
        return "stopped at the output token limit before finishing its answer"
    if isinstance(exc, UnexpectedModelBehavior):
        return f"malformed or invalid output: {exc.message}"
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__


def _counted(run: LlmRun, messages: list[ModelMessage]) -> LlmRun:
    responses = [m for m in messages if isinstance(m, ModelResponse)]
    # A failed validation comes back as a retried tool return (tool calls, the output tool included) or, for
    # plain text where a tool call was due, as a retry prompt.
    retries = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts
               if isinstance(p, RetryPromptPart) or (isinstance(p, ToolReturnPart) and p.outcome == "retried")]
    output_retries = sum(1 for p in retries if p.tool_name in (None, OUTPUT_TOOL))
    said = "".join(p.content for p in responses[-1].parts if isinstance(p, TextPart)) if responses else ""
    return run.model_copy(update={
        "said": said.strip()[:SAID_CHARS],
        "requests": len(responses),
        "tool_calls": sum(1 for m in responses for p in m.parts if isinstance(p, ToolCallPart)),
        "output_retries": output_retries, "tool_retries": len(retries) - output_retries,
    })


async def run_llm(deps: AnswerDeps, model: Model, budget_s: float, stream: bool) -> tuple[AttributedAnswer | None, LlmRun]:
    """The answer, or None with the reason in `LlmRun.fallback`; never raises for a model fault."""
    run = LlmRun(model=model.model_name, budget_s=round(budget_s, 2))
    started = time.perf_counter()
    answer: AttributedAnswer | None = None
    with capture_run_messages() as messages:
        try:
            result = await answer_agent().run(
                f"Question: {deps.question}", deps=deps, model=model, usage_limits=USAGE_LIMITS,
                model_settings=ModelSettings(max_tokens=deps.settings.llm_max_tokens, request_timeout=budget_s),
                event_stream_handler=stream_partial_answer if stream else None, timeout=budget_s,
            )
            answer = result.output
        except Exception as exc:  # noqa: BLE001 — any failure ends in the extractive answer, never a crash
            if not isinstance(exc, MODEL_FAULTS):
                log.exception("the LLM run with %s failed on a bug, not a model fault", model.model_name)
            run = run.model_copy(update={"fallback": fault(exc)})
    run = _counted(run, messages)
    return answer, run.model_copy(update={"elapsed_ms": round((time.perf_counter() - started) * 1000, 1)})
