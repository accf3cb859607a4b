"""The share page and Chainlit page HTML: escaped text, sandboxed graph, no request outside the app's origin."""
from __future__ import annotations

import html
import re
from pathlib import Path

import chainlit

from core.chat.offline_page import strip_external_assets
from core.render.share_page import message_page_html, share_page_html
from tests.render_support import HOSTILE, answer_html, hostile_view

# The page's one script of its own: it turns a node clicked in the sandboxed graph into its source page's URL.
_GRAPH_CLICK = re.compile(r"<script>\n/\* A node clicked in the graph .*?</script>", re.DOTALL)


def _outside_iframe(page: str) -> str:
    return _GRAPH_CLICK.sub("", re.sub(r'srcdoc="[^"]*"', 'srcdoc=""', page), count=1)


def test_share_page_escapes_every_field():
    page = share_page_html(hostile_view(), shared_by=f"x{HOSTILE}", created_at="now", revoke_url=None)
    visible = _outside_iframe(page)
    assert "<script" not in visible  # the share page itself runs no script; only the sandboxed graph does
    assert 'onerror="' not in visible
    assert 'href="javascript:' not in visible
    assert html.escape('<script>alert("x")</script>') in visible


def test_share_page_graph_is_sandboxed_and_escaped():
    page = share_page_html(hostile_view(), shared_by="a@b", created_at="now")
    iframe = re.search(r"<iframe[^>]*>", page).group(0)
    assert 'sandbox="allow-scripts"' in iframe and "allow-same-origin" not in iframe
    srcdoc = html.unescape(re.search(r'srcdoc="([^"]*)"', page).group(1))
    assert "vis.Network" in srcdoc


def test_answer_html_cards_chain_and_collapsed_text():
    block = answer_html(hostile_view())
    assert block.count('class="rule-card"') == 1
    assert "<details><summary>Full provision text</summary>" in block
    assert "—references→" in block
    assert "Extractive answer" in block


def test_revoke_button_only_with_url_and_message_page_escapes():
    view = hostile_view()
    assert "Revoke this link" not in share_page_html(view, shared_by="a", created_at="t")
    assert 'action="/answers/tok/revoke"' in share_page_html(view, shared_by="a", created_at="t", revoke_url="/answers/tok/revoke")
    assert "<script>" not in message_page_html("<script>", "<script>")


def test_chainlit_index_loses_its_cdn_assets():
    index = (Path(chainlit.__file__).parent / "frontend" / "dist" / "index.html").read_text()
    assert "fonts.googleapis.com/css2" in index and "katex" in index  # what the upstream page loads
    stripped = strip_external_assets(index)
    assert not re.search(r"<(link|script)\b[^>]*(href|src)=\"https?://", stripped)
    assert '<script type="module" crossorigin src="/assets/' in stripped
