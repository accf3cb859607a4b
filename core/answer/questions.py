"""Question checks that come before any search: empty, too long, or not text at all."""
from __future__ import annotations

import unicodedata

from core.settings import Settings

# Share of control/unassigned characters above which the input is treated as binary, not a question.
BINARY_SHARE = 0.1


def question_problem(question: str, settings: Settings) -> str | None:
    """A message for the user when the question cannot be answered as typed; None when it can."""
    text = question.strip()
    if not text:
        return "Please type a question: the question is empty."
    if len(text) > settings.question_max_chars:
        return (f"The question is {len(text):,} characters long; the limit is {settings.question_max_chars:,}. "
                "Please shorten it to the point you want answered.")
    odd = sum(1 for ch in text if ch == "\x00" or (unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs") and ch not in "\n\t\r"))
    if odd / len(text) > BINARY_SHARE:
        return "The question looks like binary data, not text. Please type it in words."
    if not any(ch.isalnum() for ch in text):
        return "The question has no words in it. Please type it in words."
    return None


def clean_question(question: str) -> str:
    """Drops stray control characters and collapses whitespace; the words themselves stay as typed."""
    kept = "".join(ch if unicodedata.category(ch) != "Cc" else " " for ch in question)
    return " ".join(kept.split())
