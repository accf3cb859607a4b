"""Resolution rules: finest unit, else nearest ancestor (said on the edge), else External; no self-loops; cycles marked."""
from __future__ import annotations

from core.domain import Document, EdgeType, LegalUnit, UnitType
from ingest.models import Mention
from ingest.resolve import KeyIndex, resolve_mentions, structure_edges


def _doc() -> Document:
    def unit(uid: str, parent: str | None, keys: list[str]) -> LegalUnit:
        return LegalUnit(id=uid, corpus="c", document_id="d", type=UnitType.SECTION, label=uid, parent_id=parent, keys=keys)

    return Document(id="d", corpus="c", title="D", source_path="-", units=[
        unit("s1", None, ["k:1"]), unit("s1/a", "s1", ["k:1(a)"]), unit("s2", None, ["k:2"]), unit("s3", None, ["k:3"]),
    ])


def _mention(source: str, keys: list[str], edge_type: EdgeType = EdgeType.REFERENCES, start: int = 0) -> Mention:
    return Mention(source_id=source, text=" ".join(keys), start=start, end=start + 3, keys=keys, edge_type=edge_type)


def test_finest_then_ancestor_then_external():
    doc = _doc()
    result = resolve_mentions([
        _mention("s2", ["k:1(a)", "k:1"]),
        _mention("s3", ["k:1(b)", "k:1"], start=5),
        _mention("s3", ["law:99"], start=9),
    ], KeyIndex([doc]), "c")
    by_source = {(e.source, e.start): e for e in result.edges}
    assert by_source[("s2", 0)].target == "s1/a" and by_source[("s2", 0)].resolution == "exact"
    assert by_source[("s3", 5)].target == "s1" and by_source[("s3", 5)].resolution == "ancestor"
    external = by_source[("s3", 9)]
    assert external.resolution == "external" and external.target == result.externals[0].id
    assert result.externals[0].raw == "law:99"


def test_no_self_loops_and_cycles_are_marked():
    doc = _doc()
    result = resolve_mentions([
        _mention("s1", ["k:1"]),
        _mention("s1", ["k:2"], start=4),
        _mention("s2", ["k:1"]),
        _mention("s2", ["k:3"], start=4),
    ], KeyIndex([doc]), "c")
    pairs = {(e.source, e.target): e for e in result.edges}
    assert ("s1", "s1") not in pairs
    assert pairs[("s1", "s2")].in_cycle and pairs[("s2", "s1")].in_cycle
    assert not pairs[("s2", "s3")].in_cycle


def test_delegation_is_stored_as_a_pair_and_structure_edges_follow_parents():
    doc = _doc()
    result = resolve_mentions([_mention("s2", ["k:3"], EdgeType.DELEGATES_TO)], KeyIndex([doc]), "c")
    kinds = {(e.source, e.type, e.target) for e in result.edges}
    assert ("s2", EdgeType.DELEGATES_TO, "s3") in kinds and ("s3", EdgeType.SPECIFIES, "s2") in kinds
    assert [(e.source, e.target) for e in structure_edges([doc])] == [("s1", "s1/a")]


def test_stored_keys_are_a_fallback_only():
    doc = _doc()
    index = KeyIndex([doc])
    index.add_fallback({"k:1": "elsewhere", "k:9": "stored-unit"})
    assert index.lookup("k:1") == "s1" and index.lookup("k:9") == "stored-unit"
