"""Turns a streaming model's output-tool argument deltas into partial answer text events."""
from __future__ import annotations

from collections.abc import AsyncIterable

import pydantic_core
from pydantic_ai import RunContext
from pydantic_ai.messages import AgentStreamEvent, PartDeltaEvent, PartStartEvent, ToolCallPart, ToolCallPartDelta

from core.answer.deps import AnswerDeps
from core.answer.events import PartialAnswer

OUTPUT_TOOL = "final_result"


def _answer_so_far(args: str) -> str:
    try:
        data = pydantic_core.from_json(args, allow_partial="trailing-strings")
    except ValueError:
        return ""
    value = data.get("answer") if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


async def stream_partial_answer(ctx: RunContext[AnswerDeps], events: AsyncIterable[AgentStreamEvent]) -> None:
    """Emit the `answer` field of the output tool call each time it grows (claims arrive validated, later)."""
    buffers: dict[int, str] = {}
    shown = ""
    async for event in events:
        if isinstance(event, PartStartEvent) and isinstance(event.part, ToolCallPart):
            if event.part.tool_name != OUTPUT_TOOL:
                continue
            args = event.part.args
            buffers[event.index] = args if isinstance(args, str) else pydantic_core.to_json(args or {}).decode()
        elif isinstance(event, PartDeltaEvent) and isinstance(event.delta, ToolCallPartDelta) and event.index in buffers:
            delta = event.delta.args_delta
            if isinstance(delta, str):
                buffers[event.index] += delta
        else:
            continue
        text = _answer_so_far(buffers.get(event.index, ""))
        if len(text) > len(shown):
            shown = text
            ctx.deps.emit(PartialAnswer(text=shown))
