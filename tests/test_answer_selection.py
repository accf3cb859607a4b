"""Pair choice of the extractive answerer, without stores: rank and word overlap decide."""
from __future__ import annotations

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.selection import Scorer, choose_units
from core.answer.signals import clauses
from core.graph_queries import UnitRecord
from core.retrieval.base import PathEdge


def _ledger(units: list[tuple[str, str, int | None]], edges: list[tuple[str, str, str]]) -> EvidenceLedger:
    ledger = EvidenceLedger()
    for uid, text, rank in units:
        role = "seed" if rank is not None else "referenced"
        ledger.record(Evidence(UnitRecord(id=uid, label=uid, text=text), role, rank=rank))
    for s, t, ty in edges:
        ledger.record_edge(PathEdge(source=s, type=ty, target=t))
    return ledger


def test_pair_covering_both_clauses_beats_a_near_duplicate_pair():
    ledger = _ledger(
        [("A", "A firm must notify the Regulator of any breach within five days.", 1),
         ("B", "A firm must notify the Regulator of any breach promptly.", 2),
         ("C", "The notice must be in writing and state the remedial steps taken.", 3),
         ("D", "Unrelated text about fees.", 4)],
        [("A", "B", "REFERENCES"), ("A", "C", "REFERENCES"), ("A", "D", "DEFINES")],
    )
    q = "When must a firm notify the Regulator of a breach, and what must the written notice state?"
    selection = choose_units(ledger, Scorer.for_question(q, ledger))
    assert {c.evidence.unit.id for c in selection.choices} == {"A", "C"}
    assert selection.edge is not None and selection.edge.type == "REFERENCES"


def test_no_written_citation_gives_the_top_seed_alone():
    ledger = _ledger([("A", "Text one about records.", 1), ("B", "Text two about records.", 2)],
                     [("A", "B", "DEFINES")])
    selection = choose_units(ledger, Scorer.for_question("What records?", ledger))
    assert [c.evidence.unit.id for c in selection.choices] == ["A"] and selection.edge is None


def test_clauses_split_two_part_questions_only():
    assert clauses("What must a firm do, and how does the Regulator respond?") == \
        ["What must a firm do", "how does the Regulator respond"]
    assert clauses("What must a valid authorization contain?") == ["What must a valid authorization contain"]
