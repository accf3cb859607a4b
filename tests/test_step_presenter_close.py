"""A run's steps are all closed when it ends, even when the idle timer that shows "Composing the answer" has
already slept and waits for the presenter's lock as the run ends (a run that fails right after the timer fired)."""
from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace

import pytest

from core.answer.events import StepFinished, StepStarted
from core.chat import steps
from core.domain import Step

_ids = itertools.count()


class FakeStep:
    """What the presenter uses of `chainlit.Step`, recording what the page would show."""

    shown: list[FakeStep] = []

    def __init__(self, name: str, type: str = "tool", show_input: bool = False, parent_id: str | None = None) -> None:
        self.name, self.id = name, f"step-{next(_ids)}"
        self.input = self.output = ""
        self.start = self.end = None

    async def send(self) -> None:
        FakeStep.shown.append(self)

    async def update(self) -> None:
        return None


@pytest.fixture
def presenter(monkeypatch: pytest.MonkeyPatch) -> steps.StepPresenter:
    FakeStep.shown = []
    monkeypatch.setattr(steps, "cl", SimpleNamespace(context=SimpleNamespace(current_step=None), Step=FakeStep))
    monkeypatch.setattr(steps, "COMPOSE_IDLE_S", 0.01)
    return steps.StepPresenter()


def test_a_run_ending_as_the_idle_timer_fires_leaves_no_step_open(presenter: steps.StepPresenter) -> None:
    async def run() -> None:
        # An LLM composing, no tool running: the idle timer starts.
        await presenter.handle(StepStarted(step=Step.COMPOSE, detail="composing", thinks_between_tools=True))
        assert presenter.idle_timer is not None
        async with presenter.lock:  # an event being shown holds the lock while the timer's sleep ends
            await asyncio.sleep(0.05)
            assert presenter.idle_timer is None, "the timer has slept and now waits for the lock"
            ending = asyncio.create_task(presenter.close_all())  # the run fails here
            await asyncio.sleep(0.01)
        await ending
        await asyncio.sleep(0.05)  # the timer has had the lock by now

    asyncio.run(run())
    left_open = [s.name for s in FakeStep.shown if s.end is None]
    assert left_open == [], f"steps shown after the run ended and never closed: {left_open}"


def test_an_idle_run_still_shows_composing(presenter: steps.StepPresenter) -> None:
    async def run() -> None:
        await presenter.handle(StepStarted(step=Step.COMPOSE, detail="composing", thinks_between_tools=True))
        await asyncio.sleep(0.05)
        await presenter.close_all()

    asyncio.run(run())
    assert [s.name for s in FakeStep.shown] == [steps.step_title(Step.COMPOSE)]
    assert all(s.end is not None for s in FakeStep.shown)


def test_the_prepare_step_closes_ready_at_the_first_event(presenter: steps.StepPresenter) -> None:
    async def run() -> None:
        await presenter.prepare("corpus hipaa, method citewalk")
        await presenter.handle(StepStarted(step=Step.SEARCH, detail="the question"))
        await presenter.handle(StepFinished(step=Step.SEARCH, detail="8 hits", elapsed_ms=3.0))
        await presenter.close_all()

    asyncio.run(run())
    prepare, search = FakeStep.shown
    assert (prepare.name, prepare.input) == (steps.step_title(Step.PREPARE), "corpus hipaa, method citewalk")
    assert prepare.output.startswith("ready · ") and prepare.output.endswith(" ms") and prepare.end is not None
    assert (search.output, search.end is not None) == ("8 hits · 3 ms", True)
