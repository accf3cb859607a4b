"""A model that is slow, never stops, answers garbage or fails ends in the extractive answer within the deadline.

Against the scripted OpenAI-compatible server, through the real `openai` client, plain and streamed.
"""
from __future__ import annotations

import asyncio
import time

import pytest

from core.answer.events import Finished, NoticeEvent, PartialAnswer, ProvisionalAnswer, StepStarted
from core.answer.service import answer_question, stream_answer
from tests.support.openai_stub import OpenAIStub, Reply, tool
from tests.test_answer_openai import HAPPY, QUESTION, settings_for, stores

DEADLINE_S = 3.0
# The service keeps its handover time inside the deadline; this is slack for a loaded test machine only.
MARGIN_S = 0.5

FAULTS = {
    "slow": (Reply(delay_s=30, tool_calls=[("search_provisions", '{"query": "x"}')]), "timed out"),
    "babble": (Reply(babble_s=30), "timed out"),
    "malformed": (tool("final_result", '{"answer": "Yes", "rules": [{"unit_id": "r1", "claims": [{"text": "tr'), "malformed"),
    "prose": (Reply(content="I think the answer is yes."), "malformed"),
    "http_500": (Reply(status=500), "HTTP 500"),
    "tool_loop": (tool("search_provisions", {"query": "again"}), "too many"),
}


def capped(stub: OpenAIStub, deadline_s: float = DEADLINE_S):
    # A per-request timeout far above the deadline: the deadline alone must stop the run.
    return settings_for(stub, timeout_s=60).model_copy(update={"llm_deadline_s": deadline_s, "llm_max_tokens": 300})


def collect(settings) -> list:
    async def run() -> list:
        return [e async for e in stream_answer(QUESTION, "fake", settings, stores=stores())]
    return asyncio.run(run())


@pytest.mark.parametrize("streamed", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize("name", list(FAULTS))
def test_fault_ends_in_extractive_answer_within_deadline(name, streamed):
    fault, reason = FAULTS[name]
    with OpenAIStub(fault) as stub:
        started = time.perf_counter()
        if streamed:
            events = collect(capped(stub))
            envelope = events[-1].envelope
        else:
            envelope = answer_question(QUESTION, "fake", capped(stub), stores=stores())
        elapsed = time.perf_counter() - started
    assert elapsed <= DEADLINE_S + MARGIN_S, f"{name}: {elapsed:.2f} s"
    assert envelope.mode == "extractive" and envelope.answer.rules
    notice = next(n for n in envelope.notices if "stub-model" in n)
    assert reason in notice and "extractive" in notice
    run = envelope.llm_run
    assert run is not None and run.fallback and reason in run.fallback and run.elapsed_ms <= DEADLINE_S * 1000 + 200
    assert all(r.get("max_completion_tokens") == 300 for r in stub.requests)
    if name == "prose":
        assert run.said.startswith("I think")
    if streamed:  # the extractive answer was on screen before the model was even asked
        kinds = [e.kind for e in events]
        assert kinds.index("provisional") < kinds.index("finished")
        assert events[kinds.index("provisional")].envelope.answer == envelope.answer
        assert any(isinstance(e, NoticeEvent) and reason in e.text for e in events)


def test_counts_what_the_model_did():
    bad_then_good = (HAPPY[0], tool("final_result", {"answer": "x", "rules": [{"unit_id": "nope", "label": "?",
                                                                               "claims": [{"text": "t"}]}]}), HAPPY[2])
    with OpenAIStub(*bad_then_good) as stub:
        envelope = answer_question(QUESTION, "fake", capped(stub, 10), stores=stores())
    run = envelope.llm_run
    assert envelope.mode == "llm" and run is not None and run.fallback is None
    assert (run.requests, run.tool_calls, run.output_retries) == (3, 3, 1)
    assert envelope.extractive is not None and envelope.extractive.mode == "extractive"


def test_llm_streams_in_after_the_provisional_extractive_answer():
    with OpenAIStub(*HAPPY) as stub:
        events = collect(capped(stub, 10))
    kinds = [e.kind for e in events]
    provisional = kinds.index("provisional")
    llm_compose = next(i for i, e in enumerate(events) if isinstance(e, StepStarted) and "stub-model" in e.detail)
    assert provisional < llm_compose
    partials = [e.text for e in events[provisional:] if isinstance(e, PartialAnswer)]
    assert len(partials) >= 2 and partials[-1].startswith("Yes: a Recognised Body")
    final = events[-1]
    assert isinstance(final, Finished) and final.envelope.mode == "llm"
    assert final.envelope.extractive == events[provisional].envelope
    assert isinstance(events[provisional], ProvisionalAnswer) and not events[provisional].envelope.llm_run


def test_no_time_left_skips_the_model():
    with OpenAIStub(*HAPPY) as stub:
        envelope = answer_question(QUESTION, "fake", capped(stub, 0.5), stores=stores())
    assert envelope.mode == "extractive" and stub.requests == []
    assert envelope.llm_run is not None and "no time left" in (envelope.llm_run.fallback or "")
