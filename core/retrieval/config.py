"""Every retrieval knob with the method's default; environment variables CITEWALK_RETRIEVAL_<NAME> override."""
from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.domain import EdgeType


class RetrievalConfig(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CITEWALK_RETRIEVAL_", extra="ignore")

    # First stage.
    pool_size: int = Field(default=50, ge=1, description="N: candidates each first-stage list contributes")
    rrf_k: int = Field(default=60, ge=1, description="k of Reciprocal Rank Fusion / Reciprocal Rank MAX")
    lexical_weight: float = Field(default=0.7, ge=0, le=1, description="share of BM25 in the score fusion")
    unread_lexical_weight: float = Field(default=1.0, ge=0, le=1, description=(
        "share of BM25 where the embedder cannot read the corpus's language (language.py)"))
    e5_lexical_weight: float = Field(default=0.85, ge=0, le=1, description=(
        "share of BM25 on a corpus indexed by e5 (Korean, Vietnamese; language.py)"))
    # Off: with the per-question shares GDPR user dev's R@10 rises 0.587 -> 0.689 and HIPAA generated's answers
    # 0.856/0.583 -> 0.869/0.605, but GDPR user dev's answers fall 0.711/0.652 -> 0.607/0.552 (the chooser was fitted
    # on the fixed shares' seeds; bench.regress, 2026-12-06, bench/results/RESULTS.md): a user-typed set must not lose.
    channel_weights: bool = Field(default=False, description=(
        "the default method weighs BM25 and cosine per question by the fitted channel model (channels.py); "
        "False: by the fixed lexical_weight / e5_lexical_weight"))
    # Off: with each channel's first 3 kept within the 48, the English sets' answers and R@10 were the same as without
    # (ObliQA R@48 0.874 -> 0.867) and Vietnamese user dev lost a question (P/R 0.690/0.672 -> 0.655/0.638, R@48
    # 0.862 -> 0.828): the per-question weights already bring the cosine's first hits up (issue 49, bench.channel_fit).
    channel_pool: int = Field(default=0, ge=0, description=(
        "each channel's (BM25's, the cosine's) first this many hits are always among the default method's first "
        "channel_reach (channels.py): no channel's best can be crowded out by the other's"))
    channel_reach: int = Field(default=48, ge=1, description=(
        "where the channels' first hits are kept: the hits the extractive answer's search reads (8 seeds and 40 "
        "below them, core.answer.tools)"))
    stem_share: float = Field(default=0.5, ge=0, le=1, description=(
        "weight of a '… ? Trả lời: …' statement's stem beside the whole statement (statement.py)"))
    dense_windows: int = Field(default=4, ge=1, description="vector hits fetched per wanted unit (windows repeat units)")

    # ViHERMES graph expansion.
    graph_seeds: int = Field(default=5, ge=1, description="k: vector/hybrid hits expanded")
    max_hops: int = Field(default=2, ge=0, le=4)
    node_cap: int = Field(default=20, ge=1, description="most units graph expansion may add")
    graph_edge_types: list[EdgeType] = Field(
        default=[EdgeType.REFERENCES, EdgeType.AMENDS, EdgeType.REPLACES, EdgeType.CONTAINS]
    )
    references_hops: int = Field(default=1, ge=0, description="REFERENCES is followed this many hops at most")
    amendment_hops: int = Field(default=10, ge=0, description="AMENDS/REPLACES chains are followed to the end")
    semantic_weight: float = Field(default=0.7, ge=0, le=1, description="0.7·semantic + 0.3·1/(1+distance)")

    # RefWalk.
    seeds: int = Field(default=10, ge=1, description="M: top pool units expanded one hop")
    walk_edge_types: list[EdgeType] = Field(
        default=[EdgeType.REFERENCES, EdgeType.DELEGATES_TO, EdgeType.SPECIFIES, EdgeType.DEFINES]
    )
    decay: float = Field(default=0.7, ge=0, le=1, description="δ: a neighbour's score is its seed's × δ")
    authority_decay: float = Field(default=0.7, ge=0, le=1, description="μ: multiplier for tier ≥ 2 units")
    limit_per_unit: int = Field(default=30, ge=1, description="edges read per expanded unit (hub guard)")

    # Citewalk (default): a unit whose cited/citing neighbour is also relevant is lifted with it.
    pair_bonus: float = Field(default=0.5, ge=0, description="λ: partner v of seed u rises to s(v) + λ·s(u), below u")
    pair_seeds: int = Field(default=5, ge=0, description="top units whose citation neighbours are read")
    pair_pool: int = Field(default=300, ge=1, description="a partner must rank within this many flat hits")
    context_depth: int = Field(default=2, ge=0, description="ancestor headings indexed with a unit's text (0: plain BM25)")
    sibling_seeds: int = Field(default=0, ge=0, description="top units whose adjacent siblings may rise under them")
    sibling_bonus: float = Field(default=0.3, ge=0, description="λ for an adjacent sibling (same parent, next/previous)")
    closure_seeds: int = Field(default=5, ge=0, description="top hits whose delegation partners join (delegation.py)")
    closure_partners: int = Field(default=2, ge=0, description="delegation partner articles placed under each such hit")
    closure_bonus: float = Field(default=0.25, ge=0, description=(
        "λ: a delegation partner v of hit u rises to s(v) + λ·s(u), below u"))
    closure_hops: int = Field(default=2, ge=0, description="DELEGATES_TO/SPECIFIES hops: act → decree → rules")
    # Measured on the Korean and Vietnamese dev sets; the English ones (ADGM holds 61 DELEGATES_TO edges) were not
    # re-measured with it, so an English corpus ranks as before until they are (bench/results/TRIED.md).
    closure_languages: list[str] = Field(default=["ko", "vi"], description="corpus languages the closure runs on")
    # Off: ko_dev retrieval gains 0.02 FullCov@10 with it, but the extractive answers choose among several clauses of
    # the best article and lose more (ALQAC P/R 0.921/0.934 -> 0.862/0.882; bench/results/TRIED.md, issue 25).
    article_languages: list[str] = Field(default=[], description=(
        "corpus languages whose top k holds one unit per article (articles.py)"))
    views: bool = Field(default=False, description="add the anchor views (RRM) to the default method")
    rollup: bool = Field(default=False, description="roll paragraph hits up to their parent when it scores better")

    # One question is a batch of one: a single torch thread is faster than two fighting on 2 cores.
    query_threads: int = Field(default=1, ge=1)

    # Status: "current law" follows AMENDS/REPLACES to the latest version.
    current_law: bool = True
