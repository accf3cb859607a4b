"""The inline graph opens on the answer's path (at most 12 units, labels apart); the neighbourhood is behind a toggle."""
from __future__ import annotations

import asyncio

from core.answer.service import answer_question_async
from core.chat.evidence import answer_view
from core.chat.starters import starters_for
from core.domain import Edge
from core.render.graph_html import graph_html
from core.render.graph_path import COLUMN_PX, PATH_NODES, ROW_PX, path_ids, path_layout
from core.render.view import AnswerView, NodeView, RuleCardView
from tests.test_render_graph import _nodes_json


def _edge(source: str, target: str, kind: str = "REFERENCES") -> Edge:
    return Edge(source=source, type=kind, target=target)


def _wide_view(cited: list[str], chain: list[Edge]) -> AnswerView:
    """Eight seeds s0..s7, each citing three neighbours n<i>_<j>; n3_0 cites m (two hops from s3)."""
    nodes = [NodeView(id=f"s{i}", label=f"Seed {i}", document_id="d1", seed=True) for i in range(8)]
    nodes += [NodeView(id=f"n{i}_{j}", label=f"Neighbour {i}.{j}", document_id="d2") for i in range(8) for j in range(3)]
    nodes.append(NodeView(id="m", label="Two hops away", document_id="d3"))
    edges = [_edge(f"s{i}", f"n{i}_{j}") for i in range(8) for j in range(3)] + [_edge("n3_0", "m", "DEFINES")]
    cards = [RuleCardView(unit_id=u, label=u) for u in cited]
    return AnswerView(question="q", corpus="c", answer="a", mode="extractive", model="extractive",
                      cards=cards, chain=chain, nodes=nodes, edges=[*edges, *chain])


def test_path_is_the_cited_rules_the_chain_and_the_walk_back_to_their_seeds():
    view = _wide_view(["s1", "m"], [_edge("s1", "n1_2")])
    assert path_ids(view) == ["s1", "m", "n1_2", "n3_0", "s3"]


def test_one_rule_path_shows_its_heading_and_what_it_cites_and_what_cites_it():
    view = _wide_view(["n3_0"], [_edge("h", "n3_0", "CONTAINS")])
    view = view.model_copy(update={"nodes": [*view.nodes, NodeView(id="h", label="Heading", document_id="d2")],
                                   "edges": [*view.edges, _edge("h", "n3_0", "CONTAINS")]})
    assert path_ids(view) == ["n3_0", "h", "s3", "m"]


def test_path_is_capped():
    view = _wide_view([f"n{i}_0" for i in range(8)], [])
    ids = path_ids(view)
    assert len(ids) == PATH_NODES and ids[:8] == [f"n{i}_0" for i in range(8)]


def test_layout_keeps_every_unit_apart_and_citing_units_left_of_what_they_cite():
    view = _wide_view(["s1", "m", "n1_0", "n1_1", "n5_0"], [_edge("s1", "n1_2")])
    ids = path_ids(view)
    at = path_layout(ids, view.edges)
    assert set(at) == set(ids)
    for a in ids:
        for b in ids:
            if a < b:
                dx, dy = abs(at[a][0] - at[b][0]), abs(at[a][1] - at[b][1])
                assert dx >= COLUMN_PX or dy >= ROW_PX, (a, b, at[a], at[b])
    for edge in view.edges:
        if edge.source in at and edge.target in at:
            assert at[edge.source][0] < at[edge.target][0], edge


def test_page_opens_on_the_path_and_the_toggle_holds_the_rest():
    view = _wide_view(["s1", "m"], [_edge("s1", "n1_2")])
    page = graph_html(view)
    nodes = {n["id"]: n for n in _nodes_json(page)}
    on_path = [uid for uid, n in nodes.items() if n["onPath"]]
    assert sorted(on_path) == sorted(path_ids(view))
    assert all(n["fixed"] and not n.get("hidden") for n in nodes.values() if n["onPath"])
    assert all(n["hidden"] for n in nodes.values() if not n["onPath"]) and len(nodes) == len(view.nodes)
    assert 'id="cw-toggle"' in page


def test_no_toggle_when_the_path_is_the_whole_graph():
    view = _wide_view(["s1"], [])
    small = view.model_copy(update={"nodes": view.nodes[1:2], "edges": []})
    page = graph_html(small)
    assert 'id="cw-toggle"' not in page and all(n["onPath"] for n in _nodes_json(page))


def test_real_answer_path_fits_and_the_neighbourhood_is_wider(neo4j_driver, hipaa_corpus, test_settings):
    for starter in starters_for("hipaa"):
        envelope = asyncio.run(answer_question_async(starter.question, hipaa_corpus, test_settings))
        view = answer_view(neo4j_driver, test_settings.neo4j_database, envelope)
        ids = path_ids(view)
        cited = [c.unit_id for c in view.cards]
        assert cited and set(cited) <= set(ids) and len(ids) <= PATH_NODES, starter.label
        assert len(view.nodes) > len(ids), starter.label
