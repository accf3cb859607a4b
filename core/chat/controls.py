"""The chat settings panel (corpus, retrieval method, hops, edge types, k, the law's date) and its typed reading."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from chainlit.input_widget import InputWidget, MultiSelect, Select, Slider, TextInput
from pydantic import BaseModel, Field

from core.domain import CITATION_EDGE_TYPES
from core.retrieval.registry import DEFAULT_METHOD, RETRIEVERS


class RunOptions(BaseModel):
    corpus: str
    method: str = DEFAULT_METHOD
    hops: int = Field(default=2, ge=0, le=4)
    edge_types: list[str] = Field(default_factory=lambda: [t.value for t in CITATION_EDGE_TYPES])
    k: int = Field(default=8, ge=1, le=30)
    as_of: str | None = Field(default=None, description="the date the law is read for, YYYY-MM-DD (None: today)")


def available_methods() -> list[str]:
    """The retrieval registry's methods, the default first."""
    return sorted(RETRIEVERS, key=lambda name: (name != DEFAULT_METHOD, name))


def settings_widgets(corpora: list[str], methods: list[str], defaults: RunOptions) -> list[InputWidget]:
    widgets: list[InputWidget] = []
    if len(corpora) > 1:
        widgets.append(Select(id="corpus", label="Corpus", values=corpora, initial_value=defaults.corpus))
    widgets += [
        Select(id="method", label="Retrieval method", values=methods,
               initial_value=defaults.method if defaults.method in methods else methods[0]),
        Slider(id="hops", label="Citation hops to follow", initial=defaults.hops, min=0, max=4, step=1),
        MultiSelect(id="edge_types", label="Edge types to follow",
                    items={t.value.lower().replace("_", " "): t.value for t in CITATION_EDGE_TYPES},
                    initial=defaults.edge_types),
        Slider(id="k", label="Provisions to search (k)", initial=defaults.k, min=3, max=20, step=1),
        as_of_widget(defaults),
    ]
    return widgets


class PanelChange(BaseModel):
    """What a settings change leaves in force, and what the user is told about the values it refused."""
    options: RunOptions
    problems: list[str] = Field(default_factory=list)


def as_of_widget(defaults: RunOptions) -> TextInput:
    """A text field holding an ISO date, today's until the user types another: a date years back is typed, not
    paged to month by month in a calendar."""
    return TextInput(id=AS_OF, label="Law as of (YYYY-MM-DD)", initial=defaults.as_of or date.today().isoformat(),
                     placeholder="YYYY-MM-DD", description="Answers quote the provisions as in force on this date.")


AS_OF = "as_of"


def read_as_of(values: Mapping[str, Any], change: PanelChange) -> PanelChange:
    """The panel's "Law as of": an ISO date, or empty for today; anything else keeps the previous date and
    says so."""
    current = change.options
    if AS_OF not in values or values[AS_OF] is None:
        return change
    raw = values[AS_OF]
    text = raw.strip()[:40] if isinstance(raw, str) else f"a {type(raw).__name__}"
    if not text:
        return change.model_copy(update={"options": current.model_copy(update={"as_of": None})})
    try:
        if not isinstance(raw, str):
            raise ValueError(text)
        day = date.fromisoformat(text).isoformat()
    except ValueError:
        kept = current.as_of or f"today ({date.today().isoformat()})"
        problem = f"Law as of: {text!r} is not a date (write YYYY-MM-DD, e.g. 2024-03-01); answers stay as of {kept}."
        return change.model_copy(update={"problems": [*change.problems, problem]})
    return change.model_copy(update={"options": current.model_copy(update={"as_of": day})})


def read_options(values: Mapping[str, Any], current: RunOptions, corpora: Sequence[str]) -> PanelChange:
    """Unknown or out-of-range values keep the current option: the panel is user input (a websocket message can
    carry any value). A corpus or method outside `corpora` and the registry is named back to the user, so that
    nothing downstream ever opens, starts or registers anything for a name that was never ingested."""
    merged = current.model_dump()
    problems: list[str] = []
    corpus = values.get("corpus")
    if corpus not in (None, "") and corpus not in corpora:
        problems.append(f"Unknown corpus {_shown(corpus)}; the corpora here are: {', '.join(corpora) or 'none yet'}. "
                        f"Still using {current.corpus}.")
        values = {k: v for k, v in values.items() if k != "corpus"}
    method = values.get("method")
    if method not in (None, "") and method not in RETRIEVERS:
        problems.append(f"Unknown retrieval method {_shown(method)}; choose from {', '.join(available_methods())}. "
                        f"Still using {current.method}.")
        values = {k: v for k, v in values.items() if k != "method"}
    try:
        for key in ("corpus", "method", "hops", "edge_types", "k"):
            if key in values and values[key] not in (None, "", []):
                merged[key] = int(values[key]) if key in ("hops", "k") else values[key]
        allowed = {t.value for t in CITATION_EDGE_TYPES}
        merged["edge_types"] = [t for t in merged["edge_types"] if t in allowed] or current.edge_types
        return PanelChange(options=RunOptions(**merged), problems=problems)
    except (ValueError, TypeError):  # e.g. hops "2; MATCH (n) …" or a list where a number belongs
        return PanelChange(options=current, problems=problems)


def _shown(value: object) -> str:
    return repr(value)[:80]
