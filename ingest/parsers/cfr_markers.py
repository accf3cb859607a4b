"""CFR paragraph markers: what "(i)" can be (the letter after (h) or the first roman numeral) and in which order.

Shared by the HIPAA paragraph parser and the CFR citation grammar, so that both read markers alike.
"""
from __future__ import annotations

import re
from enum import StrEnum


class MarkerKind(StrEnum):
    LOWER = "lower"
    NUMBER = "number"
    ROMAN = "roman"
    UPPER = "upper"


# The CFR paragraph hierarchy: (a) › (1) › (i) › (A) › italic (1) › italic (i).
LEVEL_KINDS: tuple[MarkerKind, ...] = (
    MarkerKind.LOWER,
    MarkerKind.NUMBER,
    MarkerKind.ROMAN,
    MarkerKind.UPPER,
    MarkerKind.NUMBER,
    MarkerKind.ROMAN,
)

_ROMAN = re.compile(r"^(x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10}


def _roman_value(marker: str) -> int | None:
    if not marker or not _ROMAN.match(marker):
        return None
    total = 0
    for i, ch in enumerate(marker):
        value = _ROMAN_DIGITS[ch]
        nxt = _ROMAN_DIGITS[marker[i + 1]] if i + 1 < len(marker) else 0
        total += -value if value < nxt else value
    return total


def marker_value(marker: str, kind: MarkerKind) -> int | None:
    """The ordinal of a marker read as `kind` ((c) → 3 as a letter), or None if it cannot be that kind."""
    if kind is MarkerKind.NUMBER:
        return int(marker) if marker.isdigit() else None
    if kind is MarkerKind.ROMAN:
        return _roman_value(marker)
    if kind is MarkerKind.LOWER:
        # (aa), (bb)… continue the alphabet after (z) in the CFR.
        # A doubled roman-looking marker ("ii", "xx") is the numeral, never the letter.
        if len(marker) > 1 and _roman_value(marker) is not None:
            return None
        if marker.islower() and marker.isalpha() and len(set(marker)) == 1:
            return (len(marker) - 1) * 26 + ord(marker[0]) - 96
        return None
    if marker.isupper() and marker.isalpha() and len(set(marker)) == 1:
        return (len(marker) - 1) * 26 + ord(marker[0]) - 64
    return None


def marker_kinds(marker: str) -> tuple[MarkerKind, ...]:
    """Every kind the marker can be; "(i)", "(v)", "(x)" are both letters and roman numerals."""
    return tuple(k for k in MarkerKind if marker_value(marker, k) is not None)


_ROMAN_OUT = ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def marker_of(value: int, kind: MarkerKind) -> str | None:
    """The inverse of marker_value, for expanding ranges such as "paragraphs (a) through (f)"."""
    if value < 1 or value > 60:
        return None
    if kind is MarkerKind.NUMBER:
        return str(value)
    if kind is MarkerKind.ROMAN:
        out = ""
        for amount, letters in _ROMAN_OUT:
            while value >= amount:
                out += letters
                value -= amount
        return out
    repeat, offset = divmod(value - 1, 26)
    base = ord("a" if kind is MarkerKind.LOWER else "A")
    return chr(base + offset) * (repeat + 1)
