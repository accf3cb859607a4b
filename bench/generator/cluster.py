"""Name each path's reasoning type from its edges and citation wording, and sample across the clusters.

The rule, first match wins (recorded per item as `reasoning_type`):
1. any AMENDS hop → amendment tracing (the reader must follow a change to what it changed);
2. any DEFINES hop → definition lookup (a term's meaning comes from another unit);
3. any DELEGATES_TO hop, or a citation introduced by compliance wording ("in accordance with",
   "pursuant to", "as required by", "comply with", …) → procedural synthesis (what to do is spread
   over the chain);
4. otherwise → cross-reference resolution (the cited unit's content completes the citing one).
"""
from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from bench.generator.models import GraphPath, ReasoningType
from core.domain import EdgeType

PROCEDURAL_CUE = re.compile(
    r"in accordance with|pursuant to|as required by|required (?:by|under)|compl(?:y|ies|iance) with|"
    r"procedures? (?:in|of|under|set out)|follow(?:ing)? the|requirements? (?:of|in|under)|"
    r"as prescribed|in the manner",
    re.IGNORECASE,
)


def reasoning_type(path: GraphPath) -> ReasoningType:
    types = {EdgeType(h.type) for h in path.hops}
    if EdgeType.AMENDS in types:
        return ReasoningType.AMENDMENT_TRACING
    if EdgeType.DEFINES in types:
        return ReasoningType.DEFINITION_LOOKUP
    if EdgeType.DELEGATES_TO in types or any(PROCEDURAL_CUE.search(h.cue) for h in path.hops):
        return ReasoningType.PROCEDURAL_SYNTHESIS
    return ReasoningType.CROSS_REFERENCE_RESOLUTION


def clustered(paths: Iterable[GraphPath]) -> dict[ReasoningType, list[GraphPath]]:
    clusters: dict[ReasoningType, list[GraphPath]] = defaultdict(list)
    for path in paths:
        clusters[reasoning_type(path)].append(path)
    return dict(clusters)


def sampling_order(clusters: dict[ReasoningType, list[GraphPath]], seed: int) -> list[tuple[ReasoningType, GraphPath]]:
    """Round-robin over clusters, and within a cluster over hop counts, cross-document paths first.

    The caller takes from the front until it has enough verified items, so every cluster and hop
    count is represented as far as the corpus allows instead of mirroring the graph's skew (inferred
    DEFINES edges outnumber everything else).
    """
    rng = random.Random(seed)
    queues: dict[ReasoningType, list[GraphPath]] = {}
    for rtype in sorted(clusters):
        by_hops: dict[int, list[GraphPath]] = defaultdict(list)
        for path in clusters[rtype]:
            by_hops[path.hop_count].append(path)
        for bucket in by_hops.values():
            rng.shuffle(bucket)
            # Stable sort after the shuffle: more documents first, ties in seeded random order.
            bucket.sort(key=lambda p: -min(p.documents, 3))
        queues[rtype] = list(_interleave([by_hops[h] for h in sorted(by_hops)]))
    return [(rtype, path) for rtype, path in _interleave_named(queues)]


def _interleave(lists: list[list]) -> Iterable:
    for i in range(max((len(x) for x in lists), default=0)):
        for items in lists:
            if i < len(items):
                yield items[i]


def _interleave_named(queues: dict[ReasoningType, list[GraphPath]]) -> Iterable[tuple[ReasoningType, GraphPath]]:
    names = list(queues)
    return _interleave([[(name, p) for p in queues[name]] for name in names])


def distribution(types: Iterable[str], hops: Iterable[int]) -> dict[str, dict[str, int]]:
    return {
        "reasoning_type": dict(sorted(Counter(types).items())),
        "hop_count": {str(k): v for k, v in sorted(Counter(hops).items())},
    }
