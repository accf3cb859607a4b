"""Text clean-up applied before citation finding and lexical indexing (and to questions, the same way)."""
from __future__ import annotations

import re

# Bidi marks and zero-width characters sit inside ADGM citations ("Rule \u200e3.6.10").
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\ufeff]")
_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def normalize_text(text: str) -> str:
    """Drop invisible marks and map exotic spaces to ASCII spaces; keeps every other character."""
    return _SPACES.sub(" ", _INVISIBLE.sub("", text))
