"""Query views (RefWalk): narrow = the question, wide = its topic anchor, mid = both; each scored corpus-wide."""
from __future__ import annotations

import time
import weakref

import numpy as np

from core.retrieval.anchor import LLMAnchorExtractor, RuleAnchorExtractor, TopicAnchor, anchor_extractor
from core.retrieval.query import Query
from core.settings import Settings

_EXTRACTORS: dict[tuple[int, str], RuleAnchorExtractor | LLMAnchorExtractor] = {}


def extractor_for(settings: Settings, query: Query) -> RuleAnchorExtractor | LLMAnchorExtractor:
    """One extractor per corpus stores, seeded with the corpus's defined terms."""
    key = (id(query.stores), settings.llm_model)
    if key not in _EXTRACTORS:
        terms = query.stores.units.titles_of_type("definition")
        _EXTRACTORS[key] = anchor_extractor(settings, terms)
        # The entry goes with its stores: a reload frees the set it replaced, and a new one may reuse its address.
        weakref.finalize(query.stores, _EXTRACTORS.pop, key, None)
    return _EXTRACTORS[key]


def view_scores(query: Query, anchor: TopicAnchor, lexical_weight: float) -> dict[str, np.ndarray]:
    started = time.perf_counter()
    wide = anchor.text() or query.request.question
    mid = f"{query.request.question} {wide}"
    vectors = query.stores.embed([wide, mid])
    query.timed("views", started)
    out = {"narrow": query.fused(lexical_weight)}
    for name, text, vector in (("wide", wide, vectors[0]), ("mid", mid, vectors[1])):
        out[name] = query.fused(lexical_weight, query.stores.lexical_scores(text), query.stores.dense_scores(vector))
    return out


def extract_anchor(settings: Settings, query: Query) -> TopicAnchor:
    started = time.perf_counter()
    anchor = extractor_for(settings, query).extract(query.request.question)
    query.timed("anchor", started)
    return anchor
