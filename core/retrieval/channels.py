"""The first stage's channels, weighed per question: how much of the fused score BM25 gets, from what the question shows.

A generated question copies its rule's words, and BM25 finds the rule; a user's question describes a situation in
its own words ("our laptop … was stolen last week"), and BM25's matches on the incidental words crowd the rules
that answer it out, while the cosine still ranks them first. One fixed share cannot serve both. The share is a
logistic model of features any question shows in any language, over the corpus it is asked of:

- how much of it is the corpus's own vocabulary (its terms the index never saw, the idf of those it did);
- how chatty it is (the share of its words the analyzer drops as function words, its length);
- how sure each channel is (the cosine's and BM25's lead of their first hit over their tenth);
- whether it names a provision or a figure (a digit).

One model per embedding backend: MiniLM's and e5's cosines spread differently, and the languages e5 reads are cut
into terms differently (a Korean question keeps few function words apart, a Vietnamese one many). The coefficients
are fitted on every dev set together, user-style and generated, by `python -m bench.channel_fit`,
which writes them to channel_weights.json beside this file and reports them on held-out halves. Only MiniLM's model
is shipped: e5's lowered the Vietnamese answers (bench.channel_fit.SHIPPED says by how much), so an e5 corpus keeps
the fixed shares.

`within_reach` keeps each channel's first hits within the hits the answerer reads, whatever the fusion did to
them; it is off by default (RetrievalConfig.channel_pool says what it measured).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from core.domain import RetrievalError
from core.retrieval.base import Provenance
from core.retrieval.stores import CorpusStores

FEATURES = ("unknown_terms", "term_idf", "function_words", "length", "dense_lead", "lexical_lead", "cites")
WEIGHTS_FILE = Path(__file__).with_name("channel_weights.json")
# A channel's sureness: its first hit's lead over its LEAD_AT-th, on the scale of its first LEAD_SPAN hits.
LEAD_AT = 10
LEAD_SPAN = 100
_DIGIT = re.compile(r"\d")
CHANNELS = ("lexical", "dense")  # the first-stage lists a unit's provenance names


class ChannelModel(BaseModel):
    """BM25's share of the fused score = sigmoid(intercept + coefficients · features)."""

    features: list[str]
    intercept: float
    coefficients: list[float]

    def share(self, features: np.ndarray) -> float:
        z = self.intercept + float(np.dot(self.coefficients, features))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


class ChannelWeights(BaseModel):
    """The fitted models, by the embedding backend that made the corpus's vectors."""

    models: dict[str, ChannelModel]
    fitted: str = Field(default="", description="how and on what the coefficients were fitted")


@lru_cache(maxsize=1)
def channel_weights(path: Path = WEIGHTS_FILE) -> ChannelWeights:
    try:
        weights = ChannelWeights.model_validate_json(path.read_text())
    except (OSError, ValueError) as exc:
        raise RetrievalError(f"{path}: cannot read the fitted channel weights ({exc}); "
                             "refit them with `python -m bench.channel_fit`") from exc
    for backend, model in weights.models.items():
        if tuple(model.features) != FEATURES or len(model.coefficients) != len(FEATURES):
            raise RetrievalError(f"{path}: the {backend} model was fitted for features {model.features}, this code "
                                 f"computes {list(FEATURES)}; refit them with `python -m bench.channel_fit`")
    return weights


def _lead(scores: np.ndarray) -> float:
    """The first score's lead over the LEAD_AT-th, over its lead over the LEAD_SPAN-th (0: no lead, 1: all of it)."""
    finite = scores[np.isfinite(scores)]
    if finite.size < 2:
        return 0.0
    span_at = min(LEAD_SPAN, finite.size)
    top = np.sort(np.partition(finite, -span_at)[-span_at:])[::-1]
    span = float(top[0] - top[-1])
    return float(top[0] - top[min(LEAD_AT, top.size) - 1]) / span if span > 0 else 0.0


def question_features(stores: CorpusStores, question: str, lexical: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """FEATURES of one question: `lexical` and `dense` are its scores over the units it may find (others -inf)."""
    index = stores.context_lexical or stores.lexical
    terms = [group[0] for group in stores.terms(question)]
    words = max(1, len(question.split()))
    held = [index.document_frequency(t) for t in terms]
    known = [df for df in held if df > 0]
    documents = max(2, len(index.unit_ids))
    rarest = math.log(documents)
    return np.array([
        sum(df == 0 for df in held) / len(terms) if terms else 0.0,
        float(np.mean([math.log(documents / df) / rarest for df in known])) if known else 0.0,
        max(0.0, 1.0 - len(terms) / words),
        math.log1p(words),
        _lead(dense),
        _lead(np.where(lexical > 0, lexical, -np.inf)) if float(lexical.max(initial=0.0)) > 0 else 0.0,
        float(bool(_DIGIT.search(question))),
    ], dtype=np.float64)


def lexical_share_for(stores: CorpusStores, question: str, lexical: np.ndarray, dense: np.ndarray) -> float | None:
    """BM25's share of the fused score for this question by the model fitted for the corpus's embedding backend;
    None where none was (the fixed shares then apply)."""
    model = channel_weights().models.get(stores.embedder.backend)
    return None if model is None else model.share(question_features(stores, question, lexical, dense))


def channel_tops(provenance: dict[str, list[Provenance]], depth: int) -> list[str]:
    """The units some channel ranks within its first `depth`, best rank first."""
    best: dict[str, int] = {}
    for uid, marks in provenance.items():
        ranks = [p.rank for p in marks if p.kind in CHANNELS and p.rank is not None and p.rank <= depth]
        if ranks:
            best[uid] = min(ranks)
    return sorted(best, key=lambda uid: best[uid])


def within_reach(ranked: list[tuple[str, float]], provenance: dict[str, list[Provenance]], reach: int,
                 depth: int) -> list[tuple[str, float]]:
    """`ranked` with each channel's first `depth` hits among its first `reach`: one missing there takes the last
    places within it (at most half of them), scored as the hit it displaces, so that the order stays by score. The
    places are fixed, not the caller's k: the first k hits are the same whatever k is asked for."""
    inside = {uid for uid, _ in ranked[:reach]}
    missing = [uid for uid in channel_tops(provenance, depth) if uid not in inside][: reach // 2]
    if not missing:
        return ranked
    keep = max(0, min(len(ranked), reach) - len(missing))
    floor = ranked[keep][1] if keep < len(ranked) else (ranked[-1][1] if ranked else 0.0)
    moved = set(missing)
    rest = [(uid, score) for uid, score in ranked[keep:] if uid not in moved]
    return ranked[:keep] + [(uid, floor) for uid in missing] + rest
