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

from core.render.chain import edge_word
from core.render.graph_path import LABEL_PX, path_ids, path_layout, short_label
from core.render.view import AnswerView, NodeView

DOCUMENT_COLOURS = ("#3b6ea8", "#c0713a", "#4f8a5b", "#8a5a9e", "#b5534f", "#5f8f99", "#9a8a3c", "#6b6f7a")
EDGE_COLOURS = {"REFERENCES": "#7a8699", "DEFINES": "#4f8a5b", "AMENDS": "#b5534f", "REPLACES": "#b5534f",
                "DELEGATES_TO": "#8a5a9e", "SPECIFIES": "#8a5a9e"}
HOVER_CHARS = 280
LEGEND_PX = 44
LEGEND_TITLE_CHARS = 48
_EXTERNAL_TAG = re.compile(r"<(link|script)\b[^>]*\bhttps?://[^>]*>(\s*</script>)?", re.IGNORECASE)
_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.IGNORECASE)

_PHYSICS: dict[str, object] = {"solver": "forceAtlas2Based", "stabilization": {"iterations": 150},
                              "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 110}}
_OPTIONS: dict[str, object] = {
    "interaction": {"hover": True, "tooltipDelay": 3600000, "navigationButtons": False},
    "physics": _PHYSICS,
    "edges": {"smooth": {"type": "continuous"}, "font": {"size": 10, "color": "#55606e", "strokeWidth": 3,
                                                          "align": "middle"}},
    "nodes": {"font": {"face": "Inter, system-ui, sans-serif", "size": 13}},
    "layout": {"randomSeed": 7},
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
  #cw-legend { clear: both; font-size: 11px; line-height: 1.7; color: #4a5361; padding: 2px 8px;
    max-height: 40px; overflow-y: auto; }
  #cw-toggle { position: absolute; top: 6px; right: 8px; z-index: 5; font: 12px Inter, system-ui, sans-serif;
    color: #2f5d8a; background: #fff; border: 1px solid #c9d3e0; border-radius: 6px; padding: 3px 9px; cursor: pointer; }
  #cw-legend span.sw { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin: 0 4px 0 8px; }
</style>
"""

# Hover, click-to-focus (which also asks the page around for the node's source) and the path/neighbourhood toggle; reads the nodes' own fields and writes text with
# textContent only.
_SCRIPT = """
<script>
(function () {
  if (typeof network === "undefined") { return; }
  var body = document.body;
  var box = document.createElement("div"); box.id = "cw-hover"; body.appendChild(box);
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
      // The page around the frame opens the unit's source; the frame's opaque origin cannot name a target.
      if (window.parent !== window) { window.parent.postMessage({citewalk: "source", unit: String(p.nodes[0])}, "*"); }
    } else {
      network.fit({animation: {duration: 400}});
    }
  });
  function shown() { return nodes.get({filter: function (n) { return !n.hidden; }}).length; }
  function ready(view) {
    network.fit();
    document.querySelectorAll("#cw-legend .cw-doc").forEach(function (item) {
      item.style.display = view === "wide" || item.getAttribute("data-path") === "1" ? "" : "none";
    });
    body.setAttribute("data-view", view);
    body.setAttribute("data-node-count", String(shown()));
    body.setAttribute("data-graph-ready", "1");
  }
  var pathCount = nodes.get({filter: function (n) { return n.onPath; }}).length;
  var toggle = document.getElementById("cw-toggle");
  var laidOut = !toggle && pathCount === 0;  // no path: the whole graph is laid out by physics at once
  // Physics off once laid out: a chat holds one graph per answer, and same-origin frames share the page's
  // main thread, so graphs still simulating would slow every later message. Dragging still moves a node.
  function settle(view) {
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({physics: {enabled: false}});
      laidOut = true;
      ready(view);
    });
  }
  function show(view) {
    var wide = view === "wide";
    nodes.update(nodes.get({filter: function (n) { return !n.onPath; }})
      .map(function (n) { return {id: n.id, hidden: !wide}; }));
    toggle.textContent = wide ? "Show only the answer's path" : "Show the neighbourhood (+" + (nodes.length - pathCount) + ")";
    body.setAttribute("data-graph-ready", "0");
    if (wide && !laidOut) {
      settle(view);
      network.setOptions({physics: {enabled: true}});
      network.stabilize();
    } else {
      ready(view);
    }
  }
  // The frame may be laid out (sized) after this runs: fit again then, or the path sits off-centre.
  window.addEventListener("resize", function () { network.fit(); });
  network.once("afterDrawing", function () { network.fit(); });
  // The path has fixed positions, so it is ready at once (vis may already have drawn it by now).
  if (laidOut) { settle("wide"); }
  else if (toggle) {
    var view = "path";
    toggle.addEventListener("click", function () { view = view === "path" ? "wide" : "path"; show(view); });
    show("path");
  } else { ready("path"); }
  body.setAttribute("data-node-count", String(shown()));
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
    return short_label("\n".join(lines[:4]), limit)


def graph_html(view: AnswerView, height_px: int = 420) -> str:
    """Opens on the answer's path (`graph_path`), laid out in columns; the rest of the evidence sits behind a toggle."""
    nodes, edges = view.nodes, view.edges
    path = path_ids(view)
    positions = path_layout(path, edges)
    toggled = 0 < len(path) < len(nodes)
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
        place = ({"x": positions[node.id][0], "y": positions[node.id][1], "fixed": True, "onPath": True}
                 if node.id in positions else {"hidden": toggled, "onPath": False})
        net.add_node(node.id, label=short_label(node.label), hoverLabel=f"{node.label} · {node.document_title}".strip(" ·"),
                     hoverText=hover_text(node.text), widthConstraint={"maximum": LABEL_PX}, **style, **place)
    for edge in edges:
        net.add_edge(edge.source, edge.target, label=edge_word(edge.type), arrows="to",
                     color=EDGE_COLOURS.get(edge.type, "#7a8699"), width=1.4)
    # A path has its own positions: physics only lays out the neighbourhood, when it is asked for.
    net.set_options(json.dumps(_OPTIONS | {"physics": _PHYSICS | {"enabled": not path}}))
    page = net.generate_html()
    page = _EXTERNAL_TAG.sub("", page)
    page = _HEADING.sub("", page)
    page = page.replace("</head>", _STYLE + "</head>", 1)
    button = '<button id="cw-toggle" type="button"></button>' if toggled else ""
    path_documents = {n.document_id for n in nodes if n.id in positions} if toggled else set(colours)
    return page.replace("</body>", button + _legend(nodes, colours, path_documents) + _SCRIPT + "</body>", 1)


def _legend(nodes: Sequence[NodeView], colours: dict[str, str], path_documents: set[str]) -> str:
    """One swatch per document; the path view hides the documents none of its units is in (the script does)."""
    titles = {n.document_id: short_label(n.document_title or n.document_id, LEGEND_TITLE_CHARS) for n in nodes}
    repeated = {t for t in titles.values() if list(titles.values()).count(t) > 1}
    # Same-titled documents (several "Definitions" sections) get their id's last part, or the colours mislead.
    titles = {doc: f"{t} ({doc.rsplit('/', 1)[-1]})" if t in repeated else t for doc, t in titles.items()}
    items = "".join(
        f'<span class="cw-doc" data-path="{int(doc in path_documents)}"><span class="sw" style="background:{colour}">'
        f'</span>{html.escape(titles[doc])}</span>' for doc, colour in colours.items()
    )
    return f'<div id="cw-legend">{items} &nbsp;·&nbsp; boxes: found by search, dots: reached by citation</div>'
