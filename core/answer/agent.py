"""The answering agent: tools over the stores, AttributedAnswer as output, a validator that holds it to the evidence."""
from __future__ import annotations

from functools import lru_cache

from pydantic_ai import Agent, ModelRetry, RunContext, UsageLimits

from core.answer.deps import AnswerDeps
from core.answer.models import AttributedAnswer
from core.answer.prompt import INSTRUCTIONS
from core.answer.tools import TOOLS
from core.answer.validate import check, finalise

OUTPUT_RETRIES = 2
TOOL_RETRIES = 2
# A model that keeps calling tools is stopped here and the run falls back to the extractive answer.
USAGE_LIMITS = UsageLimits(request_limit=8, tool_calls_limit=12)


def validate_output(ctx: RunContext[AnswerDeps], answer: AttributedAnswer) -> AttributedAnswer:
    """Retry while the model can still fix its answer; on the last attempt drop the invalid parts and say so."""
    if ctx.partial_output:
        return answer
    problems = check(answer, ctx.deps)
    if problems and not ctx.last_attempt:
        raise ModelRetry(problems.retry_message())
    for notice in problems.notices():
        ctx.deps.notice(notice)
    return finalise(answer, problems, ctx.deps)


@lru_cache(maxsize=1)
def answer_agent() -> Agent[AnswerDeps, AttributedAnswer]:
    agent = Agent(
        output_type=AttributedAnswer,
        deps_type=AnswerDeps,
        instructions=INSTRUCTIONS,
        tools=TOOLS,
        retries={"tools": TOOL_RETRIES, "output": OUTPUT_RETRIES},
        name="citewalk-answer",
    )
    agent.output_validator(validate_output)
    return agent
