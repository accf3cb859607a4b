"""The chat message body in Markdown: short answer first, how it was produced, notices and caveats.

Everything that came from a model or a regulation is escaped: Chainlit renders Markdown, so a provision
containing `[x](javascript:…)` or `<img onerror=…>` must arrive as literal characters.
"""
from __future__ import annotations

import re

from core.render.view import AnswerView

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def escape_markdown(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def answer_markdown(view: AnswerView) -> str:
    lines = [escape_markdown(view.answer or "No answer could be grounded in the provisions found."), ""]
    lines.append(f"*{escape_markdown(view.mode_line)}*")
    if view.as_of_line:
        lines += ["", f"**{escape_markdown(view.as_of_line)}**"]
    for notice in view.notices:
        lines += ["", f"> **Note:** {escape_markdown(notice)}"]
    if view.caveats:
        lines += ["", "**Caveats**"]
        lines += [f"- {escape_markdown(c)}" for c in view.caveats]
    if view.may_be_about:
        named = " · ".join(escape_markdown(f"{r.topic}, {r.label}" if r.topic else r.label) for r in view.may_be_about)
        lines += ["", f"**This may be about:** {named}"]
    if view.abstained and view.cards:
        lines += ["", "**Closest provisions below: the corpus does not cover the question; they are not an answer.**"]
    return "\n".join(lines)
