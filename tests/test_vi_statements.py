"""Vietnamese question sets: the "… ? Trả lời: …" statement form, and BM25 alone where the embedder cannot
read the corpus's language. Unit rules on short texts, then one tiny Vietnamese law through the real stores."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.analyzers import get_analyzer, language_of
from core.lexical import LexicalIndex
from core.retrieval.language import embedder_reads, lexical_share
from core.retrieval.statement import answer_split, with_stem
from core.settings import Settings

STATEMENT = ("Trách nhiệm của Bộ Y tế trong việc phòng, chống ma túy là gì? "
             "Trả lời: Tổ chức công tác giám định chất ma túy và tiền chất")
LAW = """Luật Phòng, chống ma túy

Điều 1. Phạm vi điều chỉnh
Luật này quy định về phòng, chống ma túy và quản lý người sử dụng trái phép chất ma túy.

Điều 2. Trách nhiệm của Bộ Công an
1. Ban hành văn bản quy phạm pháp luật về phòng, chống ma túy.

2. Tổ chức công tác giám định chất ma túy và tiền chất.

Điều 3. Trách nhiệm của Bộ Y tế
1. Ban hành văn bản quy phạm pháp luật về phòng, chống ma túy.

2. Thống kê người đang tham gia điều trị nghiện các chất dạng thuốc phiện bằng thuốc thay thế.

Điều 4. Trách nhiệm của Bộ Quốc phòng
1. Ban hành văn bản quy phạm pháp luật về phòng, chống ma túy.

2. Tổ chức thực hiện kế hoạch phòng, chống ma túy ở khu vực biên giới.
"""


def test_an_answer_marker_splits_the_statement_into_stem_and_option():
    assert answer_split(STATEMENT) == ("Trách nhiệm của Bộ Y tế trong việc phòng, chống ma túy là gì?",
                                       "Tổ chức công tác giám định chất ma túy và tiền chất")
    assert answer_split("Quyền của nhà giáo là gì? đáp án: Được giảng dạy") == ("Quyền của nhà giáo là gì?",
                                                                                "Được giảng dạy")


@pytest.mark.parametrize("text", [
    "Viên chức bị khiển trách thì thời hạn nâng lương bị kéo dài 03 tháng",  # a plain statement
    "Trả lời: Cai nghiện ma túy tự nguyện",  # no stem
    "Các biện pháp cai nghiện ma túy là gì? Trả lời:  ",  # no option
    "A covered entity must answer: within 30 days",  # English text is left alone
])
def test_a_statement_without_both_sides_is_not_split(text):
    assert answer_split(text) is None


def test_the_stem_lifts_the_article_it_names_over_a_quoted_distractor():
    # Clauses as the default method indexes them: text plus the article's heading.
    duty = "Ban hành văn bản quy phạm pháp luật về phòng, chống ma túy."
    clauses = {"art-1": "Phạm vi điều chỉnh. Luật này quy định về phòng, chống ma túy.",
               "ca-1": f"Trách nhiệm của Bộ Công an. {duty}",
               "ca-2": "Trách nhiệm của Bộ Công an. Tổ chức công tác giám định chất ma túy và tiền chất.",
               "yt": f"Trách nhiệm của Bộ Y tế. {duty}",
               "qp": f"Trách nhiệm của Bộ Quốc phòng. {duty}"}
    ids, texts = list(clauses), list(clauses.values())
    index = LexicalIndex.build(ids, texts, analyzer=get_analyzer("vi-pyvi"))
    whole = index.scores(STATEMENT)
    assert ids[int(np.argmax(whole))] == "ca-2"  # the option is Bộ Công an's clause word for word
    stem, _ = answer_split(STATEMENT)
    lifted = with_stem(whole, index.scores(stem))
    assert ids[int(np.argmax(lifted))] == "yt"
    assert lifted.max() <= 1.0 and lifted.dtype == np.float32
    # Both lists count: the quoted clause still outranks articles that match neither.
    assert lifted[ids.index("ca-2")] > lifted[ids.index("qp")]


def test_the_packaged_embedder_reads_english_only():
    packaged, own = Settings(), Settings(embedding_model="/models/multilingual-e5-small")
    assert [language_of(n) for n in ("en", "vi-pyvi", "vi-underthesea/words", "ko-kiwi")] == ["en", "vi", "vi", "ko"]
    assert embedder_reads(packaged, "en") and not embedder_reads(packaged, "vi-pyvi")
    assert not embedder_reads(packaged, "ko-kiwi")
    assert embedder_reads(own, "vi-pyvi")  # a model the user set was chosen for the corpus
    assert lexical_share(packaged, "en", 0.7) == 0.7
    assert lexical_share(packaged, "vi-pyvi", 0.7) == 1.0
    assert lexical_share(own, "vi-pyvi", 0.7) == 0.7
    assert lexical_share(packaged, "vi-pyvi", 0.7, unread_weight=0.9) == 0.9


@pytest.fixture(scope="module")
def vi_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    from ingest.pipeline import run_ingest

    folder: Path = tmp_path_factory.mktemp("vi-law")
    (folder / "Luat-Ma-tuy-mau.txt").write_text(LAW, encoding="utf-8")
    summary = run_ingest([folder], "vi-stmt", test_settings, forced_format="generic", quiet=True)
    assert not summary.failures, summary.failures
    return "vi-stmt"


def test_the_default_method_on_a_vietnamese_corpus(vi_corpus: str, test_settings: Settings):
    from core.retrieval.base import RetrievalRequest
    from core.retrieval.query import Query
    from core.retrieval.registry import get_retriever
    from core.retrieval.reload import open_stores

    stores = open_stores(test_settings, vi_corpus)
    assert stores.lexical.analyzer.name == "vi-pyvi"
    query = Query(stores, RetrievalRequest(question=STATEMENT, corpus=vi_corpus))
    # A Vietnamese corpus is read by e5, and its cosine enters with the e5 share whatever weight the caller asks.
    assert stores.embedder.backend == "e5"
    assert np.allclose(query.fused(0.7), query.fused(1.0))
    assert not np.allclose(query.fused(0.7), query.fused(0.7, dense=-query.dense))
    hits = get_retriever("citewalk", test_settings).retrieve(RetrievalRequest(question=STATEMENT, corpus=vi_corpus)).hits
    first_article = next(h.label for h in hits if "Điều" in h.label)
    assert first_article.split(" khoản")[0].endswith("Điều 3"), [h.label for h in hits[:5]]
    plain = get_retriever("bm25", test_settings).retrieve(RetrievalRequest(question=STATEMENT, corpus=vi_corpus)).hits
    assert "Điều 2" in plain[0].label  # the BM25 baseline keeps the plain statement: the quoted clause first


def test_the_alqac_check_counts_only_a_run_that_holds_both_baselines(tmp_path: Path, monkeypatch):
    import json

    from bench.real import vi

    def checks(methods: dict) -> list:
        path = tmp_path / "run.json"
        path.write_text(json.dumps({"methods": methods}))
        monkeypatch.setattr(vi, "RETRIEVAL_RESULT", path)
        return vi.retrieval_checks()

    good = {"Recall@10": 0.9737, "Hit@1": 0.92}
    assert [c.ok for c in checks({"bm25": good, "dense": good, "citewalk": good})] == [True, True]
    assert [c.ok for c in checks({"citewalk": good})] == [False, False]
    assert [c.ok for c in checks({"bm25": good, "dense": good, "citewalk": {"Recall@10": 0.96, "Hit@1": 0.9}})] == [
        False, True]
