"""Checks an answer against the run's evidence: cited ids retrieved, chain edges stored, claims non-empty."""
from __future__ import annotations

from dataclasses import dataclass, field

from core.answer.deps import AnswerDeps
from core.answer.models import AttributedAnswer, RuleClaims
from core.domain import Edge, EdgeType, StoreError

_EDGE_TYPES = {t.value for t in EdgeType}


@dataclass
class Problems:
    unknown_ids: list[str] = field(default_factory=list)
    bad_edges: list[Edge] = field(default_factory=list)
    empty_rules: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.unknown_ids or self.bad_edges or self.empty_rules)

    def retry_message(self) -> str:
        parts: list[str] = []
        if self.unknown_ids:
            parts.append(f"these unit ids were not returned by any tool, remove them or retrieve them first: {', '.join(self.unknown_ids)}")
        if self.bad_edges:
            shown = ", ".join(f"{e.source} —{e.type}→ {e.target}" for e in self.bad_edges)
            parts.append(f"these chain edges are not in the graph or join units you did not retrieve: {shown}")
        if self.empty_rules:
            parts.append(f"these rules have no claim text: {', '.join(self.empty_rules)}")
        return "Invalid answer: " + "; ".join(parts) + "."

    def notices(self) -> list[str]:
        out: list[str] = []
        if self.unknown_ids:
            out.append(f"Dropped citations of units the search never returned: {', '.join(self.unknown_ids)}.")
        if self.bad_edges:
            out.append(f"Dropped {len(self.bad_edges)} reasoning-chain edge(s) not found in the citation graph.")
        if self.empty_rules:
            out.append(f"Dropped {len(self.empty_rules)} rule(s) with no claims.")
        return out


def _stored_direction(edge: Edge, deps: AnswerDeps) -> Edge:
    if (edge.target, edge.type, edge.source) in deps.ledger.edges and (edge.source, edge.type, edge.target) not in deps.ledger.edges:
        return Edge(source=edge.target, type=edge.type, target=edge.source)
    return edge


def _bad_edges(edges: list[Edge], deps: AnswerDeps) -> list[Edge]:
    candidates = [e for e in edges if e.type in _EDGE_TYPES and e.source in deps.ledger and e.target in deps.ledger]
    unseen = [e for e in candidates if (e.source, e.type, e.target) not in deps.ledger.edges]
    confirmed: set[tuple[str, str, str]] = set()
    if unseen and deps.graph is not None:
        try:
            confirmed = deps.graph.existing_edges([Edge(source=e.source, type=e.type, target=e.target) for e in unseen])
        except StoreError as exc:  # an edge we cannot confirm is treated as not there
            deps.graph_failed(exc, "confirming chain edges")
            confirmed = set()
    ok = {id(e) for e in candidates if (e.source, e.type, e.target) in deps.ledger.edges or (e.source, e.type, e.target) in confirmed}
    return [e for e in edges if id(e) not in ok]


def check(answer: AttributedAnswer, deps: AnswerDeps) -> Problems:
    return Problems(
        unknown_ids=list(dict.fromkeys(
            [r.unit_id for r in answer.rules if r.unit_id not in deps.ledger]
            + [c.unit_id for r in answer.rules for c in r.claims if c.unit_id and c.unit_id not in deps.ledger])),
        bad_edges=_bad_edges(answer.chain, deps),
        empty_rules=[r.unit_id for r in answer.rules
                     if not any(c.text.strip() and (c.unit_id is None or c.unit_id in deps.ledger) for c in r.claims)],
    )


def _canonical(rule: RuleClaims, deps: AnswerDeps) -> RuleClaims:
    """Labels come from the store, not the model: a model may cite the right id under a wrong label."""
    unit = deps.ledger.units[rule.unit_id].unit
    claims = [c for c in rule.claims if c.text.strip() and (c.unit_id is None or c.unit_id in deps.ledger)]
    return rule.model_copy(update={"label": unit.label or rule.label or unit.id, "claims": claims})


def finalise(answer: AttributedAnswer, problems: Problems, deps: AnswerDeps) -> AttributedAnswer:
    """Drops whatever `problems` names, canonicalises labels, keeps edges in their stored direction."""
    dropped = set(problems.unknown_ids) | set(problems.empty_rules)
    bad = {(e.source, e.type, e.target) for e in problems.bad_edges}
    rules = [_canonical(r, deps) for r in answer.rules if r.unit_id not in dropped]
    chain = [_stored_direction(e, deps) for e in answer.chain if (e.source, e.type, e.target) not in bad]
    # A candidate named outside the run's evidence is dropped, and each one kept gets its stored label.
    about = [ref.model_copy(update={"label": deps.ledger.units[ref.unit_id].unit.label or ref.label})
             for ref in answer.may_be_about if ref.unit_id in deps.ledger]
    return answer.model_copy(update={"rules": rules, "may_be_about": about,
                                     "chain": list({(e.source, e.type, e.target): e for e in chain}.values())})
