"""Progress events a run emits to the chat/CLI: steps with timings, partial answer text, rule cards, the end."""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from core.answer.models import AnswerEnvelope, RuleClaims
from core.domain import Step


class StepStarted(BaseModel):
    kind: Literal["step_started"] = "step_started"
    step: Step
    detail: str = ""
    # Only a model thinks between tool calls; an extractive run's gaps are its own work, however slow the machine.
    thinks_between_tools: bool = False


class StepFinished(BaseModel):
    kind: Literal["step_finished"] = "step_finished"
    step: Step
    detail: str = Field(default="", description="e.g. '8 hits', '5 units via REFERENCES, DEFINES'")
    elapsed_ms: float = 0.0


class PartialAnswer(BaseModel):
    kind: Literal["partial_answer"] = "partial_answer"
    text: str = Field(description="the short answer so far (replaces earlier partial text)")


class RuleCard(BaseModel):
    kind: Literal["rule_card"] = "rule_card"
    rule: RuleClaims


class NoticeEvent(BaseModel):
    kind: Literal["notice"] = "notice"
    text: str


class ProvisionalAnswer(BaseModel):
    """The extractive answer, sent at once when an LLM is asked: it stands if the LLM fails or runs out of time."""

    kind: Literal["provisional"] = "provisional"
    envelope: AnswerEnvelope


class Finished(BaseModel):
    kind: Literal["finished"] = "finished"
    envelope: AnswerEnvelope


AnswerEvent = Annotated[
    StepStarted | StepFinished | PartialAnswer | RuleCard | NoticeEvent | ProvisionalAnswer | Finished, Field(discriminator="kind")
]
EventSink = Callable[[AnswerEvent], None]


def ignore(_event: AnswerEvent) -> None:
    """The sink when nobody listens."""
