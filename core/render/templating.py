"""The Jinja2 environment of the HTML pages (templates/ next to this file), autoescaping everything."""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _stdlib_escape(value: Any) -> Any:
    """html.escape's entities (&quot; &#x27;), so pages stay byte-identical to the f-string ones they replace.
    Autoescape stays on underneath: a value that is already Markup (a rendered macro) passes as it is."""
    if hasattr(value, "__html__"):
        return value
    return Markup(escape(str(value), quote=True))


_ENV = Environment(
    loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined, finalize=_stdlib_escape,
)


def render(name: str, **context: Any) -> str:
    return str(_ENV.get_template(name).render(**context))
