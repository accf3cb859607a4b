"""How evidence is shown to a model: grouped by seed, amendment chains in order, every unit labelled with its role."""
from __future__ import annotations

from collections import defaultdict

from core.answer.deps import Evidence
from core.domain import Edge

# Role of the reached unit, by edge type and by which end of the stored edge it sits on.
_ROLE_AS_TARGET = {
    "REFERENCES": "referenced", "AMENDS": "amended (earlier text)", "REPLACES": "replaced (earlier text)",
    "DEFINES": "defines a term used", "DELEGATES_TO": "delegated to", "SPECIFIES": "specified",
    "CONTAINS": "part of", "PART_OF": "contains",
}
_ROLE_AS_SOURCE = {
    "REFERENCES": "referenced by", "AMENDS": "amended by", "REPLACES": "replaced by",
    "DEFINES": "uses a term defined", "DELEGATES_TO": "delegates", "SPECIFIES": "specifies",
    "CONTAINS": "heading", "PART_OF": "part",
}
_CHAIN_TYPES = {"AMENDS", "REPLACES"}
TEXT_LIMIT = 1200

INSTRUCTIONS = """\
You answer questions about regulations using only the provisions your tools return.
Work: call search_provisions first; call follow_citations on the most relevant unit ids when the question
involves cross-references, definitions or amendments; read_unit for full text and headings; current_version
when the question asks what applies now. Stop calling tools once you have the provisions you need.
Answer with the final_result schema:
- rules: one entry per provision you rely on, keyed by its unit_id exactly as shown in the evidence; its
  claims are short statements each supported by that provision's text (quote where possible, give the
  paragraph mark if there is one). Cite only the few provisions the question really targets.
- chain: the reasoning path as edges exactly as shown in the evidence (source, type, target), e.g. the
  seed and the provision it references; never invent an edge.
- answer: a short plain-words answer. caveats: what the evidence does not settle.
Never cite a unit id that no tool returned, whatever the question text asks for.
"""


def role_for(edge: Edge, unit_id: str) -> str:
    table = _ROLE_AS_TARGET if edge.target == unit_id else _ROLE_AS_SOURCE
    return table.get(edge.type, edge.type.lower())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + " […]"


def _flat(text: str, limit: int) -> str:
    """The text on one line, at least its first `limit` characters of it: a long unit's flattened head is a
    prefix of its whole flattened text, so only the head is flattened when it is already long enough."""
    if len(text) > 2 * limit:
        head = " ".join(text[:2 * limit].split())
        if len(head) > limit:
            return head
    return " ".join(text.split())


def render_unit(evidence: Evidence, text_limit: int = TEXT_LIMIT) -> str:
    unit = evidence.unit
    head = f"[{evidence.role.upper()}] {unit.id} — {unit.label or unit.id}"
    if unit.title:
        head += f" ({unit.title})"
    if evidence.via is not None:
        edge = evidence.via
        head += f"\n  edge: {edge.source} —{edge.type}→ {edge.target}"
    body = _clip(_flat(unit.text, text_limit), text_limit)
    return f"{head}\n  {body}" if body else head


def _chain_order(items: list[Evidence]) -> list[Evidence]:
    """Amendment chains oldest first (the amended text before what amends it); other relations after."""
    chain = [e for e in items if e.via is not None and e.via.type in _CHAIN_TYPES]
    other = [e for e in items if e not in chain]
    return chain + other


def arrange(items: list[Evidence], text_limit: int = TEXT_LIMIT) -> str:
    """Group units under the seed they were reached from, seeds in rank order."""
    if not items:
        return "No provisions found."
    by_seed: dict[str | None, list[Evidence]] = defaultdict(list)
    for item in items:
        if item.role != "seed":
            by_seed[item.seed_id].append(item)
    blocks: list[str] = []
    seeds = sorted((e for e in items if e.role == "seed"), key=lambda e: e.rank if e.rank is not None else 1_000_000)
    for seed in seeds:
        group = [render_unit(seed, text_limit)] + [render_unit(e, text_limit) for e in _chain_order(by_seed.pop(seed.unit.id, []))]
        blocks.append("\n".join(group))
    for rest in by_seed.values():
        blocks.append("\n".join(render_unit(e, text_limit) for e in _chain_order(rest)))
    return "\n\n".join(blocks)
