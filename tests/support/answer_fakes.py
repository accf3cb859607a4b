"""In-memory stand-ins for the answerer's stores: a tiny lexical retriever and a GraphReader over a few units."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core import current_law
from core.current_law import CurrentLaw
from core.domain import Edge
from core.lexical import tokenize
from core.retrieval.base import RetrievalRequest, RetrievalResult, RetrievedUnit, Retriever
from core.stores.graph_reader import GraphUnavailable
from core.stores.queries import Reached, UnitRecord

UNITS = {
    "r1": UnitRecord(id="r1", label="MIR 3.8.1", title="Systems and controls", document_id="mir", type="rule",
                     text="A Recognised Body must maintain adequate systems and controls. "
                          "It must report any breach of those controls to the Regulator within five business days."),
    "r2": UnitRecord(id="r2", label="MIR 3.9", title="Notifications", document_id="mir", type="rule",
                     text="Pursuant to Rule 3.8.1, a Recognised Body must notify the Regulator of any material change "
                          "in its systems and controls. The notification must be made in writing."),
    "r3": UnitRecord(id="r3", label="GEN 1.1", title="Application", document_id="gen", type="rule",
                     text="This rulebook applies to every Authorised Person and every Recognised Body."),
    "d1": UnitRecord(id="d1", label="GLO Regulator", title="Regulator", document_id="glo", type="definition",
                     text="Regulator means the Financial Services Regulatory Authority."),
    "x9": UnitRecord(id="x9", label="COBS 9.9", title="Unrelated", document_id="cobs", type="rule",
                     text="Client money must be held in a segregated account."),
    "mir": UnitRecord(id="mir", label="MIR", title="Market Infrastructure Rules", document_id="mir", type="document"),
}
EDGES = [
    Edge(source="r2", type="REFERENCES", target="r1"),
    Edge(source="r1", type="DEFINES", target="d1"),
    Edge(source="r2", type="DEFINES", target="d1"),
]
SEARCHABLE = ("r1", "r2", "r3", "d1")  # x9 is in the graph but never a search hit


class FakeRetriever(Retriever):
    name = "fake"

    def __init__(self, searchable: Iterable[str] = SEARCHABLE) -> None:
        self.searchable = list(searchable)

    def retrieve(self, request: RetrievalRequest) -> RetrievalResult:
        terms = set(tokenize(request.question))
        scored = []
        for uid in self.searchable:
            unit = UNITS[uid]
            overlap = len(terms & set(tokenize(f"{unit.label} {unit.title} {unit.text}")))
            if overlap:
                scored.append((overlap / max(1, len(terms)), uid))
        scored.sort(key=lambda s: (-s[0], s[1]))
        hits = [RetrievedUnit(unit_id=uid, score=score, label=UNITS[uid].label, title=UNITS[uid].title,
                              text=UNITS[uid].text, document_id=UNITS[uid].document_id, type=UNITS[uid].type)
                for score, uid in scored[: request.k]]
        return RetrievalResult(method=self.name, hits=hits)

    def corpus_stores(self, corpus: str) -> None:
        return None  # an in-memory fake: selection runs on rank and word overlap alone


@dataclass
class FakeGraph:
    edges: list[Edge] = field(default_factory=lambda: list(EDGES))
    down: bool = False

    def _check(self) -> None:
        if self.down:
            raise GraphUnavailable("graph down")

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        self._check()
        return {u: UNITS[u] for u in unit_ids if u in UNITS}

    def expand(self, seed_ids: list[str], edge_types: Iterable[str], max_hops: int, node_cap: int) -> list[Reached]:
        self._check()
        types = set(edge_types)
        out: list[Reached] = []
        seen = set(seed_ids)
        for seed in seed_ids:
            for edge in self.edges:
                if edge.type not in types or seed not in (edge.source, edge.target):
                    continue
                other = edge.target if edge.source == seed else edge.source
                if other not in seen:
                    seen.add(other)
                    out.append(Reached(unit_id=other, seed_id=seed, hops=1, path=[edge]))
        return out[:node_cap]

    def edges_among(self, unit_ids: list[str], edge_types: Iterable[str]) -> list[Edge]:
        self._check()
        inside, types = set(unit_ids), set(edge_types)
        return [e for e in self.edges if e.type in types and e.source in inside and e.target in inside]

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        self._check()
        doc = UNITS.get(UNITS[unit_id].document_id) if unit_id in UNITS else None
        return [doc] if doc else []

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return {u: above for u in unit_ids if (above := self.ancestors(u))}

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        self._check()
        out: dict[str, list[UnitRecord]] = {}
        for unit in UNITS.values():
            if unit.parent_id in unit_ids:
                out.setdefault(unit.parent_id, []).append(unit)
        return out

    def current_law(self, unit_id: str) -> CurrentLaw | None:
        self._check()
        unit = UNITS.get(unit_id)
        return None if unit is None else current_law.read(unit_id, unit.label, unit.status, {}, [])

    def existing_edges(self, edges: list[Edge]) -> set[tuple[str, str, str]]:
        self._check()
        stored = {(e.source, e.type, e.target) for e in self.edges}
        return {(e.source, e.type, e.target) for e in edges
                if (e.source, e.type, e.target) in stored or (e.target, e.type, e.source) in stored}
