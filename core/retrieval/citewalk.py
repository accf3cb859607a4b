"""Citewalk, the default: score-fused BM25 + dense first stage, then citation-pair co-occurrence.

Why this shape (measured on the ADGM dev sets, see bench/results/TRIED.md): BM25 carries most of the
signal on these corpora, so a score fusion weighted towards it beats rank fusion (RRF flattens BM25's
large margins). A cross-reference question needs a passage *and* the passage it cites; both are
individually relevant but rarely both in the flat top 10. A top seed's citation neighbour that is
relevant on its own is placed right under the seed (pairs.py), so the pair co-occurs while the flat
top ranks stay put (lifting seeds too won more Both@10 but cost ObliQA up to 0.1 Recall@10).
Containment is left out of expansion (siblings are noise on both sets); roll-up and anchor views are
options, measured as citewalk_rollup / citewalk_views.
"""
from __future__ import annotations

import numpy as np

from core.analyzers import language_of
from core.retrieval.articles import one_per_article
from core.retrieval.delegation import delegation_closure
from core.retrieval.expansion import with_current_versions
from core.retrieval.fusion import rrm, top_indices
from core.retrieval.method import CorpusRetriever, ProvenanceMap, Ranked
from core.retrieval.pairs import lift_pairs, lift_siblings
from core.retrieval.query import Query
from core.retrieval.views import extract_anchor, view_scores


class CitewalkRetriever(CorpusRetriever):
    name = "citewalk"

    def base_scores(self, query: Query) -> np.ndarray:
        lexical = query.context_lexical if self.config.context_depth > 0 else None
        if not self.config.views:
            return query.fused(self.config.lexical_weight, lexical)
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
        return ranked, provenance


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
