"""Rank fusion and score normalisation shared by the retrievers."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np


def rrf(rankings: Sequence[Sequence[str]], k: int = 60, weights: Sequence[float] | None = None) -> dict[str, float]:
    """Reciprocal Rank Fusion: sum over lists of w / (k + rank)."""
    scores: dict[str, float] = defaultdict(float)
    for n, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[n]
        for rank, unit_id in enumerate(ranking, start=1):
            scores[unit_id] += weight / (k + rank)
    return dict(scores)


def rrm(rankings: Sequence[Sequence[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal Rank MAX: the best view decides, so one view's cross-document signal is not diluted."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, unit_id in enumerate(ranking, start=1):
            scores[unit_id] = max(scores.get(unit_id, 0.0), 1.0 / (k + rank))
    return scores


def top_indices(scores: np.ndarray, n: int, mask: np.ndarray | None = None) -> np.ndarray:
    values = scores if mask is None else np.where(mask, scores, -np.inf)
    n = min(n, int(np.isfinite(values).sum()))
    if n <= 0:
        return np.array([], dtype=np.int64)
    top = np.argpartition(-values, n - 1)[:n]
    return top[np.argsort(-values[top], kind="stable")]


def normalise_top(scores: np.ndarray, pool: int = 100) -> np.ndarray:
    """Min–max over the query's top `pool` scores, clipped at 0: comparable across BM25 and cosine."""
    if scores.size == 0:
        return scores
    pool = min(pool, scores.size)
    top = np.partition(scores, -pool)[-pool:]
    low, high = float(top.min()), float(top.max())
    if high <= low:
        return np.zeros_like(scores)
    return np.clip((scores - low) / (high - low), 0.0, None)


def sorted_items(scores: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def scaled_to_best(scores: np.ndarray) -> np.ndarray:
    """BM25 divided by the question's best score (0–1), unchanged when nothing matched."""
    peak = float(scores.max()) if scores.size else 0.0
    return scores / peak if peak > 0 else scores


def fuse_scores(lexical: np.ndarray, dense: np.ndarray, lexical_weight: float) -> np.ndarray:
    """Score fusion: BM25 / its max + cosine min–max over the top 100 (weights tuned on dev sets)."""
    return lexical_weight * scaled_to_best(lexical) + (1 - lexical_weight) * normalise_top(dense)
