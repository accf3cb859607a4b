"""HTML fragments of an answer for the share page (templates/answer_blocks.html.j2, autoescaped)."""
from __future__ import annotations

from core.render.chain import chain_segments
from core.render.templating import render
from core.render.view import AnswerView


def answer_html(view: AnswerView) -> str:
    return render("answer.html.j2", view=view, segments=chain_segments(view.chain, view.labels))
