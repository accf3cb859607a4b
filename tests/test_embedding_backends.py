"""The embedding backend is chosen per corpus by its language; e5 embeds with its prefixes, reads each article once,
and keeps its vectors apart from MiniLM's in the shared cache and in the stores."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.domain import Document, LegalUnit, UnitType
from core.embeddings import E5, SENTENCE_TRANSFORMERS, Embedder, EmbeddingModelError, backend_for, get_embedder
from core.settings import Settings
from ingest.reading import vector_plan

RECORDS = "의료기관의 장은 진료기록부를 10년간 보존하여야 한다."


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return get_embedder(Settings(), E5)


def test_the_backend_follows_the_corpus_language_unless_a_setting_names_one():
    auto = Settings()
    assert backend_for(auto, "en") == SENTENCE_TRANSFORMERS
    assert backend_for(auto, "ko") == E5 and backend_for(auto, "vi") == E5
    assert backend_for(Settings(embedding_backend="sentence-transformers"), "ko") == SENTENCE_TRANSFORMERS
    assert backend_for(Settings(embedding_backend="e5"), "en") == E5
    # A model the user names was chosen for their corpus, whatever its language.
    assert backend_for(Settings(embedding_model="/models/my-korean-sbert"), "ko") == SENTENCE_TRANSFORMERS
    with pytest.raises(ValueError, match="CITEWALK_EMBEDDING_BACKEND"):
        Settings(embedding_backend="bert")
    with pytest.raises(EmbeddingModelError, match="unknown embedding backend"):
        get_embedder(Settings(), "bert")


def test_questions_get_the_query_prefix_and_passages_the_passage_prefix(e5: Embedder):
    engine = e5.model  # type: ignore[attr-defined]
    question = "진료기록은 몇 년 동안 보관해야 하나요?"
    assert np.allclose(e5.embed_query(question), engine.encode(question, is_query=True), atol=1e-6)
    assert np.allclose(e5.embed([RECORDS])[0], engine.encode(RECORDS, is_query=False), atol=1e-6)
    assert not np.allclose(e5.embed_query(RECORDS), e5.embed([RECORDS])[0], atol=1e-3)
    vectors = e5.embed([RECORDS, "근로자는 15일의 유급휴가를 받는다."])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors.shape == (2, 384)
    assert float(vectors[0] @ e5.embed_query(question)) > float(vectors[1] @ e5.embed_query(question))


def test_e5_vectors_are_cached_apart_from_minilm_and_reused(e5: Embedder, tmp_path: Path, monkeypatch):
    settings = Settings(cache_dir=tmp_path)
    # The worker's loaded MiniLM (its ONNX export lives in the real cache folder); only the vector cache is here.
    minilm = get_embedder(Settings(), SENTENCE_TRANSFORMERS)
    e5_cache, minilm_cache = e5.cache_for(settings), minilm.cache_for(settings)
    assert e5_cache is not None and minilm_cache is not None and e5_cache.path != minilm_cache.path
    fresh = e5.embed([RECORDS], cache=e5_cache)
    assert minilm_cache.lookup([RECORDS]) == {}  # never read by the other model
    encoded: list[list[str]] = []
    original = e5._encode

    def counting(texts: list[str], progress: bool) -> np.ndarray:
        encoded.append(texts)
        return original(texts, progress)

    monkeypatch.setattr(e5, "_encode", counting)
    again = e5.embed([RECORDS, "새 문장", RECORDS], cache=e5_cache)
    assert encoded == [["새 문장"]]  # the cached text is read back, the repeated one embedded once
    assert np.allclose(again[0], fresh[0], atol=1e-6) and np.allclose(again[2], fresh[0], atol=1e-6)


def _unit(uid: str, kind: UnitType, text: str, parent: str | None) -> LegalUnit:
    return LegalUnit(id=uid, corpus="c", document_id="d", type=kind, label=uid, text=text, parent_id=parent)


def test_e5_reads_each_article_once_and_its_paragraphs_share_it(e5: Embedder):
    units = [_unit("d", UnitType.DOCUMENT, "의료법", None), _unit("s1", UnitType.SECTION, "제1절 기록", "d"),
             _unit("a1", UnitType.ARTICLE, "제22조(진료기록부등)", "s1"), _unit("a1/1", UnitType.PARAGRAPH, "① 기록한다.", "a1"),
             _unit("a1/1/1", UnitType.POINT, "1. 진료 내용", "a1/1"), _unit("a2", UnitType.ARTICLE, "제23조 " + RECORDS, "s1")]
    plan = {unit.id: window for unit, window in vector_plan(Document(id="d", corpus="c", title="의료법",
                                                                         source_path="x", units=units), e5)}
    assert plan["a1"].text == plan["a1/1"].text == plan["a1/1/1"].text  # one reading of the whole article
    assert "① 기록한다." in plan["a1"].text and "1. 진료 내용" in plan["a1"].text
    assert plan["s1"].text == "s1 \n제1절 기록"  # a section holding articles is a heading, not an article
    assert [w.vector_id for w in plan.values()] == list(plan)  # one vector per unit, under the unit's id
    long = vector_plan(Document(id="d", corpus="c", title="t", source_path="x",
                                units=[_unit("a", UnitType.ARTICLE, "가" * 5000, None)]), e5)
    assert len(long[0][1].text) == Settings().e5_passage_chars


KOREAN_ACT = """# 기록보존법

