"""HTML fragments of an answer for the share page; every piece of text goes through html.escape."""
from __future__ import annotations

from html import escape

from core.render.chain import chain_segments
from core.render.view import AnswerView, RuleCardView


def rule_card_html(card: RuleCardView) -> str:
    claims = "".join(
        f"<li>{escape(c.text)}{_paragraph(c.paragraph)}</li>" for c in card.claims
    )
    provision = (
        f'<details><summary>Full provision text</summary><pre class="provision">{escape(card.text)}</pre></details>'
        if card.text else ""
    )
    return (
        f'<article class="rule-card" data-unit-id="{escape(card.unit_id)}">'
        f'<header><span class="rule-label">{escape(card.label)}</span>'
        f'<span class="rule-doc">{escape(card.document_title)}</span></header>'
        f"<ul class=\"claims\">{claims}</ul>{provision}</article>"
    )


def chain_html(view: AnswerView) -> str:
    segments = chain_segments(view.chain, view.labels)
    if not segments:
        return ""
    rendered = []
    for segment in segments:
        parts = [f'<span class="chain-unit">{escape(segment[0])}</span>']
        for i in range(1, len(segment), 2):
            parts.append(f'<span class="chain-edge">—{escape(segment[i])}→</span>')
            parts.append(f'<span class="chain-unit">{escape(segment[i + 1])}</span>')
        rendered.append(f'<div class="chain-line">{" ".join(parts)}</div>')
    return '<section class="chain"><h3>Reasoning chain</h3>' + "".join(rendered) + "</section>"


def answer_html(view: AnswerView) -> str:
    notices = "".join(f'<p class="notice">{escape(n)}</p>' for n in view.notices)
    caveats = (
        '<ul class="caveats">' + "".join(f"<li>{escape(c)}</li>" for c in view.caveats) + "</ul>" if view.caveats else ""
    )
    mode_class = "mode extractive" if view.mode == "extractive" else "mode llm"
    return (
        f'<section class="answer"><p class="short-answer">{escape(view.answer)}</p>'
        f'<p class="{mode_class}">{escape(view.mode_line)}</p>{notices}{caveats}</section>'
        + "".join(rule_card_html(card) for card in view.cards)
        + chain_html(view)
    )


def _paragraph(mark: str | None) -> str:
    return f' <span class="para">{escape(mark)}</span>' if mark else ""
