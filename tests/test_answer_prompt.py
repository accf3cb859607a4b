"""How a unit is shown to a model: on one line, clipped; a long unit's text is flattened only as far as shown."""
from __future__ import annotations

import pytest

from core.answer.deps import Evidence
from core.answer.prompt import render_unit
from core.stores.queries import UnitRecord


def _shown_whole(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit].rstrip() + " […]"


@pytest.mark.parametrize("text", [
    "short text",
    "word " * 500,
    ("spaced\n\n\t   " * 400) + "end",  # mostly whitespace: its flattened head is shorter than the limit
    "x" * 2399 + " tail " + "y" * 50,
    " " * 2401 + "late start " * 20,
])
def test_a_unit_is_shown_as_its_whole_flattened_text_clipped(text: str):
    body = render_unit(Evidence(UnitRecord(id="u1", label="1", text=text), "seed", rank=1), text_limit=1200)
    assert body.split("\n  ", 1)[1] == _shown_whole(text, 1200)
