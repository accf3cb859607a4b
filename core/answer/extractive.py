"""The offline answerer: a FunctionModel that drives the same tools and composes the answer from verbatim sentences."""
from __future__ import annotations

import time

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core import current_law
from core.answer.asked import Kind, asked_kind, carries
from core.answer.checkable import checkable_words
from core.answer.closure import with_closure
from core.answer.deferred import deferred_to
from core.answer.deps import AnswerDeps
from core.answer.fit import Fitted, fit
from core.answer.headings import off_units
from core.answer.items import read_items
from core.answer.models import AttributedAnswer, Claim, RuleClaims
from core.answer.off_topic import off_topic
from core.answer.quotes import choose_claims, item_claims, lead_in_claim
from core.answer.selection import Scorer, Selection, choose_units
from core.answer.short import abstain_answer, empty_caveat, missing_caveat, short_answer
from core.answer.signals import signals_for
from core.answer.terms import terms_of
from core.answer.unsure import may_be_about
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
    for word in checkable_words(question):
        for term in terms_of(word):
            weight = scorer.weights.get(term, 0.0)
            if term not in quoted and weight >= MISSING_WEIGHT * heaviest and weight > 0:
                out.setdefault(word, weight)
    return sorted(out, key=lambda w: -out[w])[:MAX_MISSING]


def _caveats(deps: AnswerDeps, scorer: Scorer, rules: list[RuleClaims]) -> list[str]:
    if not rules:
        return [empty_caveat(deps.question)]
    out: list[str] = []
    missing = _missing_words(deps.question, scorer, rules)
    if missing:
        out.append(missing_caveat(rules, deps.question, missing))
    if deps.graph is not None:
        out += current_law.caveats(deps.graph, [r.unit_id for r in rules])
    return out


def _rules(deps: AnswerDeps, scorer: Scorer, fitted: Fitted) -> list[RuleClaims]:
    """Each cited unit's best sentences, under its lead-in when it is one case of a rule, then its items."""
    items = read_items(deps, fitted.units)
    rules: list[RuleClaims] = []
    for unit_id in fitted.units:
        unit = deps.ledger.units[unit_id].unit
        lead = fitted.leads.get(unit_id)
        claims: list[Claim] = [c for c in [lead_in_claim(lead)] if c is not None] if lead is not None else []
        claims += choose_claims(unit.text, scorer) + item_claims(unit, items)
        if claims:
            rules.append(RuleClaims(unit_id=unit.id, label=unit.label or unit.id, claims=claims))
    return rules


def _chain(selection: Selection, fitted: Fitted, cited: set[str]) -> list[Edge]:
    """The citation between the two cited rules (the selection's pair, or the one the fit followed to the case
    asked); for one rule, the heading it sits under, and the provision it cites that decided it (a penalty item's
    duty)."""
    edge = selection.edge
    if edge is not None and {edge.source, edge.target} <= cited:
        return [Edge(source=edge.source, type=edge.type, target=edge.target)]
    followed = [e for e in fitted.cites.values() if {e.source, e.target} <= cited]
    if followed:
        return followed[:1]
    if len(cited) == 1:
        (only,) = cited
        heading = fitted.context.get(only)
        inside = [Edge(source=heading.id, type="CONTAINS", target=only)] if heading is not None else []
        return inside + ([fitted.cites[only]] if only in fitted.cites else [])
    return []


def _asked_first(rules: list[RuleClaims], scorer: Scorer, kind: Kind | None) -> list[RuleClaims]:
    """The rule holding the asked-for kind of content leads, then the one whose quotes match the question best
    (the citing end of a pair is often a general clause while the question is about what it points to)."""
    return sorted(rules, key=lambda r: (not carries(kind, " ".join(c.text for c in r.claims)),
                                        -scorer.score(" ".join(c.text for c in r.claims))))


def compose(deps: AnswerDeps) -> AttributedAnswer:
    """Cite only the chosen units, fitted to what was asked; each claim is a sentence of its unit (or of an item
    under it, or of the lead-in it is a case of) with its span."""
    signals = signals_for(deps)
    scorer = Scorer.for_question(deps.question, deps.ledger, signals.stores.lexical if signals is not None else None)
    kind = asked_kind(deps.question)
    started = time.perf_counter()
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): alqac 3.
    off = off_units(deps)
    deps.timings_ms["headings"] = round((time.perf_counter() - started) * 1000, 1)
    selection = choose_units(deps.ledger, scorer, signals, off=off)
    started = time.perf_counter()
    fitted = fit(deps, scorer, kind, [c.evidence.unit.id for c in selection.choices], signals, selection)
    # Gains (issue 49, bench.ablate; TRIED.md): deferred_to gdpr_user 3 questions; with_closure ko_dev 19 (ko_user -2).
    fitted.units = with_closure(deps, signals, deferred_to(deps, kind, fitted.units))
    deps.timings_ms["fit"] = round((time.perf_counter() - started) * 1000, 1)
    rules = _asked_first(_rules(deps, scorer, fitted), scorer, kind)
    chain = _chain(selection, fitted, {r.unit_id for r in rules})
    margin = selection.score - selection.runner_up if selection.runner_up is not None else None
    if rules and off_topic(signals, deps.question):
        return AttributedAnswer(answer=abstain_answer(rules, deps.question, _missing_words(deps.question, scorer, rules)),
                                rules=rules, chain=chain, caveats=_caveats(deps, scorer, rules),
                                abstained=True, choice_margin=margin)
    return AttributedAnswer(answer=short_answer(rules, deps.question, kind=kind), rules=rules, chain=chain,
                            caveats=_caveats(deps, scorer, rules), choice_margin=margin,
                            may_be_about=may_be_about(deps, selection, [r.unit_id for r in rules]) if rules else [])


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
