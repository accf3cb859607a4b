"""The citation subgraph as a self-contained pyvis page (vis-network inlined), for an iframe srcdoc.

No request leaves the page: pyvis's Bootstrap CDN tags are removed and vis-network is inlined. Hover text
is set with textContent by our own script rather than vis's `title`, because pyvis switches to an
innerHTML popup whenever a title contains "href" — regulation text must never become markup.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence

from pyvis.network import Network

from core.answer.models import ChainEdge
from core.render.chain import edge_word
from core.render.view import NodeView

DOCUMENT_COLOURS = ("#3b6ea8", "#c0713a", "#4f8a5b", "#8a5a9e", "#b5534f", "#5f8f99", "#9a8a3c", "#6b6f7a")
EDGE_COLOURS = {"REFERENCES": "#7a8699", "DEFINES": "#4f8a5b", "AMENDS": "#b5534f", "REPLACES": "#b5534f",
                "DELEGATES_TO": "#8a5a9e", "SPECIFIES": "#8a5a9e"}
HOVER_CHARS = 280
LEGEND_PX = 44
LEGEND_TITLE_CHARS = 48
_EXTERNAL_TAG = re.compile(r"<(link|script)\b[^>]*\bhttps?://[^>]*>(\s*</script>)?", re.IGNORECASE)
_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.IGNORECASE)

_OPTIONS = {
    "interaction": {"hover": True, "tooltipDelay": 3600000, "navigationButtons": False},
    "physics": {"solver": "forceAtlas2Based", "stabilization": {"iterations": 150},
                "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 110}},
    "edges": {"smooth": {"type": "continuous"}, "font": {"size": 10, "color": "#55606e", "strokeWidth": 3,
                                                          "align": "middle"}},
    "nodes": {"font": {"face": "Inter, system-ui, sans-serif", "size": 13}},
}

_STYLE = """
<style>
  html, body { margin: 0; padding: 0; font-family: Inter, system-ui, sans-serif; background: #fff; }
  #mynetwork { float: none !important; border: none !important; }
  .card { border: none !important; }
  #cw-hover { position: absolute; display: none; max-width: 340px; padding: 8px 10px; background: #fff;
    border: 1px solid #d5d9e0; border-radius: 6px; box-shadow: 0 4px 14px rgba(0,0,0,.12); font-size: 12px;
    color: #1f2630; white-space: pre-wrap; pointer-events: none; z-index: 10; }
  #cw-hover b { display: block; margin-bottom: 4px; }
  #cw-legend { clear: both; font-size: 11px; line-height: 1.7; color: #4a5361; padding: 2px 8px; }
  #cw-legend span.sw { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin: 0 4px 0 8px; }
</style>
"""

# Hover and click-to-focus; reads the node's own `hover` field and writes it with textContent only.
_SCRIPT = """
<script>
(function () {
  if (typeof network === "undefined") { return; }
  var box = document.createElement("div"); box.id = "cw-hover"; document.body.appendChild(box);
  network.on("hoverNode", function (p) {
    var n = nodes.get(p.node); if (!n) { return; }
    box.textContent = "";
    var head = document.createElement("b"); head.textContent = n.hoverLabel || ""; box.appendChild(head);
    box.appendChild(document.createTextNode(n.hoverText || ""));
    box.style.left = Math.min(p.event.center ? p.event.center.x + 12 : p.pointer.DOM.x + 12, window.innerWidth - 350) + "px";
    box.style.top = (p.pointer.DOM.y + 12) + "px";
    box.style.display = "block";
  });
  network.on("blurNode", function () { box.style.display = "none"; });
  network.on("click", function (p) {
    if (p.nodes.length) {
      network.selectNodes([p.nodes[0]]);
      network.focus(p.nodes[0], {scale: 1.3, animation: {duration: 400}});
    } else {
      network.fit({animation: {duration: 400}});
    }
  });
  // Physics off once laid out: a chat holds one graph per answer, and same-origin frames share the page's
  // main thread, so graphs still simulating would slow every later message. Dragging still moves a node.
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({physics: {enabled: false}});
    network.fit();
    document.body.setAttribute("data-graph-ready", "1");
  });
  document.body.setAttribute("data-node-count", String(nodes.length));
})();
</script>
"""


def document_colours(nodes: Sequence[NodeView]) -> dict[str, str]:
    """One colour per document, in order of first appearance, so the legend and the nodes agree."""
    colours: dict[str, str] = {}
    for node in nodes:
        if node.document_id not in colours:
            colours[node.document_id] = DOCUMENT_COLOURS[len(colours) % len(DOCUMENT_COLOURS)]
    return colours


def hover_text(text: str, limit: int = HOVER_CHARS) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    joined = "\n".join(lines[:4])
    return joined if len(joined) <= limit else joined[: limit - 1].rstrip() + "…"


def graph_html(nodes: Sequence[NodeView], edges: Sequence[ChainEdge], height_px: int = 420) -> str:
    colours = document_colours(nodes)
    net = Network(height=f"{height_px - LEGEND_PX}px", width="100%", directed=True, cdn_resources="in_line", bgcolor="#ffffff")
    for node in nodes:
        colour = colours[node.document_id]
        style = (
            {"shape": "box", "borderWidth": 2, "margin": 8, "font": {"color": "#ffffff", "bold": True},
             "color": {"background": colour, "border": "#1f2630"}}
            if node.seed else
            {"shape": "dot", "size": 11, "borderWidth": 1, "font": {"color": "#3a4350", "size": 12},
             "color": {"background": "#ffffff", "border": colour}}
        )
        net.add_node(node.id, label=node.label, hoverLabel=f"{node.label} · {node.document_title}".strip(" ·"),
                     hoverText=hover_text(node.text), **style)
    for edge in edges:
        net.add_edge(edge.source, edge.target, label=edge_word(edge.type), arrows="to",
                     color=EDGE_COLOURS.get(edge.type, "#7a8699"), width=1.4)
    net.set_options(json.dumps(_OPTIONS))
    page = net.generate_html()
    page = _EXTERNAL_TAG.sub("", page)
    page = _HEADING.sub("", page)
    page = page.replace("</head>", _STYLE + "</head>", 1)
    return page.replace("</body>", _legend(nodes, colours) + _SCRIPT + "</body>", 1)


def _legend(nodes: Sequence[NodeView], colours: dict[str, str]) -> str:
    titles = {n.document_id: _short(n.document_title or n.document_id) for n in nodes}
    repeated = {t for t in titles.values() if list(titles.values()).count(t) > 1}
    # Same-titled documents (several "Definitions" sections) get their id's last part, or the colours mislead.
    titles = {doc: f"{t} ({doc.rsplit('/', 1)[-1]})" if t in repeated else t for doc, t in titles.items()}
    items = "".join(
        f'<span class="sw" style="background:{colour}"></span>{html.escape(titles[doc])}' for doc, colour in colours.items()
    )
    return f'<div id="cw-legend">{items} &nbsp;·&nbsp; boxes: found by search, dots: reached by citation</div>'


def _short(title: str) -> str:
    return title if len(title) <= LEGEND_TITLE_CHARS else title[: LEGEND_TITLE_CHARS - 1].rstrip() + "…"
