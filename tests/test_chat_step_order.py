"""The chat's step order for a model that calls tools, thinks, streams and calls a tool again."""
from __future__ import annotations

from core.answer.events import NoticeEvent, PartialAnswer, StepFinished, StepStarted
from core.chat.step_order import ASKED_FOR_MORE, COMPOSE, CloseStep, OpenStep, StepOrder

IDLE = "idle"  # the presenter's timer: no event for a moment


def _actions(events):
    order = StepOrder()
    return [a for e in events for a in (order.idle() if e == IDLE else order.feed(e))]


def test_composing_is_shown_after_the_tools_it_waited_on():
    actions = _actions([
        StepStarted(step=COMPOSE, detail="composing answer with m", thinks_between_tools=True),
        StepStarted(step="search", detail="q"),
        StepFinished(step="search", detail="8 hits", elapsed_ms=12),
        IDLE,
        StepStarted(step="expand", detail="from 2 units"),
        NoticeEvent(text="n"),
        StepFinished(step="expand", detail="5 units", elapsed_ms=30),
        PartialAnswer(text="The rule says"),
        IDLE,
        StepFinished(step=COMPOSE, detail="m", elapsed_ms=900),
    ])
    assert actions == [
        OpenStep("search", "q"), CloseStep("search", "8 hits", 12),
        OpenStep(COMPOSE, "composing answer with m"),
        CloseStep(COMPOSE, ASKED_FOR_MORE), OpenStep("expand", "from 2 units"), CloseStep("expand", "5 units", 30),
        OpenStep(COMPOSE, "composing answer with m"), CloseStep(COMPOSE, "m", 900),
    ]


def test_compose_without_tools_still_shows_once():
    actions = _actions([StepStarted(step=COMPOSE, detail="d"), StepFinished(step=COMPOSE, detail="x", elapsed_ms=3)])
    assert actions == [OpenStep(COMPOSE, "d"), CloseStep(COMPOSE, "x", 3)]


def test_parallel_tools_keep_compose_hidden_until_both_finish():
    actions = _actions([
        StepStarted(step=COMPOSE), StepStarted(step="read"), StepStarted(step="current_version"),
        StepFinished(step="read"), StepFinished(step="current_version"), StepFinished(step=COMPOSE),
    ])
    opened = [a.step for a in actions if isinstance(a, OpenStep)]
    assert opened == ["read", "current_version", COMPOSE]


def test_tools_in_quick_succession_show_compose_once_after_them():
    actions = _actions([
        StepStarted(step=COMPOSE, detail="d"), StepStarted(step="search"), StepFinished(step="search"),
        StepStarted(step="expand"), StepFinished(step="expand"), StepFinished(step=COMPOSE, detail="x"),
    ])
    assert [a.step for a in actions if isinstance(a, OpenStep)] == ["search", "expand", COMPOSE]
    assert ASKED_FOR_MORE not in [a.output for a in actions if isinstance(a, CloseStep)]


def test_idle_shows_compose_only_while_no_tool_runs():
    order = StepOrder()
    order.feed(StepStarted(step=COMPOSE, detail="d", thinks_between_tools=True))
    order.feed(StepStarted(step="search"))
    assert not order.composing_unseen and order.idle() == []
    order.feed(StepFinished(step="search"))
    assert order.composing_unseen and order.idle() == [OpenStep(COMPOSE, "d")] and not order.composing_unseen


def test_a_slow_extractive_run_shows_compose_once_at_its_end():
    """On a loaded machine the extractive answerer's own work between its tools can outlast the idle timer."""
    actions = _actions([
        StepStarted(step=COMPOSE, detail="composing the extractive answer"),
        StepStarted(step="search"), StepFinished(step="search"), IDLE,
        StepStarted(step="expand"), StepFinished(step="expand"), IDLE,
        StepFinished(step=COMPOSE, detail="extractive"),
    ])
    assert [a.step for a in actions if isinstance(a, OpenStep)] == ["search", "expand", COMPOSE]
