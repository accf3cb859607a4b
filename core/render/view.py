"""The display model of one answer: everything the chat and the share page show, resolved to labels and text.

Built once from an AnswerEnvelope plus the stored units, and snapshotted into permalinks so a shared answer
looks the same later even if the corpus is re-ingested.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, Field

from core.answer.models import AnswerEnvelope, RuleRef
from core.domain import Edge
from core.render.dated import DatedView
from core.render.history import HistoryView
from core.stores.queries import DocumentRecord, UnitRecord


class ClaimView(BaseModel):
    text: str
    paragraph: str | None = None
    span: tuple[int, int] | None = Field(default=None, description="where an extractive claim sits in the unit text")
    unit_id: str | None = Field(default=None, description="the sub-unit quoted, when not the rule's own unit")


class RuleCardView(BaseModel):
    unit_id: str
    label: str
    document_title: str = ""
    claims: list[ClaimView] = Field(default_factory=list)
    text: str = Field(default="", description="the full provision text, shown collapsed")
    history: HistoryView | None = Field(default=None, description="amendments and status, when any are recorded")
    dated: DatedView | None = Field(default=None, description="as in force on the answer's date, and pending changes")


class NodeView(BaseModel):
    id: str
    label: str
    document_id: str = ""
    document_title: str = ""
    text: str = ""
    seed: bool = False


class AnswerView(BaseModel):
    question: str
    corpus: str
    answer: str
    mode: str
    model: str
    notices: list[str] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    abstained: bool = Field(default=False, description="the corpus does not cover the question: the cards are the "
                                                       "closest provisions, listed as such, not an answer")
    may_be_about: list[RuleRef] = Field(default_factory=list, description="a close choice: the candidate rules, "
                                        "best first, each opening its source")
    cards: list[RuleCardView] = Field(default_factory=list)
    chain: list[Edge] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict, description="unit id → label, for the chain line")
    nodes: list[NodeView] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    documents: list[DocumentRecord] = Field(default_factory=list, description="the cited documents and their ingest")
    answered_at: str = ""
    as_of: str | None = Field(default=None, description="the date the answer applies: the law as in force that day")

    @property
    def as_of_line(self) -> str:
        """Which date the answer applies, said wherever the answer is shown, shared or exported."""
        return f"Law as of {self.as_of}" if self.as_of else ""

    def unit_ids(self) -> frozenset[str]:
        """Every unit the answer shows: its cards, the sub-units its claims quote, its chain and its graph's nodes.
        A permalink opens these units' sources and pages and no others."""
        return frozenset({card.unit_id for card in self.cards}
                         | {claim.unit_id for card in self.cards for claim in card.claims if claim.unit_id}
                         | {i for edge in self.chain for i in (edge.source, edge.target)}
                         | {node.id for node in self.nodes})

    @property
    def mode_line(self) -> str:
        """Extractive answers say so: the offline answerer must never pass for a language model."""
        if self.mode == "extractive":
            return "Extractive answer: sentences quoted from the provisions below, no language model involved."
        return f"Composed by {self.model} from the provisions below; every claim cites its rule."


def build_view(
    envelope: AnswerEnvelope,
    units: Mapping[str, UnitRecord],
    document_titles: Mapping[str, str],
    edges: Iterable[Edge] = (),
    histories: Mapping[str, HistoryView] | None = None,
    documents: Mapping[str, DocumentRecord] | None = None,
    answered_at: str = "",
    dated: Mapping[str, DatedView] | None = None,
) -> AnswerView:
    """Resolve ids to labels/text; the graph holds the evidence units plus every unit the answer names."""
    answer = envelope.answer
    cards = [
        RuleCardView(
            unit_id=rule.unit_id,
            label=rule.label or _label(units, rule.unit_id),
            document_title=rule.document_title or _document_title(units, document_titles, rule.unit_id),
            claims=[ClaimView(text=c.text, paragraph=c.paragraph, span=c.span, unit_id=c.unit_id) for c in rule.claims],
            text=units[rule.unit_id].text if rule.unit_id in units else "",
            history=(histories or {}).get(rule.unit_id),
            dated=(dated or {}).get(rule.unit_id),
        )
        for rule in answer.rules
    ]
    chain_ids = [i for edge in answer.chain for i in (edge.source, edge.target)]
    node_ids = list(dict.fromkeys([*envelope.seed_ids, *envelope.evidence_ids, *(c.unit_id for c in cards), *chain_ids]))
    seeds = set(envelope.seed_ids)
    nodes = [
        NodeView(
            id=uid,
            label=_label(units, uid),
            document_id=units[uid].document_id if uid in units else "",
            document_title=_document_title(units, document_titles, uid),
            text=units[uid].text if uid in units else "",
            seed=uid in seeds,
        )
        for uid in node_ids
    ]
    present = set(node_ids)
    graph_edges = _unique_edges([*answer.chain, *edges], present)
    return AnswerView(
        question=envelope.question,
        corpus=envelope.corpus,
        answer=answer.answer,
        mode=envelope.mode,
        model=envelope.model,
        notices=list(envelope.notices),
        caveats=list(answer.caveats),
        abstained=answer.abstained,
        may_be_about=[_named(ref, units) for ref in answer.may_be_about],
        cards=cards,
        chain=list(answer.chain),
        labels={n.id: n.label for n in nodes},
        nodes=nodes,
        edges=graph_edges,
        documents=_cited_documents(cards, units, documents or {}),
        answered_at=answered_at,
        as_of=envelope.as_of,
    )


def _label(units: Mapping[str, UnitRecord], unit_id: str) -> str:
    unit = units.get(unit_id)
    return (unit.label or unit.title or unit_id) if unit else unit_id


def _named(ref: RuleRef, units: Mapping[str, UnitRecord]) -> RuleRef:
    """A candidate as shown: its stored label and title where the answer gave none."""
    unit = units.get(ref.unit_id)
    return RuleRef(unit_id=ref.unit_id, label=ref.label or _label(units, ref.unit_id),
                   topic=ref.topic or (unit.title if unit and unit.title else ""))


def _document_title(units: Mapping[str, UnitRecord], titles: Mapping[str, str], unit_id: str) -> str:
    unit = units.get(unit_id)
    return titles.get(unit.document_id, unit.document_id) if unit else ""


def _unique_edges(edges: Iterable[Edge], present: set[str]) -> list[Edge]:
    seen: dict[tuple[str, str, str], Edge] = {}
    for edge in edges:
        key = (edge.source, edge.type, edge.target)
        if edge.source in present and edge.target in present and key not in seen:
            seen[key] = Edge(source=edge.source, type=edge.type, target=edge.target)
    return list(seen.values())


def _cited_documents(cards: list[RuleCardView], units: Mapping[str, UnitRecord],
                     documents: Mapping[str, DocumentRecord]) -> list[DocumentRecord]:
    """The documents of the rules the answer cites, in the order the cards name them."""
    ids = dict.fromkeys(units[c.unit_id].document_id for c in cards if c.unit_id in units)
    return [documents[d] for d in ids if d in documents]
