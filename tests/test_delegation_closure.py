"""The delegation closure: a strong hit brings the decree / rules article that specifies it, right under it."""
from __future__ import annotations

from pathlib import Path

from core.retrieval.base import RetrievalRequest
from core.retrieval.config import RetrievalConfig
from core.retrieval.registry import get_retriever
from core.settings import Settings
from ingest.pipeline import run_ingest
from tests.test_korean_citations import ACT, DECREE, RULES

QUESTION = "신고는 어떤 방법으로 해야 하나요?"  # the act's 제5조제1항; the form itself is in the rules (별표 1)


def test_a_strong_hit_brings_its_delegated_detail_and_the_act_above_it(tmp_path: Path, test_settings: Settings,
                                                                       neo4j_driver):
    for name, text in (("act.md", ACT), ("decree.md", DECREE), ("rules.md", RULES)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    summary = run_ingest([tmp_path], "closure", test_settings, quiet=True)
    assert not summary.failures and summary.edges_by_type.get("SPECIFIES", 0) >= 2

    def ranked(config: RetrievalConfig) -> list[str]:
        retriever = get_retriever("citewalk", test_settings, config)
        return [h.unit_id for h in retriever.retrieve(RetrievalRequest(question=QUESTION, corpus="closure", k=5)).hits]

    # The fusion weight is fixed here: this checks where the closure places a partner, on a three-file fixture
    # whose plain ranking (the act article first) holds at this weight whatever the shipped default becomes.
    plain = ranked(RetrievalConfig(closure_seeds=0, pair_bonus=0, e5_lexical_weight=0.7))
    closed = ranked(RetrievalConfig(pair_bonus=0, e5_lexical_weight=0.7))
    assert plain[0] == closed[0] == "closure/act/art-5", (plain, closed)  # 제5조 (신고)
    rules = [u for u in closed if u.startswith("closure/rules/art-1")]
    assert rules and not [u for u in plain if u.startswith("closure/rules/")], (plain, closed)
    # The partner (시행규칙 제1조: "제5조제1항에서 … 별표 1과 같다") is placed right under its seed.
    assert closed.index(rules[0]) == 1, closed
    assert len(closed) == len(set(closed))
