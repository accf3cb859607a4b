"""The stores' units as columns: the records read back are those given, a table is saved and rebuilt as its columns
only, and the whole-corpus reads (filter masks, defined terms, tree) are those the records give."""
from __future__ import annotations

import gc
import re

import numpy as np

from core.retrieval.edges import HeldEdges
from core.retrieval.filters import Filters
from core.retrieval.stores import INACTIVE_STATUSES, adjacent_units, children_of
from core.retrieval.unit_table import UnitTable
from core.stores.queries import UnitRecord

RECORDS = [
    UnitRecord(id="d1", label="Act 1", title="The act", document_id="d1", type="document", corpus="c"),
    UnitRecord(id="d1/1", label="1", title="Definitions", document_id="d1", type="definition", parent_id="d1",
               corpus="c", text="In this act, data means …"),
    UnitRecord(id="d1/2", label="2", title="", document_id="d1", type="section", parent_id="d1", corpus="c",
               status="repealed", text="(Repealed)"),
    UnitRecord(id="d1/3", label="3", title="Duty", document_id="d1", type="section", parent_id="d1", corpus="c",
               tier=2, delegates=True, text="as the decree prescribes"),
    UnitRecord(id="d2/1", label="4", title="", document_id="d2", type="definition", corpus="c", text="term"),
]


def _table() -> UnitTable:
    return UnitTable.from_records({r.id: r for r in RECORDS})


def _rebuilt(table: UnitTable) -> UnitTable:
    """The table made again from its columns, as a saved read (core.retrieval.saved_read) makes it."""
    return UnitTable(**table.columns())


def test_records_read_back_from_the_columns_equal_those_given() -> None:
    sent = _rebuilt(_table())
    assert list(sent) == [r.id for r in RECORDS] and len(sent) == len(RECORDS)
    for record in RECORDS:
        assert sent[record.id] == record and sent[record.id].model_dump() == record.model_dump()
    assert sent["d1/3"] is sent["d1/3"], "a record is made once and kept"
    assert "d9" not in sent and sent.get("d9") is None and sent.corpus == "c"
    assert sent.any_delegates() and not UnitTable.from_records({"d1": RECORDS[0]}).any_delegates()


def test_a_table_rebuilt_from_its_columns_holds_no_records() -> None:
    assert _table()["d1/1"] is RECORDS[1], "the records given are the ones read"
    many = {f"u{i}": UnitRecord(id=f"u{i}", label=str(i), document_id=f"d{i % 7}", parent_id=f"u{i // 2}",
                                text=f"rule {i}") for i in range(2000)}
    columns = UnitTable.from_records(many).columns()
    assert not any(isinstance(v, UnitRecord) for v in columns.values())
    gc.collect()
    tracked = len(gc.get_objects())
    kept = UnitTable(**columns)
    gc.collect()
    assert len(gc.get_objects()) - tracked < 50, "columns, not one tracked object per unit"
    assert kept["u1999"] == many["u1999"]


def test_masks_and_defined_terms_read_off_the_columns_match_the_records() -> None:
    table = _table()
    for filters in (Filters(), Filters(include_repealed=True), Filters(document_ids=["d2"]),
                    Filters(unit_types=["section", "document"]), Filters(document_ids=["d1"], unit_types=["x"])):
        by_record = [(not filters.document_ids or r.document_id in filters.document_ids)
                     and (not filters.unit_types or r.type in filters.unit_types)
                     and (filters.include_repealed or r.status not in INACTIVE_STATUSES) for r in RECORDS]
        by_column = (np.ones(len(table), dtype=bool)
                     & (table.coded_in("document_id", filters.document_ids) if filters.document_ids else True)
                     & (table.coded_in("type", filters.unit_types) if filters.unit_types else True)
                     & (True if filters.include_repealed else ~table.coded_in("status", INACTIVE_STATUSES)))
        assert by_column.tolist() == by_record, filters
    assert table.titles_of_type("definition") == ["Definitions", "4"]
    assert table.value("d1/3", "document_id") == "d1" and table.parent_id("d1/3") == "d1" and table.row("x") == -1
    # Units whose text starts a certain way, read off the text column without making their records.
    sent = _rebuilt(table)  # columns only, as a saved read keeps them
    assert sent.ids_where(re.compile(r"\(Repealed\)|term")) == ["d1/2", "d2/1"]
    assert not sent._made


def test_tree_and_adjacency_from_the_columns() -> None:
    table = _table()
    ids = sorted(table)
    assert children_of(table, ids) == {"d1": ["d1/1", "d1/2", "d1/3"]}
    adjacent = adjacent_units(table, ids, {"d1/1": 1, "d1/2": 2, "d1/3": 3, "d2/1": 1})
    index = {u: i for i, u in enumerate(ids)}
    assert adjacent[index["d1/2"]].tolist() == [index["d1/1"], index["d1/3"]]
    assert adjacent[index["d2/1"]].tolist() == [-1, -1]


def test_held_edges_are_kept_as_triples_and_read_back_as_models() -> None:
    rows = [{"type": "REFERENCES", "source": "d1/3", "target": "d1/1"},
            {"type": "REFERENCES", "source": "d1/3", "target": "d1/1"},
            {"type": "DEFINES", "source": "d1/1", "target": "d2/1"}]
    held = HeldEdges.from_rows(rows, [r.id for r in RECORDS])
    assert held.edges_of("d1/1")[0].type == "DEFINES" and len(held.edges_of("d1/1")) == 3
    assert all(isinstance(t, tuple) and all(isinstance(x, str) for x in t)
               for triples in held.by_unit.values() for t in triples)
    back = HeldEdges(held.by_unit)
    assert back == held and [e.model_dump() for e in back.edges_of("d1/3")] == [
        e.model_dump() for e in held.edges_of("d1/3")]
    assert back.edges_of("nowhere") == []
