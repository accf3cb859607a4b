"""LLM writer and checker (pydantic-ai, typed outputs) for when a chat model is configured.

The writer sees the path's units and must ask something that needs each of them. The checker is a
separate pass that judges answerability from a set of units: it must say yes with every unit and no
with each unit left out in turn (one call per ablation), or the item is dropped.
"""
from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, Field
from pydantic_ai import Agent
from pydantic_ai.models import Model

from bench.generator.models import Draft, GraphPath, ReasoningType, Verification
from bench.generator.paths import CorpusGraph


class Answerability(BaseModel):
    answerable: bool = Field(description="true only if the units alone fully answer the question")
    missing: str = Field(default="", description="what is missing when not answerable")


WRITER = """You write one benchmark question over regulations. You get a chain of legal units, each citing the next.
Write a question that cannot be answered without reading every unit of the chain: name the first unit by its
label, describe later units only by their subject (never by label), and ask for what the chain establishes
together. Reasoning type to exercise: {rtype}. Also give the reference answer, citing each unit's label."""
CHECKER = """You judge whether a question can be fully answered from the given regulation units alone, without
outside knowledge. Answer answerable=false if any part of the question needs information that is not in them."""


@lru_cache(maxsize=1)
def writer_agent() -> Agent[None, Draft]:
    return Agent(output_type=Draft, name="citewalk-bench-writer")


@lru_cache(maxsize=1)
def checker_agent() -> Agent[None, Answerability]:
    return Agent(output_type=Answerability, instructions=CHECKER, name="citewalk-bench-checker")


def evidence_block(graph: CorpusGraph, units: list[str]) -> str:
    return "\n\n".join(
        f"[{graph.units[u].label}] {graph.heading(u)}\n{graph.units[u].text}" for u in units if u in graph.units
    )


def write(model: Model | str, graph: CorpusGraph, path: GraphPath, rtype: ReasoningType) -> Draft:
    chain = " -> ".join(f"{graph.units[h.source].label} --{h.type}-->" for h in path.hops) + \
        f" {graph.units[path.units[-1]].label}"
    prompt = f"Chain: {chain}\n\nUnits:\n{evidence_block(graph, path.units)}"
    return writer_agent().run_sync(prompt, model=model, instructions=WRITER.format(rtype=rtype.value)).output


def verify(model: Model | str, graph: CorpusGraph, path: GraphPath, question: str) -> Verification:
    def judge(units: list[str]) -> Answerability:
        prompt = f"Question: {question}\n\nUnits:\n{evidence_block(graph, units)}"
        return checker_agent().run_sync(prompt, model=model).output

    problems: list[str] = []
    full = judge(path.units)
    if not full.answerable:
        problems.append(f"llm: not answerable from all units ({full.missing})")
    ablations = {}
    for unit_id in path.units:
        verdict = judge([u for u in path.units if u != unit_id])
        ablations[unit_id] = verdict.answerable
        if verdict.answerable:
            problems.append(f"necessity: answerable without {unit_id}")
    return Verification(passed=not problems, method="llm-ablation", reasons=problems,
                        details={"answerable_with_all": full.answerable, "answerable_without": ablations})
