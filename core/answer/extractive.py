"""The offline answerer: a FunctionModel that drives the same tools and composes the answer from verbatim sentences."""
from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core.answer.deps import AnswerDeps
from core.answer.models import AttributedAnswer, ChainEdge, RuleClaims
from core.answer.selection import Scorer, choose_claims, choose_units
from core.answer.signals import signals_for

MODEL_NAME = "extractive"
# Every seed of the default search (k=8) is expanded: the cited or citing end of a cross-reference pair is
# often a neighbour of a lower-ranked hit. XRefRAG dev, gold pair among the candidate pairs: 341 of 390 before,
# 357 with edges among all held units recorded (tools.run_follow), 370 with every seed expanded as well.
EXPAND_SEEDS = 8
ANSWER_CHARS = 400


def _called(messages: list[ModelMessage]) -> set[str]:
    return {
        part.tool_name
        for message in messages if isinstance(message, ModelRequest)
        for part in message.parts if isinstance(part, ToolReturnPart)
    }


def _short_answer(rules: list[RuleClaims]) -> str:
    if not rules:
        return "No provision in the corpus matched the question."
    first = rules[0]
    text = f"{first.label}: {first.claims[0].text}"
    if len(rules) > 1:
        text += f" See also {rules[1].label}."
    return text if len(text) <= ANSWER_CHARS else text[: ANSWER_CHARS - 1].rstrip() + "…"


def compose(deps: AnswerDeps) -> AttributedAnswer:
    """Cite only the chosen units; each claim is a sentence of its unit with its character span."""
    scorer = Scorer.for_question(deps.question, deps.ledger)
    selection = choose_units(deps.ledger, scorer, signals_for(deps))
    rules: list[RuleClaims] = []
    for choice in selection.choices:
        unit = choice.evidence.unit
        claims = choose_claims(unit.text, scorer)
        if claims:
            rules.append(RuleClaims(unit_id=unit.id, label=unit.label or unit.id, claims=claims))
    # The short answer leads with the rule whose quoted sentence matches the question best: the citing end of
    # a pair is often a general clause ("Applicability") while the question is about what it points to.
    rules.sort(key=lambda r: -max(scorer.score(c.text) for c in r.claims))
    cited = {r.unit_id for r in rules}
    edge = selection.edge
    chain = [ChainEdge(source=edge.source, type=edge.type, target=edge.target)] \
        if edge is not None and {edge.source, edge.target} <= cited else []
    caveats = [] if rules else ["The search returned nothing to quote."]
    return AttributedAnswer(answer=_short_answer(rules), rules=rules, chain=chain, caveats=caveats)


def extractive_model(deps: AnswerDeps) -> FunctionModel:
    """Bound to the run's deps: it reads the evidence ledger its own tool calls filled."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        called = _called(messages)
        if "search_provisions" not in called:
            return ModelResponse(parts=[ToolCallPart("search_provisions", {"query": deps.question})])
        if "follow_citations" not in called and deps.graph is not None and deps.ledger.seeds():
            seeds = [s.unit.id for s in deps.ledger.seeds()[:EXPAND_SEEDS]]
            return ModelResponse(parts=[ToolCallPart("follow_citations", {"unit_ids": seeds, "hops": 1})])
        answer = compose(deps)
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, answer.model_dump(mode="json"))])

    return FunctionModel(respond, model_name=MODEL_NAME)
