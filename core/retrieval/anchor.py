"""Topic anchor of a question: the core topic plus facets (actor, time, amount, situation).

RefWalk's `wide` view is the anchor alone, so passages sharing the topic but not the wording can surface. The
deterministic extractor needs no model; a configured LLM (pydantic-ai) is used when present, falling back to it.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from core.settings import Settings

if TYPE_CHECKING:  # types only: pydantic-ai is imported where an LLM anchor is made, as before
    from pydantic_ai.models import Model

log = logging.getLogger("citewalk.retrieval")


class TopicAnchor(BaseModel):
    topic: str = Field(description="the core regulatory topic, a short noun phrase")
    actor: list[str] = Field(default_factory=list, description="who the rule applies to")
    time: list[str] = Field(default_factory=list, description="deadlines, periods, dates")
    amount: list[str] = Field(default_factory=list, description="thresholds, sums, percentages")
    situation: list[str] = Field(default_factory=list, description="the condition or case the question is about")
    source: str = "rules"

    def text(self) -> str:
        parts = [self.topic, *self.actor, *self.time, *self.amount, *self.situation]
        return " ".join(dict.fromkeys(p.strip() for p in parts if p and p.strip()))


_ACTOR_HEADS = (
    "person|persons|entity|entities|firm|firms|operator|operators|authority|regulator|client|clients|issuer|issuers|"
    "company|companies|institution|institutions|associate|associates|provider|providers|plan|plans|individual|"
    "individuals|officer|officers|board|manager|managers|trustee|trustees|auditor|auditors|member|members|"
    "participant|participants|applicant|applicants|holder|holders|agent|agents|secretary|fund|funds"
)
_ACTOR = re.compile(rf"\b((?:[A-Z][\w'-]*\s+){{0,3}}(?i:{_ACTOR_HEADS}))\b")
_TIME = re.compile(
    r"\b(?:within|before|after|by|no later than|at least|every)?\s*(?:\d+|one|two|three|six|twelve|thirty)\s+"
    r"(?:business\s+)?(?:days?|weeks?|months?|years?)\b|\b(?:annual(?:ly)?|quarterly|monthly|deadline|"
    r"(?:19|20)\d{2})\b", re.IGNORECASE)
_AMOUNT = re.compile(r"(?:US\$|\$|USD|AED)\s?[\d,.]+(?:\s?(?:million|billion))?|\b\d+(?:\.\d+)?\s?%|"
                     r"\b[\d,.]+\s?(?:million|billion)\b|\bthreshold\b", re.IGNORECASE)
_SITUATION = re.compile(r"\b(?:if|when|where|in case|in the event that|unless)\b[^,?.;]{3,120}", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b(?:[A-Z][a-z'’-]+|[A-Z]{2,})(?:\s+(?:of|and|for|the)?\s*(?:[A-Z][a-z'’-]+|[A-Z]{2,}))*")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d+(?:\.\d+)*(?:\([0-9a-z]{1,4}\))*")
# Question scaffolding that carries no topic: dropping it is the point of the wide view.
_FILLER = frozenset(
    "what which who whom whose how why when where is are was were be been do does did can could should would will "
    "shall may must the a an of to in on for and or with by as at from that this these those there their its our "
    "my we i you they it any all each such specific specifically particular exactly detail details detailed "
    "describe explain provide example examples please tell about regarding concerning ensure ensuring comply "
    "compliance complying required requirement requirements regulatory regulation regulations rules rule "
    "expected expect expectations key main steps step process procedures procedure considered consider "
    "obligations obligation need needs take taken also under within into if than so not".split()
)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(i.strip() for i in items if i and i.strip()))


class RuleAnchorExtractor:
    """Noun-phrase-ish topic, defined terms of the corpus, actors and facets by pattern; no model."""

    def __init__(self, defined_terms: Iterable[str] = ()) -> None:
        self.defined = {t.lower(): t for t in defined_terms if len(t) > 2}

    def extract(self, question: str) -> TopicAnchor:
        situation = _unique(m.group(0) for m in _SITUATION.finditer(question))
        actors = _unique(m.group(1) for m in _ACTOR.finditer(question) if m.group(1).lower() not in _FILLER)
        lowered = question.lower()
        terms = [t for key, t in self.defined.items() if re.search(rf"\b{re.escape(key)}\b", lowered)]
        # Capitalised phrases mid-sentence are the corpus's defined terms in ADGM/HIPAA style drafting.
        capitalised = [m.group(0) for m in _CAPITALISED.finditer(question) if m.start() > 0
                       and m.group(0).lower() not in _FILLER]
        phrases = _unique([*terms, *capitalised])
        covered = {w.lower() for p in phrases for w in p.split()}
        content = [w for w in _WORD.findall(question) if w.lower() not in _FILLER and w.lower() not in covered]
        topic_terms = _unique([*phrases, *content])
        return TopicAnchor(
            topic=" ".join(topic_terms), actor=actors,
            time=_unique(m.group(0) for m in _TIME.finditer(question)),
            amount=_unique(m.group(0) for m in _AMOUNT.finditer(question)),
            situation=situation,
        )


ANCHOR_INSTRUCTIONS = (
    "Extract the topic anchor of a question about regulations: `topic` is the core regulatory topic as a short "
    "noun phrase using the regulation's own terms; facets list the actor(s), time constraints, amounts or "
    "thresholds, and the situation/condition. Leave a facet empty when the question has none. Do not answer."
)


class LLMAnchorExtractor:
    """pydantic-ai agent with a typed output; `model` may be any pydantic-ai Model (TestModel in tests)."""

    def __init__(self, settings: Settings, model: Model | None = None, fallback: RuleAnchorExtractor | None = None) -> None:
        from pydantic_ai import Agent

        self.settings = settings
        self.fallback = fallback or RuleAnchorExtractor()
        self.agent = Agent(model or _openai_model(settings), output_type=TopicAnchor, instructions=ANCHOR_INSTRUCTIONS)

    def extract(self, question: str) -> TopicAnchor:
        from pydantic_ai.exceptions import AgentRunError
        from pydantic_ai.settings import ModelSettings

        # What a model endpoint does when it is down, slow, over its limits or answers nonsense (pydantic-ai
        # wraps the SDK's HTTP and validation failures in AgentRunError); anything else is a bug, not caught here.
        model_faults = (AgentRunError, TimeoutError, OSError)
        try:
            result = self.agent.run_sync(question, model_settings=ModelSettings(timeout=self.settings.llm_timeout_s))
            return result.output.model_copy(update={"source": "llm"})
        except model_faults as exc:  # a model outage must not stop retrieval: the rules still give an anchor
            log.warning("topic anchor from the rules: the model failed (%s: %s)", type(exc).__name__, str(exc)[:200])
            return self.fallback.extract(question)


def _openai_model(settings: Settings) -> Model:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=settings.openai_base_url, api_key=settings.openai_api_key or "unused")
    return OpenAIChatModel(settings.llm_model, provider=provider)


def llm_configured(settings: Settings) -> bool:
    return bool(settings.llm_model and (settings.openai_base_url or settings.openai_api_key))


def anchor_extractor(settings: Settings, defined_terms: Iterable[str] = ()) -> RuleAnchorExtractor | LLMAnchorExtractor:
    rules = RuleAnchorExtractor(defined_terms)
    return LLMAnchorExtractor(settings, fallback=rules) if llm_configured(settings) else rules
