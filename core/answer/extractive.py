"""The offline answerer: a FunctionModel that drives the same tools and composes the answer from verbatim sentences."""
from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core import current_law
from core.answer.deps import AnswerDeps
from core.answer.items import read_items
from core.answer.models import AttributedAnswer, RuleClaims
from core.answer.quotes import choose_claims, item_claims
from core.answer.selection import UNSURE_MARGIN, Scorer, Selection, choose_units
from core.answer.short import empty_caveat, missing_caveat, short_answer, unsure_caveat
from core.answer.signals import signals_for
from core.answer.terms import terms_of
from core.domain import Edge

MODEL_NAME = "extractive"
# Every seed of the default search (k=8) is expanded: the cited or citing end of a cross-reference pair is
# often a neighbour of a lower-ranked hit. XRefRAG dev, gold pair among the candidate pairs: 341 of 390 before,
# 357 with edges among all held units recorded (tools.run_follow), 370 with every seed expanded as well.
EXPAND_SEEDS = 8
# A question word counts as missing when its idf weight is at least this share of the question's heaviest.
MISSING_WEIGHT = 0.6
MAX_MISSING = 4


def _called(messages: list[ModelMessage]) -> set[str]:
    return {
        part.tool_name
        for message in messages if isinstance(message, ModelRequest)
        for part in message.parts if isinstance(part, ToolReturnPart)
    }


def _missing_words(question: str, scorer: Scorer, rules: list[RuleClaims]) -> list[str]:
    """Rare question words that no quoted text contains (as written in the question, rarest first)."""
    quoted: set[str] = {t for r in rules for c in r.claims for t in terms_of(c.text)}
    quoted |= {t for r in rules for t in terms_of(r.label)}
    heaviest = max(scorer.weights.values(), default=0.0)
    out: dict[str, float] = {}
    for word in question.split():
        word = word.strip("?,.;:!\"'()“”‘’")
        for term in terms_of(word):
            weight = scorer.weights.get(term, 0.0)
            if term not in quoted and weight >= MISSING_WEIGHT * heaviest and weight > 0:
                out.setdefault(word, weight)
    return sorted(out, key=lambda w: -out[w])[:MAX_MISSING]


def _caveats(deps: AnswerDeps, scorer: Scorer, selection: Selection, rules: list[RuleClaims]) -> list[str]:
    if not rules:
        return [empty_caveat(deps.question)]
    out: list[str] = []
    if selection.runner_up is not None and selection.score - selection.runner_up < UNSURE_MARGIN:
        out.append(unsure_caveat(rules, deps.question))
    missing = _missing_words(deps.question, scorer, rules)
    if missing:
        out.append(missing_caveat(rules, deps.question, missing))
    if deps.graph is not None:
        out += current_law.caveats(deps.graph, [r.unit_id for r in rules])
    return out


def compose(deps: AnswerDeps) -> AttributedAnswer:
    """Cite only the chosen units; each claim is a sentence of its unit (or of an item under it) with its span."""
    scorer = Scorer.for_question(deps.question, deps.ledger)
    selection = choose_units(deps.ledger, scorer, signals_for(deps))
    items = read_items(deps, [c.evidence.unit.id for c in selection.choices])
    rules: list[RuleClaims] = []
    for choice in selection.choices:
        unit = choice.evidence.unit
        claims = choose_claims(unit.text, scorer) + item_claims(unit, items)
        if claims:
            rules.append(RuleClaims(unit_id=unit.id, label=unit.label or unit.id, claims=claims))
    # The short answer leads with the rule whose quoted text matches the question best: the citing end of
    # a pair is often a general clause ("Applicability") while the question is about what it points to.
    rules.sort(key=lambda r: -scorer.score(" ".join(c.text for c in r.claims)))
    cited = {r.unit_id for r in rules}
    edge = selection.edge
    chain = [Edge(source=edge.source, type=edge.type, target=edge.target)] \
        if edge is not None and {edge.source, edge.target} <= cited else []
    return AttributedAnswer(answer=short_answer(rules, deps.question), rules=rules, chain=chain,
                            caveats=_caveats(deps, scorer, selection, rules))


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
