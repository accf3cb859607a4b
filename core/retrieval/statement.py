"""The statement forms of question sets, read before scoring.

A multiple-choice item written as one statement ("Trách nhiệm của Bộ Y tế … là gì? Trả lời: Tổ chức công
tác giám định …") joins the question stem to one option, and the option may be a distractor quoted from
another article. The stem alone says which provision is asked about, so it is scored on its own as well.
"""
from __future__ import annotations

import re

import numpy as np

from core.retrieval.fusion import scaled_to_best

# "Answer:" markers of Vietnamese question sets ("Trả lời:", "Đáp án:"), matched as written or lower-cased.
_ANSWER_MARK = re.compile(r"\s*(?:trả lời|đáp án)\s*:\s*", re.I)


def answer_split(question: str) -> tuple[str, str] | None:
    """(stem, answer) of a "… ? Trả lời: …" statement, or None when it has no answer marker or an empty side."""
    parts = _ANSWER_MARK.split(question, maxsplit=1)
    if len(parts) != 2:
        return None
    stem, answer = (p.strip() for p in parts)
    return (stem, answer) if stem and answer else None


def with_stem(whole: np.ndarray, stem: np.ndarray, share: float = 0.5) -> np.ndarray:
    """Each BM25 list over its own best, the stem's weighted in (equal shares by default, not fitted): an
    article the stem names (its title) rises even where the option quotes another article word for word."""
    return ((1 - share) * scaled_to_best(whole) + share * scaled_to_best(stem)).astype(np.float32)
