"""The pyvis citation graph page: self-contained, styled by role and document, hostile text kept as data."""
from __future__ import annotations

import json
import re

from core.render.graph_html import document_colours, graph_html, hover_text
from tests.render_support import hostile_view

_EXTERNAL_LOAD = re.compile(r"<(?:link|script|img|iframe)\b[^>]*(?:href|src)=[\"']?(?:https?:)?//", re.IGNORECASE)


def _nodes_json(page: str) -> list[dict]:
    match = re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);", page, re.DOTALL)
    assert match
    return json.loads(match.group(1))


def test_graph_page_is_self_contained():
    view = hostile_view()
    page = graph_html(view)
    assert not _EXTERNAL_LOAD.search(page)
    assert "bootstrap" not in page.lower()
    assert "vis.Network" in page and "new vis.DataSet" in page


def test_hostile_text_never_becomes_markup():
    view = hostile_view()
    page = graph_html(view)
    assert '<script>alert("x")</script>' not in page
    assert "onerror=\"alert(1)\"" not in page
    assert "popup.innerHTML" not in page  # pyvis's href-triggered HTML tooltip stays off
    nodes = _nodes_json(page)
    assert nodes[0]["hoverText"].startswith("T <script>")  # kept as data, shown with textContent
    assert "title" not in nodes[0]


def test_seeds_and_expanded_units_look_different_and_documents_get_colours():
    view = hostile_view()
    nodes = {n["id"]: n for n in _nodes_json(graph_html(view))}
    assert nodes["u1"]["shape"] == "box" and nodes["u2"]["shape"] == "dot"
    colours = document_colours(view.nodes)
    assert len(set(colours.values())) == 2
    assert nodes["u1"]["color"]["background"] == colours["d1"]
    assert nodes["u2"]["color"]["border"] == colours["d2"]


def test_edges_are_labelled_by_type():
    view = hostile_view()
    page = graph_html(view)
    edges = json.loads(re.search(r"edges = new vis\.DataSet\((\[.*?\])\);", page, re.DOTALL).group(1))
    assert edges == [edges[0]] and edges[0]["label"] == "references" and edges[0]["arrows"] == "to"


def test_hover_text_is_first_lines_capped():
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(10))
    short = hover_text(text)
    assert short.count("\n") <= 3 and len(short) <= 280


def test_legend_tells_same_titled_documents_apart():
    from core.render.view import NodeView

    nodes = [NodeView(id=f"u{i}", label=f"U{i}", document_id=f"hipaa/160.10{i}", document_title="Definitions")
             for i in range(2)]
    page = graph_html(hostile_view().model_copy(update={"nodes": nodes, "edges": [], "cards": [], "chain": []}))
    assert "Definitions (160.100)" in page and "Definitions (160.101)" in page
