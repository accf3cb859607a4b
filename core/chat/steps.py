"""Shows the answerer's progress events as live Chainlit steps, each closed with its detail and timing."""
from __future__ import annotations

import asyncio
import time

import chainlit as cl
from chainlit.utils import utc_now

from core.answer.events import AnswerEvent, NoticeEvent, PartialAnswer
from core.chat.step_order import CloseStep, OpenStep, StepAction, StepOrder
from core.domain import Step
from core.render.markdown import escape_markdown

STEP_TITLES = {
    Step.PREPARE: "Preparing the search",
    Step.SEARCH: "Searching provisions",
    Step.EXPAND: "Following citations",
    Step.READ: "Reading a provision",
    Step.CURRENT_VERSION: "Checking the current version",
    Step.COMPOSE: "Composing the answer",
}

# How long a run may stay quiet, no tool running, before "Composing the answer" is shown: an LLM thinking
# between tool calls takes seconds, the extractive answerer's next tool call follows in microseconds.
COMPOSE_IDLE_S = 0.4


def step_title(step: Step) -> str:
    return STEP_TITLES.get(step, step.replace("_", " ").capitalize())


def finished_output(detail: str, elapsed_ms: float) -> str:
    return f"{detail or 'done'} · {elapsed_ms:,.0f} ms"


class StepPresenter:
    """Turns events into steps, in the order `StepOrder` gives; the answer message streams partial text as it arrives.
    The message is created on the first partial text, not up front: Chainlit orders a run's items by creation
    time, and an answer created before its steps would be shown above them."""

    def __init__(self) -> None:
        # Steps made outside `async with` get no parent; without the run as parent the UI shows them below the answer.
        current = cl.context.current_step
        self.parent_id = current.id if current else None
        self.answer: cl.Message | None = None
        self.open: dict[Step, list[cl.Step]] = {}
        self.notices: list[str] = []
        self.prepare_started = 0.0
        self.order = StepOrder()
        self.shown_at: dict[str, float] = {}
        self.lock = asyncio.Lock()
        self.idle_timer: asyncio.Task[None] | None = None
        # Set once an extractive answer is on screen: the LLM's streamed text then needs its own heading.
        self.heading = ""
        self.closed = False  # close_all ran: an idle timer already past its sleep must open nothing after it

    async def prepare(self, detail: str) -> None:
        """A step shown at once, before any work: the officer sees the run start while stores open."""
        self.prepare_started = time.perf_counter()
        await self._open(OpenStep(Step.PREPARE, detail))

    async def handle(self, event: AnswerEvent) -> None:
        self._cancel_idle()
        async with self.lock:
            await self._handle(event)
        if self.order.composing_unseen:
            self.idle_timer = asyncio.create_task(self._when_idle())

    def _cancel_idle(self) -> None:
        if self.idle_timer is not None:
            self.idle_timer.cancel()
            self.idle_timer = None

    async def _when_idle(self) -> None:
        await asyncio.sleep(COMPOSE_IDLE_S)
        self.idle_timer = None  # from here on it runs to the end: a half-sent step must not be cancelled
        async with self.lock:
            if not self.closed:
                await self._apply(self.order.idle())

    async def _apply(self, actions: list[StepAction]) -> None:
        for action in actions:
            await (self._open(action) if isinstance(action, OpenStep) else self._close(action))

    async def _handle(self, event: AnswerEvent) -> None:
        if self.open.get(Step.PREPARE):  # the first event: the stores are open
            await self._close(CloseStep(Step.PREPARE, "ready", (time.perf_counter() - self.prepare_started) * 1000))
        await self._apply(self.order.feed(event))
        if isinstance(event, PartialAnswer) and event.text:
            content = self.heading + escape_markdown(event.text)
            if self.answer is None:
                self.answer = cl.Message(content=content)
                await self.answer.send()
            else:
                self.answer.content = content
                await self.answer.update()
        elif isinstance(event, NoticeEvent):
            self.notices.append(event.text)

    async def _open(self, action: OpenStep) -> None:
        step = cl.Step(name=step_title(action.step), type="tool", show_input=False, parent_id=self.parent_id)
        step.input = action.detail
        step.start = utc_now()
        self.open.setdefault(action.step, []).append(step)
        self.shown_at[step.id] = time.perf_counter()
        await step.send()

    async def _close(self, action: CloseStep) -> None:
        started = self.open.get(action.step) or []
        step = started.pop() if started else cl.Step(name=step_title(action.step), type="tool", parent_id=self.parent_id)
        elapsed = action.elapsed_ms
        if elapsed is None:
            elapsed = (time.perf_counter() - self.shown_at.get(step.id, time.perf_counter())) * 1000
        step.output = finished_output(action.output, elapsed)
        step.end = utc_now()
        await (step.update() if step.start else step.send())

    async def close_all(self) -> None:
        """A failed run must not leave spinners behind: neither the steps open now, nor one an idle timer that has
        already slept would open once it has the lock."""
        self._cancel_idle()
        async with self.lock:
            self.closed = True
            for steps in self.open.values():
                for step in steps:
                    step.end = utc_now()
                    await step.update()
            self.open.clear()
