"""Citewalk, the default: score-fused BM25 + dense first stage, then citation-pair co-occurrence.

A score fusion beats rank fusion here; BM25's share in it is weighed per question (channels.py), and each
channel's first hits may be kept within the hits the answerer reads (`channel_pool`, off by default). A top
seed's citation neighbour that is relevant on its own is placed right under the seed (pairs.py), so a
cross-reference pair co-occurs while the flat top ranks stay put. Containment is left out of expansion. Measured
in bench/results/TRIED.md.
"""
from __future__ import annotations

import numpy as np

from core.analyzers import language_of
from core.retrieval.articles import one_per_article
from core.retrieval.channels import within_reach
from core.retrieval.delegation import delegation_closure
from core.retrieval.expansion import with_current_versions
from core.retrieval.fusion import rrm, top_indices
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.pairs import lift_pairs, lift_siblings
from core.retrieval.query import Query
from core.retrieval.views import extract_anchor, view_scores


class CitewalkRetriever(CorpusRetriever):
    name = "citewalk"

    def first_stage_lexical(self, query: Query) -> np.ndarray:
        """The BM25 the first stage fuses: over text and ancestor headings, or the plain index."""
        return query.context_lexical if self.config.context_depth > 0 else query.lexical

    def base_scores(self, query: Query) -> np.ndarray:
        if not self.config.views:
            return query.fused(None if self.config.channel_weights else self.config.lexical_weight,
                               self.first_stage_lexical(query))
        views = view_scores(query, extract_anchor(self.settings, query), self.config.lexical_weight)
        ids = query.stores.unit_ids
        rankings = [[ids[i] for i in top_indices(s, self.config.pair_pool, query.mask)] for s in views.values()]
        out = np.zeros(len(ids), dtype=np.float32)
        for uid, score in rrm(rankings, self.config.rrf_k).items():
            out[query.stores.index[uid]] = score
        return out

    def rank(self, query: Query) -> tuple[Ranked, ProvenanceMap]:
        cfg, stores = self.config, query.stores
        query.start_embedding()
        _ = query.lexical  # read by the provenance below: scored here while the question is embedded
        base = np.where(query.mask, self.base_scores(query), -np.inf)
        order = top_indices(base, cfg.pair_pool, query.mask)
        pool = {stores.unit_ids[i]: float(base[i]) for i in order}
        provenance = query.first_stage_provenance(cfg.pool_size)
        seeds = [stores.unit_ids[i] for i in order[: cfg.pair_seeds]]
        lifted = lift_pairs(query, pool, seeds, cfg.walk_edge_types, cfg.pair_bonus, cfg.limit_per_unit, provenance)
        lifted = lift_siblings(query, pool, lifted, [stores.unit_ids[i] for i in order[: cfg.sibling_seeds]],
                               cfg.sibling_bonus)
        ranked = sorted(lifted.items(), key=lambda item: -item[1])
        language = language_of(stores.lexical.analyzer.name)
        if language in cfg.article_languages:
            ranked = one_per_article(query, ranked)
        if language in cfg.closure_languages:
            ranked = delegation_closure(query, ranked, provenance, base, cfg.closure_seeds, cfg.closure_partners,
                                        cfg.closure_hops, cfg.limit_per_unit, cfg.closure_bonus)
            if language in cfg.article_languages:
                ranked = one_per_article(query, ranked)
        if cfg.rollup:
            ranked = rolled_up(query, ranked, base)
        if cfg.current_law:
            ranked = with_current_versions(query, ranked, provenance, superseded_only=True)
        return within_reach(ranked, provenance, cfg.channel_reach, cfg.channel_pool), provenance


def rolled_up(query: Query, ranked: Ranked, base: np.ndarray) -> Ranked:
    """Replace a hit by its parent (section/rule) when the parent's own score is at least as high."""
    stores, out, seen = query.stores, [], set()
    for uid, score in ranked:
        parent = stores.units[uid].parent_id
        pick = uid
        if parent in stores.index and base[stores.index[parent]] >= base[stores.index[uid]]:
            pick = parent
        if pick not in seen:
            seen.add(pick)
            out.append((pick, score))
    return out
