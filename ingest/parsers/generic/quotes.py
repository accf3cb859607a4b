"""Quoted provisions in amending texts: lines that belong to the amended act, not to this one.

    (a) paragraph 3 is replaced by the following:
    ‘3. A CCP shall maintain …          ← opens: starts with a quote mark after a line ending ':'
    2. A trade repository shall …       ← inside: not clause 2 of the amending article
    … (OJ L 333, 27.12.2022, p. 1).’;   ← closes: ends with a closing quote mark

A quotation left open (a publisher dropped the closing mark) ends at the next heading that
continues the amending text's own numbering; structure.py tells the tracker so.
"""
from __future__ import annotations

import re
from collections.abc import Callable

_OPENERS = ("‘", "“", "«", "„")
# A closing mark at the very end, before only the instruction's own punctuation ("’;", "’.", "’;\""): a
# quoted term closing a sentence inside the quotation ("(‘data minimisation’);") does not end it.
_CLOSE = re.compile(r"[’”»][;.,:\"”]{0,3}\s{0,3}$")
_INTRODUCED = re.compile(r":\s*$")


_DOUBLE_OPEN, _DOUBLE_CLOSE = "“", "”"


class QuoteTracker:
    """Line by line: is this line quoted text? Double curly quotes (“ ”, never an apostrophe) are counted, so
    a quoted phrase inside the quotation ("… gọi là “người lao động”.") does not end it; other marks close
    at a mark ending the line."""

    def __init__(self, introduces: Callable[[str], bool] | None = None) -> None:
        # Besides a line ending in ':', what else introduces a quotation: a Vietnamese instruction heading
        # "Điều 1. Sửa đổi, bổ sung Điều 6" is followed by the quoted article with no colon.
        self._introduces = introduces
        self.inside = False
        self.opened_at = ""  # the line that opened the quotation now open
        self._previous = ""
        self._depth = 0

    def quoted(self, text: str) -> bool:
        """True when this line is quoted text (opening, inside or closing a quotation)."""
        stripped = text.strip()
        if not stripped:
            return self.inside
        previous, self._previous = self._previous, stripped
        if self.inside:
            if self._depth:
                self._depth += stripped.count(_DOUBLE_OPEN) - stripped.count(_DOUBLE_CLOSE)
                self.inside = self._depth > 0
            elif _CLOSE.search(stripped):
                self.inside = False
            return True
        if stripped.startswith(_OPENERS) and (_INTRODUCED.search(previous) or self._introduces is not None and self._introduces(previous)):
            self.opened_at = stripped
            if stripped.startswith(_DOUBLE_OPEN):
                self._depth = stripped.count(_DOUBLE_OPEN) - stripped.count(_DOUBLE_CLOSE)
                self.inside = self._depth > 0
                return True
            # A one-line quotation closes on its own line; a longer one stays open.
            self.inside = not _CLOSE.search(stripped) or len(stripped) == 1
            return True
        return False

    def close(self) -> None:
        self.inside = False
        self._depth = 0
