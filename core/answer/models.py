"""The answer's output type: per-rule claims, the reasoning chain as stored edges, caveats."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from core.domain import Edge


class Claim(BaseModel):
    text: str = Field(min_length=1)
    paragraph: str | None = Field(default=None, description="paragraph mark inside the rule, e.g. '(a)(2)'")
    span: tuple[int, int] | None = Field(default=None, description="character span in the unit text (extractive claims)")
    unit_id: str | None = Field(default=None, description="the sub-unit quoted (an item under a lead-in); "
                                                          "None: the rule's own unit. The span is in this unit's text")


class RuleClaims(BaseModel):
    unit_id: str
    label: str = Field(description="lawyer-style label: '45 CFR 164.508(a)(2)', 'MIR 3.8.1'")
    document_title: str = ""
    claims: list[Claim] = Field(min_length=1)


class RuleRef(BaseModel):
    """A rule named without quoting it: a candidate of a close choice, one click from its source."""

    unit_id: str
    label: str
    topic: str = Field(default="", description="what it is about: its title, or the nearest titled heading above it")


class AttributedAnswer(BaseModel):
    answer: str = Field(description="short answer in plain words")
    rules: list[RuleClaims] = Field(default_factory=list)
    chain: list[Edge] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    abstained: bool = Field(default=False, description="no provision found answers the question; the rules are "
                                                        "the closest, for the user to check")
    may_be_about: list[RuleRef] = Field(default_factory=list, description="when the choice between candidate rules "
                                        "was close: the two or three of them, best first (the answer cites the first)")
    choice_margin: float | None = Field(default=None, description="the chosen rules' score lead over the next "
                                        "candidate (extractive answer); None when there was none")


class LlmRun(BaseModel):
    """What one LLM attempt cost and how it ended, for the notice, the API and bench.llm_live."""

    model: str
    requests: int = Field(default=0, description="model responses received, one cut off by the deadline included")
    tool_calls: int = Field(default=0, description="tool calls parsed from those responses, the output tool included")
    output_retries: int = Field(default=0, description="answers sent back to the model: invalid, malformed or unvalidated")
    tool_retries: int = Field(default=0, description="tool calls sent back: unknown tool or bad arguments")
    fallback: str | None = Field(default=None, description="why the extractive answer was given instead; None if the LLM answered")
    said: str = Field(default="", description="the start of the model's last text reply, to tell prose from tool calls")
    elapsed_ms: float = 0.0
    budget_s: float = Field(default=0.0, description="time the LLM was given: the deadline less what the extractive answer took")


class AnswerEnvelope(BaseModel):
    """What callers (CLI, chat, share page, benchmarks) get: the answer plus how it was produced."""

    question: str
    corpus: str
    answer: AttributedAnswer
    mode: Literal["llm", "extractive"]
    model: str = Field(description="model name, or 'extractive' for the offline answerer")
    notices: list[str] = Field(default_factory=list, description="visible degradations: fallback, dropped parts, …")
    evidence_ids: list[str] = Field(default_factory=list, description="the run's evidence ledger")
    seed_ids: list[str] = Field(default_factory=list, description="units found directly by search (not by expansion)")
    timings_ms: dict[str, float] = Field(default_factory=dict)
    error: str | None = Field(default=None, description="set when the question was not answered (empty, too long, binary…)")
    method: str = Field(default="", description="retrieval method used to search provisions")
    as_of: str | None = Field(default=None, description="the date the answer applies: the law as in force that day")
    llm_run: LlmRun | None = Field(default=None, description="the LLM attempt, when a model was asked")
    extractive: AnswerEnvelope | None = Field(
        default=None, description="the extractive answer shown first while the LLM composed (set when mode is 'llm')")
