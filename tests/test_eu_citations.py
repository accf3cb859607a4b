"""EU citation grammar on short written acts: other acts, points, amendments, delegation, definitions."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.domain import EdgeType
from ingest.graph import CorpusGraph, build_graph
from tests.eu_texts import ACT, AMENDED, DELEGATED

_P = "Regulation (EU) 2021/77, "


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> CorpusGraph:
    folder = tmp_path_factory.mktemp("eu")
    (folder / "act.txt").write_text(ACT, encoding="utf-8")
    (folder / "delegated.txt").write_text(DELEGATED, encoding="utf-8")
    return build_graph([folder], "t", "generic")


def _edges(graph: CorpusGraph, source_label: str, types: tuple[EdgeType, ...] = (EdgeType.REFERENCES,)) -> set[tuple]:
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    names = {x.id: "EXT " + x.raw for x in graph.externals}
    return {(EdgeType(e.type).value, e.action, labels.get(e.target) or names[e.target])
            for e in graph.edges if labels.get(e.source) == source_label and e.type in types}


def test_citations_naming_another_act_never_land_in_the_citing_act(graph: CorpusGraph) -> None:
    found = _edges(graph, _P + "Article 2(3)")
    assert ("REFERENCES", None, "EXT Directive 98/12/EC, Article 25(6)") in found
    assert ("REFERENCES", None, "EXT Article 263 TFEU") in found
    assert not any(target in (_P + "Article 25", _P + "Article 263") for *_, target in found)
    found = _edges(graph, _P + "Article 3(2)")
    assert ("REFERENCES", None, "EXT Regulation (EU) No 182/2011, Article 5") in found
    assert ("REFERENCES", None, _P + "Article 2") in found  # "Article 2 of this Regulation"
    assert _P + "Article 5" not in {t for *_, t in found}


def test_that_regulation_means_the_act_named_last(graph: CorpusGraph) -> None:
    found = _edges(graph, _P + "Article 3(3)")
    assert {("REFERENCES", None, "EXT Regulation (EU) No 182/2011, Article 1"),
            ("REFERENCES", None, "EXT Regulation (EU) No 182/2011, Article 2"),
            ("REFERENCES", None, "EXT Charter of Fundamental Rights of the European Union, Article 8(1)")} <= found


def test_both_point_forms_reach_the_point(graph: CorpusGraph) -> None:
    assert _edges(graph, _P + "Article 3(1)") == {("REFERENCES", None, _P + "Article 2(2)(a)"),
                                                  ("REFERENCES", None, _P + "Article 2(2)(b)")}
    found = _edges(graph, _P + "Article 2(3)")
    assert ("REFERENCES", None, _P + "Article 2(2)(a)") in found  # "Point (a) of paragraph 2"
    assert ("REFERENCES", None, _P + "Article 2(2)(b)") in found  # "Article 2(2)(b)"
    assert ("REFERENCES", None, _P + "Article 1(2)") in _edges(graph, _P + "Article 3(4)")  # numbered definition point
    # A range of points is every point in it; a backwards range is only its two ends.
    assert _edges(graph, _P + "Article 3(5)") == {("REFERENCES", None, _P + "Article 2(2)(a)"),
                                                  ("REFERENCES", None, _P + "Article 2(2)(b)"),
                                                  ("REFERENCES", None, _P + "Article 1(3)"),
                                                  ("REFERENCES", None, _P + "Article 1(1)")}


def test_nearby_words_do_not_retype_a_reference(graph: CorpusGraph) -> None:
    # "the controls in Article 5 should be replaced", "the replaced controls in Article 1", "is amended only by"
    assert _edges(graph, _P + "recital 2", tuple(EdgeType)) >= {("REFERENCES", None, _P + "Article 5")}
    assert ("REFERENCES", None, _P + "Article 1") in _edges(graph, _P + "Article 3(2)", tuple(EdgeType))
    assert not {t for t, *_ in _edges(graph, _P + "Article 3(4)", tuple(EdgeType))} & {"AMENDS", "REPLACES"}


def test_amending_instructions_target_the_amended_act(graph: CorpusGraph) -> None:
    kinds = (EdgeType.AMENDS, EdgeType.REPLACES, EdgeType.REFERENCES)
    amended = "EXT Regulation (EU) No 600/2014"
    assert _edges(graph, _P + "Article 4", kinds) == {("AMENDS", "amended", amended)}
    assert _edges(graph, _P + "Article 4(1)", kinds) == {("AMENDS", "amended", amended + ", Article 27")}
    assert ("REPLACES", "replaced", amended + ", Article 27(3)") in _edges(graph, _P + "Article 4(1)(a)", kinds)
    assert _edges(graph, _P + "Article 4(1)(b)", kinds) == {("AMENDS", "deleted", amended + ", Article 27(6)")}
    assert ("REPLACES", "replaced", amended + ", Article 27(8)(c)") in _edges(graph, _P + "Article 4(1)(c)", kinds)
    assert _edges(graph, _P + "Article 4(2)", kinds) == {("REPLACES", "replaced", amended + ", Annex I, Section A, point 4")}
    assert _edges(graph, _P + "Article 4(3)", kinds) == {("AMENDS", "deleted", amended + ", Article 80(1)"),
                                                         ("AMENDS", "deleted", amended + ", Article 80(2)")}
    assert ("AMENDS", "inserted", amended + ", Article 27a") in _edges(graph, _P + "Article 4(4)", kinds)
    assert ("AMENDS", "inserted", "EXT Directive 2014/65/EU, Article 6(6)") in _edges(graph, _P + "Article 5", kinds)
    assert _edges(graph, _P + "Article 6", kinds) == {("AMENDS", "inserted", "EXT Directive (EU) 2019/1937, Annex, Part I.B, point (xxi)")}


def test_quoted_text_speaks_of_the_amended_act(graph: CorpusGraph) -> None:
    # "‘3. A keeper shall comply with Article 5.": Article 5 of the amended regulation, not of this one.
    found = _edges(graph, _P + "Article 4(1)(a)")
    assert ("REFERENCES", None, "EXT Regulation (EU) No 600/2014, Article 5") in found
    assert ("REFERENCES", None, _P + "Article 5") not in found


def test_malformed_instruction_is_kept_as_a_reference_with_its_words(graph: CorpusGraph) -> None:
    edges = [e for e in graph.edges if e.action == "malformed"]
    assert len(edges) == 1 and edges[0].type is EdgeType.REFERENCES
    assert edges[0].citation == "(5) Article 99 is rewritten in blue ink;"


def test_delegated_act_specifies_its_empowering_provision(graph: CorpusGraph) -> None:
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    pairs = {(EdgeType(e.type).value, labels[e.source], labels[e.target]) for e in graph.edges
             if e.type in (EdgeType.SPECIFIES, EdgeType.DELEGATES_TO)}
    delegated = "Commission Delegated Regulation (EU) 2022/9"
    assert pairs == {("SPECIFIES", delegated, _P + "Article 2(2)"), ("DELEGATES_TO", _P + "Article 2(2)", delegated)}
    # A legislative act's legal basis ("Article 114 thereof" of the TFEU) is no delegation.
    assert ("REFERENCES", None, "EXT Article 114 TFEU") in _edges(graph, _P + "preamble")


def test_quoted_definitions_are_linked_from_their_uses(graph: CorpusGraph) -> None:
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    uses = {(labels[e.source], labels[e.target]) for e in graph.edges if e.type is EdgeType.DEFINES}
    assert (_P + "Article 2(1)", _P + "Article 1(1)") in uses  # "A keeper", "Keepers" (plural, any case)
    assert (_P + "Article 2(1)", _P + "Article 1(2)") in uses  # "bird table"
    assert (_P + "Article 2(2)(a)", _P + "Article 1(3)") in uses  # "nest boxes"


def test_an_ingested_amended_act_receives_the_edges_and_the_inserted_units(tmp_path: Path) -> None:
    (tmp_path / "act.txt").write_text(ACT, encoding="utf-8")
    (tmp_path / "amended.txt").write_text(AMENDED, encoding="utf-8")
    graph = build_graph([tmp_path], "t", "generic")
    kinds = (EdgeType.AMENDS, EdgeType.REPLACES)
    amended = "Regulation (EU) No 600/2014"
    assert _edges(graph, _P + "Article 4(1)(a)", kinds) == {("REPLACES", "replaced", amended + ", Article 27(3)")}
    assert _edges(graph, _P + "Article 4(1)(c)", kinds) == {("REPLACES", "replaced", amended + ", Article 27(8)(c)")}
    # Article 27a does not exist yet: the inserted unit hangs under the amended act, not under this one, with the
    # quoted words alone (ingest.citations.eu_inserted).
    assert _edges(graph, _P + "Article 4(4)", kinds) == {("AMENDS", "inserted", amended + ", Article 27a")}
    inserted = next(u for d in graph.documents for u in d.units if u.label == amended + ", Article 27a")
    root = next(d for d in graph.documents if d.units[0].label == amended).units[0]
    assert inserted.parent_id == root.id and inserted.text == "Article 27a\nNew duties\nA keeper shall report."
    assert inserted.metadata["inserted_by"] == _P + "Article 4(4)"
    # Its quoted words cite the amended act's own Article 5 … which it does not have: an ancestor, never ours.
    assert ("REFERENCES", None, amended) in _edges(graph, _P + "Article 4(1)(a)")
    # "‘keeper’ means …" holds for the purposes of the act defining it, not for the act it amends.
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    assert not [e for e in graph.edges if e.type is EdgeType.DEFINES and labels[e.source].startswith(amended)]


@pytest.mark.parametrize("line", [
    "Article 1(1) and " * 8000,
    "points (a), " * 10000 + "of Article 6(1)",
    "in Article 5, " * 8000 + "paragraph 3 is replaced by the following:",
    "(" * 50000,
    "‘" + "x " * 40000,
])
def test_hostile_lines_stay_fast(tmp_path: Path, line: str) -> None:
    import time

    text = ACT.replace("3. Point (a) of paragraph 2", line + "\n3. Point (a) of paragraph 2")
    (tmp_path / "act.txt").write_text(text, encoding="utf-8")
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    build_graph([tmp_path], "t", "generic")
    assert time.process_time() - started < 20
