"""The read-only page behind an answer permalink: question, answer, rule cards, chain and the graph."""
from __future__ import annotations

from html import escape

from core.render.graph_html import graph_html
from core.render.html_blocks import answer_html
from core.render.view import AnswerView

# srcdoc iframes inherit this policy, so inline scripts are allowed (the graph needs them) but nothing loads
# from another origin and the graph's sandbox keeps it away from the app's cookies.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'none'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"
)

_CSS = """
:root { --ink:#1f2630; --muted:#5b6573; --line:#e3e6eb; --accent:#2f5d8a; --paper:#fbfbfc; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.55 Inter, system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--ink); background:var(--paper); }
.top { display:flex; align-items:center; gap:10px; padding:14px 28px; border-bottom:1px solid var(--line); background:#fff; }
.top img { height:26px; } .top .brand { font-weight:600; letter-spacing:.01em; } .top .ro { margin-left:auto; color:var(--muted); font-size:13px; }
main { max-width:920px; margin:0 auto; padding:24px 28px 60px; }
.question { font-size:13px; color:var(--muted); text-transform:uppercase; letter-spacing:.06em; margin:0 0 4px; }
h1 { font-size:22px; margin:0 0 18px; font-weight:600; }
.short-answer { font-size:17px; margin:0 0 6px; }
.mode { font-size:13px; color:var(--muted); font-style:italic; margin:0 0 14px; }
.notice { background:#fff7e6; border-left:3px solid #d89b2b; padding:6px 10px; font-size:13px; }
.rule-card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px 16px; margin:10px 0; }
.rule-card header { display:flex; gap:10px; align-items:baseline; flex-wrap:wrap; }
.rule-label { font-weight:600; color:var(--accent); } .rule-doc { color:var(--muted); font-size:13px; }
.claims { margin:8px 0 4px 18px; padding:0; } .para { color:var(--muted); font-size:12px; }
details summary { cursor:pointer; color:var(--muted); font-size:13px; }
pre.provision { white-space:pre-wrap; font: 13px/1.5 inherit; font-family:inherit; background:#f6f7f9; padding:10px; border-radius:6px; }
.chain h3, .graph h3 { font-size:14px; margin:22px 0 6px; color:var(--muted); font-weight:600; }
.chain-line { font-size:14px; } .chain-unit { font-weight:600; } .chain-edge { color:var(--muted); margin:0 4px; }
.graph iframe { width:100%; height:440px; border:1px solid var(--line); border-radius:8px; background:#fff; }
.meta { color:var(--muted); font-size:12px; margin-top:24px; }
.revoke button { background:#fff; border:1px solid #c9514b; color:#c9514b; border-radius:6px; padding:4px 10px; cursor:pointer; }
"""


def share_page_html(view: AnswerView, *, shared_by: str, created_at: str, revoke_url: str | None = None) -> str:
    graph = graph_html(view)
    revoke = (
        f'<form class="revoke" method="post" action="{escape(revoke_url)}"><button type="submit">Revoke this link</button></form>'
        if revoke_url else ""
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Citewalk · {escape(view.question[:80])}</title>
<link rel="icon" href="/favicon"><style>{_CSS}</style></head>
<body><div class="top"><img src="/public/logo_light.svg" alt="Citewalk">
<span class="ro">Shared answer · read-only</span></div>
<main><p class="question">Question · {escape(view.corpus)}</p><h1 id="question">{escape(view.question)}</h1>
{answer_html(view)}
<section class="graph"><h3>Citation graph</h3>
<iframe title="Citation graph" sandbox="allow-scripts" srcdoc="{escape(graph, quote=True)}"></iframe></section>
<p class="meta">Shared by {escape(shared_by)} on {escape(created_at)}.</p>{revoke}</main></body></html>"""


def message_page_html(title: str, message: str, sign_in_link: bool = False) -> str:
    """Small page for 401/403/404 so a browser user sees words, not JSON."""
    link = '<p><a href="/login">Sign in</a>, then open the link again.</p>' if sign_in_link else ""
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Citewalk · {escape(title)}</title>
<style>{_CSS}</style></head><body><div class="top"><span class="brand">Citewalk</span></div>
<main><h1>{escape(title)}</h1><p>{escape(message)}</p>{link}</main></body></html>"""
