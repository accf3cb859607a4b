"""Typed records of the benchmark builder: a walked path, its question, and how it was verified."""
from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field


class ReasoningType(StrEnum):
    AMENDMENT_TRACING = "amendment_tracing"
    CROSS_REFERENCE_RESOLUTION = "cross_reference_resolution"
    DEFINITION_LOOKUP = "definition_lookup"
    PROCEDURAL_SYNTHESIS = "procedural_synthesis"


class PathHop(BaseModel):
    """One stored citation edge (source cites target), with the words that made it."""

    source: str
    type: str
    target: str
    citation: str | None = None
    cue: str = Field(default="", description="the words just before the citation in the source text")


class GraphPath(BaseModel):
    units: list[str] = Field(min_length=3, description="unit ids in walk order; hops = len(units) - 1")
    hops: list[PathHop]
    documents: int = Field(description="distinct documents on the path: the cross-document signal")

    @property
    def hop_count(self) -> int:
        return len(self.hops)


class Draft(BaseModel):
    question: str
    answer: str


class Verification(BaseModel):
    passed: bool
    method: str = Field(description="'retrieval+coverage' (template) or 'llm-ablation'")
    reasons: list[str] = Field(default_factory=list, description="why it failed; empty when passed")
    details: dict = Field(default_factory=dict)


class BenchItem(BaseModel):
    """One JSONL line; `id`, `question` and `gold_unit_ids` make it readable as the harness's units format."""

    id: str
    question: str
    answer: str
    evidence_units: list[str]
    gold_unit_ids: list[str]
    evidence_path: list[PathHop]
    reasoning_type: ReasoningType
    hop_count: int
    documents: int
    generator: str
    verification: Verification
