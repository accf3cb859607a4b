"""Which step to show or close for each progress event, so the chat lists steps in the order they run.

The service opens "compose" before the first tool call and closes it last, so it is shown only once it is what the
run is doing: when answer text streams, when it ends, or when the run is idle with no tool running (`idle`). A tool
called after that closes the shown compose step.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.answer.events import AnswerEvent, PartialAnswer, StepFinished, StepStarted
from core.domain import Step

COMPOSE = Step.COMPOSE
ASKED_FOR_MORE = "asked the tools for more"


@dataclass(frozen=True)
class OpenStep:
    step: Step
    detail: str = ""


@dataclass(frozen=True)
class CloseStep:
    step: Step
    output: str = ""
    elapsed_ms: float | None = None  # None: the presenter's own clock since the step was shown


StepAction = OpenStep | CloseStep


class StepOrder:
    def __init__(self) -> None:
        self.running: list[Step] = []  # tool steps shown and not yet finished
        self.compose_detail: str | None = None  # compose started and not finished
        self.compose_shown = False
        self.compose_thinks = False  # an LLM composing: a quiet moment means it is thinking

    def _show_compose(self) -> list[StepAction]:
        if self.compose_detail is None or self.compose_shown or self.running:
            return []
        self.compose_shown = True
        return [OpenStep(COMPOSE, self.compose_detail)]

    def feed(self, event: AnswerEvent) -> list[StepAction]:
        if isinstance(event, StepStarted) and event.step == COMPOSE:
            self.compose_detail, self.compose_shown = event.detail, False
            self.compose_thinks = event.thinks_between_tools
            return []
        if isinstance(event, StepStarted):
            actions: list[StepAction] = []
            if self.compose_shown:
                self.compose_shown = False
                actions.append(CloseStep(COMPOSE, ASKED_FOR_MORE))
            self.running.append(event.step)
            return [*actions, OpenStep(event.step, event.detail)]
        if isinstance(event, StepFinished) and event.step == COMPOSE:
            actions = [] if self.compose_shown else [OpenStep(COMPOSE, self.compose_detail or "")]
            self.compose_detail, self.compose_shown = None, False
            return [*actions, CloseStep(COMPOSE, event.detail, event.elapsed_ms)]
        if isinstance(event, StepFinished):
            if event.step in self.running:
                self.running.remove(event.step)
            return [CloseStep(event.step, event.detail, event.elapsed_ms)]
        if isinstance(event, PartialAnswer) and event.text:
            return self._show_compose()  # the answer message must come after the step that writes it
        return []

    @property
    def composing_unseen(self) -> bool:
        """Composing, with no tool running and no compose step shown: worth showing if the run stays quiet."""
        return self.compose_thinks and self.compose_detail is not None and not self.compose_shown and not self.running

    def idle(self) -> list[StepAction]:
        """No event for a while: a model is thinking. An extractive run's pauses are not shown as composing."""
        return self._show_compose() if self.compose_thinks else []