제1조(목적) 이 법은 의료기관의 기록 보존에 관한 사항을 규정한다.

제2조(진료기록의 보존) ① 의료기관의 장은 진료기록부를 10년간 보존하여야 한다.
② 보존의 방법은 보건복지부령으로 정한다.

제3조(유급휴가) 사용자는 1년간 80퍼센트 이상 출근한 근로자에게 15일의 유급휴가를 주어야 한다.
"""


def test_a_korean_corpus_is_indexed_and_searched_by_e5(tmp_path: Path, test_settings: Settings, neo4j_driver,
                                                      chroma_client):
    from core.retrieval.base import RetrievalRequest
    from core.retrieval.registry import get_retriever
    from core.stores import chroma_store
    from ingest.pipeline import run_ingest

    (tmp_path / "act.md").write_text(KOREAN_ACT, encoding="utf-8")
    summary = run_ingest([tmp_path], "ko-e5", test_settings, quiet=True)
    assert not summary.failures and summary.vectors_embedded > 0
    got = chroma_store.collection(chroma_client, "ko-e5").get(include=["metadatas"])
    assert {(m or {}).get("backend") for m in got["metadatas"] or []} == {E5}
    retriever = get_retriever("dense", test_settings)
    result = retriever.retrieve(RetrievalRequest(question="진료 기록은 몇 년 동안 보관해야 하나요?", corpus="ko-e5", k=3))
    stores = retriever.corpus_stores("ko-e5")
    assert stores is not None and stores.embedder.backend == E5
    assert "제2조" in stores.units[result.hits[0].unit_id].label, result.hits  # the article or a paragraph of it

    # The same corpus re-indexed with MiniLM gets every vector anew; none of e5's is kept or read.
    english = test_settings.model_copy(update={"embedding_backend": SENTENCE_TRANSFORMERS})
    again = run_ingest([tmp_path], "ko-e5", english, quiet=True)
    assert again.vectors_embedded == len(got["ids"]) > 0
    got = chroma_store.collection(chroma_client, "ko-e5").get(include=["metadatas"])
    assert {(m or {}).get("backend") for m in got["metadatas"] or []} == {SENTENCE_TRANSFORMERS}


def test_the_in_context_reading_of_a_korean_corpus_uses_e5(e5: Embedder, tmp_path: Path):
    from core.answer.soft_match import TextReader, TokenReader, reader_for, soft_match

    assert isinstance(reader_for(e5), TextReader)
    assert isinstance(reader_for(get_embedder(Settings(), SENTENCE_TRANSFORMERS)), TokenReader)
    reader = reader_for(e5, lambda: e5.cache_for(Settings(cache_dir=tmp_path)))
    match = soft_match(reader, "아르바이트생도 연차휴가를 받을 수 있나요?", {
        "leave": "사용자는 1년간 80퍼센트 이상 출근한 근로자에게 15일의 유급휴가를 주어야 한다. 단시간근로자에게도 적용한다.",
        "records": RECORDS,
    })
    assert match.cover("leave") > match.cover("records")


def test_a_vector_match_reads_the_units_stored_vectors_per_question_and_clause():
    from core.answer.soft_match import vector_match

    q, c1, c2 = np.eye(3)
    units = {"a": np.array([0.6, 0.8, 0.0]), "b": np.array([0.6, 0.0, 0.8])}
    match = vector_match([q, c1, c2], units)
    assert match.cover("a") == pytest.approx(0.6) and match.cover("a", "b") == pytest.approx(0.6)
    assert match.clause_cover == {"a": [pytest.approx(0.8), 0.0], "b": [0.0, pytest.approx(0.8)]}
    assert match.split("a", "b") == pytest.approx(0.8)
    assert vector_match([q, c1], units).clause_cover == {"a": [], "b": []}  # one clause is no split


def test_each_model_reads_off_topic_questions_on_its_own_scale(e5: Embedder):
    """e5's cosines sit near 0.85 for any question, MiniLM's near 0.3: one line for both would make e5 corpora
    never decline (or MiniLM's always); a model nobody calibrated gets none rather than another model's."""
    from core.embeddings.sentence import model_path

    minilm = get_embedder(Settings(), SENTENCE_TRANSFORMERS)
    assert e5.far_neighbourhood is not None and minilm.far_neighbourhood is not None
    assert e5.far_neighbourhood > 0.8 > 0.5 > minilm.far_neighbourhood > 0.2
    named = get_embedder(Settings(embedding_model=model_path(Settings())), SENTENCE_TRANSFORMERS)
    assert named.far_neighbourhood is None
    # The answer's weights were fitted on MiniLM's scale: its cosines are read as they are, e5's stretched (about
    # five times: 0.69 of MiniLM's range against 0.14 of e5's), an uncalibrated model's as they are.
    assert minilm.cosine_stretch == 1.0 and named.cosine_stretch == 1.0
    assert 4 < e5.cosine_stretch < 6
