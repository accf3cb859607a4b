"""Shows the answerer's progress events as live Chainlit steps, each closed with its detail and timing."""
from __future__ import annotations

import time

import chainlit as cl
from chainlit.utils import utc_now

from core.answer.events import AnswerEvent, NoticeEvent, PartialAnswer, StepFinished, StepStarted
from core.render.markdown import escape_markdown

STEP_TITLES = {
    "search": "Searching provisions",
    "expand": "Following citations",
    "read": "Reading a provision",
    "current_version": "Checking the current version",
    "compose": "Composing the answer",
}


def step_title(step: str) -> str:
    return STEP_TITLES.get(step, step.replace("_", " ").capitalize())


def finished_output(event: StepFinished) -> str:
    detail = event.detail or "done"
    return f"{detail} · {event.elapsed_ms:,.0f} ms"


class StepPresenter:
    """Turns events into steps; the answer message streams partial text as it arrives.

    The message is created on the first partial text, not up front: Chainlit orders a run's items by creation
    time, and an answer created before its steps would be shown above them.
    """

    def __init__(self) -> None:
        # Steps made outside `async with` get no parent; without the run as parent the UI shows them below the answer.
        current = cl.context.current_step
        self.parent_id = current.id if current else None
        self.answer: cl.Message | None = None
        self.open: dict[str, list[cl.Step]] = {}
        self.notices: list[str] = []
        self.prepare_started = 0.0

    async def prepare(self, detail: str) -> None:
        """A step shown at once, before any work: the officer sees the run start while stores open."""
        step = cl.Step(name="Preparing the search", type="tool", show_input=False, parent_id=self.parent_id)
        step.input = detail
        step.start = utc_now()
        self.open.setdefault("prepare", []).append(step)
        self.prepare_started = time.perf_counter()
        await step.send()

    async def _close_prepare(self) -> None:
        for step in self.open.pop("prepare", []):
            step.end = utc_now()
            step.output = f"ready · {(time.perf_counter() - self.prepare_started) * 1000:,.0f} ms"
            await step.update()

    async def handle(self, event: AnswerEvent) -> None:
        if "prepare" in self.open:
            await self._close_prepare()
        if isinstance(event, StepStarted):
            step = cl.Step(name=step_title(event.step), type="tool", show_input=False, parent_id=self.parent_id)
            step.input = event.detail
            step.start = utc_now()
            self.open.setdefault(event.step, []).append(step)
            await step.send()
        elif isinstance(event, StepFinished):
            started = self.open.get(event.step) or []
            step = started.pop() if started else cl.Step(name=step_title(event.step), type="tool", parent_id=self.parent_id)
            step.output = finished_output(event)
            step.end = utc_now()
            await (step.update() if step.start else step.send())
        elif isinstance(event, PartialAnswer) and event.text:
            if self.answer is None:
                self.answer = cl.Message(content=escape_markdown(event.text))
                await self.answer.send()
            else:
                self.answer.content = escape_markdown(event.text)
                await self.answer.update()
        elif isinstance(event, NoticeEvent):
            self.notices.append(event.text)

    async def close_all(self) -> None:
        """A failed run must not leave spinners behind."""
        for steps in self.open.values():
            for step in steps:
                step.end = utc_now()
                await step.update()
        self.open.clear()
