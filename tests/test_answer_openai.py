"""The real `openai` client path against a scripted OpenAI-compatible server on loopback, plain and streaming."""
from __future__ import annotations

import asyncio
import json

import pytest

from core.answer.events import Finished, PartialAnswer, RuleCard, StepFinished
from core.answer.service import answer_question, stream_answer
from core.answer.stores import Stores
from core.settings import get_settings
from tests.support.answer_fakes import FakeGraph, FakeRetriever
from tests.support.openai_stub import OpenAIStub, Reply, tool

QUESTION = "Must a Recognised Body notify the Regulator of changes to its systems and controls?"
GOOD_ANSWER = {
    "answer": "Yes: a Recognised Body must notify the Regulator of material changes, in writing.",
    "rules": [{"unit_id": "r2", "label": "MIR 3.9", "claims": [{"text": "must notify the Regulator of any material change"}]},
              {"unit_id": "r1", "label": "MIR 3.8.1", "claims": [{"text": "must maintain adequate systems and controls"}]}],
    "chain": [{"source": "r2", "type": "REFERENCES", "target": "r1"}],
    "caveats": [],
}
HAPPY = (
    tool("search_provisions", {"query": "notify Regulator systems controls"}),
    tool("follow_citations", {"unit_ids": ["r2"], "edge_types": ["REFERENCES"], "hops": 1}),
    tool("final_result", GOOD_ANSWER),
)


def settings_for(stub: OpenAIStub, timeout_s: float = 5.0):
    return get_settings().model_copy(update={"openai_base_url": stub.base_url, "openai_api_key": "test-key",
                                             "llm_model": "stub-model", "llm_timeout_s": timeout_s})


def stores() -> Stores:
    return Stores(FakeRetriever(), FakeGraph())


def test_tool_calls_and_json_output_over_http():
    with OpenAIStub(*HAPPY) as stub:
        envelope = answer_question(QUESTION, "fake", settings_for(stub), stores=stores())
    assert envelope.mode == "llm" and envelope.model == "stub-model"
    assert [r.unit_id for r in envelope.answer.rules] == ["r2", "r1"]
    assert envelope.answer.chain[0].type == "REFERENCES" and envelope.notices == []
    first = stub.requests[0]
    assert first["model"] == "stub-model" and not first.get("stream")
    assert {t["function"]["name"] for t in first["tools"]} >= {"search_provisions", "follow_citations", "final_result"}
    # The tool results went back to the model as tool messages.
    assert any(m.get("role") == "tool" and "MIR 3.9" in str(m.get("content")) for m in stub.requests[1]["messages"])


def test_streaming_sse_yields_steps_partial_text_and_cards():
    async def collect() -> list:
        return [e async for e in stream_answer(QUESTION, "fake", settings_for(stub), stores=stores())]

    with OpenAIStub(*HAPPY) as stub:
        events = asyncio.run(collect())
    assert all(r.get("stream") for r in stub.requests)
    kinds = [e.kind for e in events]
    assert kinds[-1] == "finished"
    steps = [e.step for e in events if isinstance(e, StepFinished)]
    assert steps[:2] == ["search", "expand"] and steps[-1] == "compose"
    partials = [e.text for e in events if isinstance(e, PartialAnswer)]
    assert len(partials) >= 2 and partials[-1] == GOOD_ANSWER["answer"]  # grew piece by piece from the SSE deltas
    assert [e.rule.unit_id for e in events if isinstance(e, RuleCard)] == ["r2", "r1"]
    envelope = events[-1].envelope if isinstance(events[-1], Finished) else None
    assert envelope is not None and envelope.mode == "llm"


@pytest.mark.parametrize("fault, reason", [
    (Reply(status=500), "HTTP 500"),
    (Reply(status=503), "HTTP 503"),
    (Reply(delay_s=2.0, tool_calls=[("search_provisions", '{"query": "x"}')]), "timed out"),
    (tool("final_result", '{"answer": "Yes", "rules": [{"unit_id": "r1", "claims": [{"text": "trunc'), "malformed"),
    (Reply(content="I think the answer is yes."), "malformed"),
])
def test_faults_fall_back_to_extractive_with_notice(fault, reason):
    with OpenAIStub(fault) as stub:
        envelope = answer_question(QUESTION, "fake", settings_for(stub, timeout_s=0.5), stores=stores())
    assert envelope.mode == "extractive" and envelope.model == "extractive"
    notice = next(n for n in envelope.notices if "stub-model" in n)
    assert "extractive" in notice and reason in notice
    assert envelope.answer.rules and all(r.unit_id in envelope.evidence_ids for r in envelope.answer.rules)
    assert 1 < len(stub.requests) <= 4  # retried, but boundedly


def test_malformed_json_once_is_retried_and_recovers():
    truncated = tool("final_result", json.dumps(GOOD_ANSWER)[:-20])
    with OpenAIStub(HAPPY[0], truncated, HAPPY[2]) as stub:
        envelope = answer_question(QUESTION, "fake", settings_for(stub), stores=stores())
    assert envelope.mode == "llm" and [r.unit_id for r in envelope.answer.rules] == ["r2", "r1"]
    assert len(stub.requests) == 3


def test_unreachable_endpoint_falls_back():
    settings = get_settings().model_copy(update={"openai_base_url": "http://127.0.0.1:9/v1", "llm_model": "nowhere",
                                                 "llm_timeout_s": 0.5})
    envelope = answer_question(QUESTION, "fake", settings, stores=stores())
    assert envelope.mode == "extractive" and any("nowhere" in n for n in envelope.notices)
