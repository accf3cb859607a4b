"""Topic anchors: the rule extractor, and the LLM path through pydantic-ai test models."""
from __future__ import annotations

from pydantic_ai import ModelHTTPError
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.test import TestModel

from core.retrieval.anchor import LLMAnchorExtractor, RuleAnchorExtractor, TopicAnchor, anchor_extractor, llm_configured

QUESTION = ("If a Reporting Entity misses the deadline of 30 days, must it pay USD 50,000 to the Listing Authority "
            "under Rule 7.2.1?")


def test_rule_extractor_facets():
    anchor = RuleAnchorExtractor(["reporting entity"]).extract(QUESTION)
    assert anchor.source == "rules"
    assert "Reporting Entity" in anchor.actor and "Listing Authority" in anchor.actor
    assert any("30 days" in t for t in anchor.time)
    assert any("50,000" in a for a in anchor.amount)
    assert anchor.situation and anchor.situation[0].startswith("If a Reporting Entity misses")
    assert "7.2.1" in anchor.topic and "deadline" in anchor.topic
    # Question scaffolding is not topic.
    assert not {"must", "the", "under"} & set(anchor.topic.lower().split())


def test_rule_extractor_finds_corpus_defined_terms_in_lower_case():
    anchor = RuleAnchorExtractor(["protected health information"]).extract(
        "can a hospital share protected health information with police?")
    assert anchor.topic.startswith("protected health information")


def test_anchor_text_deduplicates_and_never_empty_for_content():
    anchor = TopicAnchor(topic="consent", actor=["covered entity"], situation=["covered entity"])
    assert anchor.text() == "consent covered entity"


def test_llm_path_with_test_model(test_settings):
    model = TestModel(custom_output_args={"topic": "trading halt", "actor": ["Reporting Entity"], "time": [],
                                          "amount": [], "situation": ["contact points unreachable"]})
    anchor = LLMAnchorExtractor(test_settings, model=model).extract(QUESTION)
    assert anchor.source == "llm" and anchor.topic == "trading halt"
    assert anchor.text() == "trading halt Reporting Entity contact points unreachable"


def test_llm_path_sees_the_question_and_falls_back_on_failure(test_settings):
    seen = []

    def answer(messages, info):
        seen.append(str(messages[-1].parts[-1].content))
        tool = info.output_tools[0].name
        return ModelResponse(parts=[ToolCallPart(tool, {"topic": "fees", "actor": [], "time": [], "amount": [],
                                                        "situation": []})])

    assert LLMAnchorExtractor(test_settings, model=FunctionModel(answer)).extract(QUESTION).topic == "fees"
    assert QUESTION in seen[0]

    def broken(messages, info):
        raise ModelHTTPError(503, "local", "endpoint down")

    fallback = LLMAnchorExtractor(test_settings, model=FunctionModel(broken)).extract(QUESTION)
    assert fallback.source == "rules" and "7.2.1" in fallback.topic


def test_llm_only_when_configured(test_settings):
    plain = test_settings.model_copy(update={"llm_model": "", "openai_base_url": None, "openai_api_key": None})
    assert not llm_configured(plain) and isinstance(anchor_extractor(plain), RuleAnchorExtractor)
    configured = plain.model_copy(update={"llm_model": "m", "openai_base_url": "http://127.0.0.1:9/v1"})
    assert llm_configured(configured) and isinstance(anchor_extractor(configured), LLMAnchorExtractor)
