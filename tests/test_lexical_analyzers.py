"""Lexical analyzers: English unchanged, Vietnamese word segmentation, Korean morphemes, per-corpus choice."""
from __future__ import annotations

import unicodedata

import numpy as np
import pytest

from core.analyzers import choose_analyzer, detect_language, get_analyzer
from core.lexical import LexicalIndex, tokenize

VI_UNITS = [
    "Điều 2. Viên chức là công dân Việt Nam được tuyển dụng theo vị trí việc làm.",
    "Điều 3. Nhân viên y tế phải có chứng chỉ hành nghề.",
    "Điều 49. Trách nhiệm của Bộ Y tế",
]


def test_english_terms_are_the_stemmed_words_as_before():
    # The HIPAA/ADGM indexes depend on these exact terms.
    assert tokenize("The covered entities must comply with 164.508(a)(2) and Rule 3.8.1.") == [
        "cover", "entiti", "compli", "164.508(a)(2)", "rule", "3.8.1"]
    assert get_analyzer("en").tokenize("The covered entities") == ["cover", "entiti"]


def test_the_pronoun_i_is_no_roman_numeral_but_a_numbered_heading_keeps_its_i():
    # "I live in Spain" matched every unit that lists points (i), (ii) ... by the term "i".
    assert tokenize("I live in Spain and I'm asking: can I complain?") == ["live", "spain", "ask", "can", "complain"]
    assert tokenize("Annex I and point (i); Chapter I, Title I") == ["annex", "i", "point", "i", "chapter", "i", "titl", "i"]
    units = ["The controller shall (i) inform the data subject; (ii) keep records.",
             "A data subject who lives in one Member State may lodge a complaint there."]
    scores = LexicalIndex.build(["a", "b"], units).scores("I live in Spain: can I complain?")
    assert scores[0] == 0.0 and scores[1] > 0


def test_language_is_detected_from_the_script():
    assert detect_language(VI_UNITS) == "vi"
    assert detect_language(["제1조(목적) 이 법은 의료에 관한 사항을 규정한다."]) == "ko"
    assert detect_language(["A covered entity may disclose protected health information to Việt Nam."]) == "en"
    assert detect_language([]) == "en"


def test_auto_picks_the_language_default_and_a_setting_overrides_it():
    assert choose_analyzer("auto", VI_UNITS).name == "vi-pyvi"
    assert choose_analyzer("en", VI_UNITS).name == "en"
    assert choose_analyzer("vi-underthesea/words", ["x"]).name == "vi-underthesea/words"
    with pytest.raises(ValueError, match="unknown lexical analyzer 'fr'"):
        get_analyzer("fr")
    with pytest.raises(ValueError, match="feature"):
        get_analyzer("vi-pyvi/trigrams")


@pytest.mark.parametrize("name", ["vi-pyvi", "vi-underthesea"])
def test_vietnamese_words_are_segmented_and_paired(name):
    terms = get_analyzer(name).tokenize("Trách nhiệm của Bộ Y tế")
    assert terms == ["trách_nhiệm", "bộ", "y_tế", "trách_nhiệm+bộ", "bộ+y_tế"]  # "của" is a stop word


def test_vietnamese_features_and_unicode_forms():
    assert get_analyzer("vi-pyvi/words").tokenize("Trách nhiệm của Bộ Y tế") == ["trách_nhiệm", "bộ", "y_tế"]
    assert "trách" in get_analyzer("vi-pyvi/syllables").tokenize("Trách nhiệm")
    assert get_analyzer("vi-syllable/words").tokenize("Bộ Y tế") == ["bộ", "y", "tế"]
    decomposed = unicodedata.normalize("NFD", "Trách nhiệm của Bộ Y tế")
    assert get_analyzer("vi").tokenize(decomposed) == get_analyzer("vi").tokenize("Trách nhiệm của Bộ Y tế")


def test_segmented_index_does_not_match_a_syllable_of_another_word():
    ids = ["vc", "nv", "byt"]
    words = LexicalIndex.build(ids, VI_UNITS, analyzer=get_analyzer("vi-pyvi"))
    syllables = LexicalIndex.build(ids, VI_UNITS, analyzer=get_analyzer("vi-syllable/words"))
    assert words.search("viên chức", 3)[0][0] == "vc"
    assert words.scores("viên chức")[1] == 0  # "nhân viên" is another word
    assert syllables.scores("viên chức")[1] > 0  # which syllable BM25 cannot tell
    assert words.search("trách nhiệm của Bộ Y tế", 1)[0][0] == "byt"


def test_korean_morphemes_drop_particles_and_mark_stems():
    analyzer = get_analyzer("ko")
    assert analyzer.name == "ko-kiwi"
    with_object = analyzer.tokenize("의료기관을 개설하려는 자")
    with_genitive = analyzer.tokenize("의료기관의 개설")
    assert {"의료", "기관", "개설"} <= set(with_object) & set(with_genitive)
    assert "을" not in with_object and "의" not in with_genitive
    assert "정하/V" in analyzer.tokenize("대통령령으로 정하는 경우")


def test_a_korean_compound_noun_is_also_indexed_by_its_parts():
    # Kiwi keeps "세탁소" and "세탁물" whole, so a user's laundry shop and the statute's laundry shared no term.
    parts, whole = get_analyzer("ko-kiwi+parts"), get_analyzer("ko")
    assert set(parts.tokenize("세탁소에 맡기면")) & set(parts.tokenize("세탁물을 처리하는 자")) == {"세탁/p"}
    assert not set(whole.tokenize("세탁소에 맡기면")) & set(whole.tokenize("세탁물을 처리하는 자"))
    assert parts.groups("입원실 침대") == [("입원실", "입원"), ("침대",)]
    # Two syllables are no compound, a reading with a particle is no part ("전문의" is no "전문" + "의"), and a
    # loanword is no compound ("시스템" is no "시" + "스템").
    assert parts.groups("병원 전문의 시스템") == [("병원",), ("전문의",), ("시스템",)]
    # The default analyzer keeps compounds whole, and an index saved with it is read the way it was cut.
    assert whole.name == "ko-kiwi" and whole.tokenize("세탁물") == ["세탁물"]


KO_UNITS = ["의료기관은 세탁물을 세탁물 처리업자에게 맡긴다", "세탁 방법을 정한다", "간호사의 업무", "전자의무기록을 보존한다"]


def test_words_written_alike_score_as_without_parts_and_parts_only_where_a_word_is_not_written():
    parts = LexicalIndex.build(["laundry", "wash", "nurse", "record"], KO_UNITS, analyzer=get_analyzer("ko-kiwi+parts"))
    whole = LexicalIndex.build(["laundry", "wash", "nurse", "record"], KO_UNITS, analyzer=get_analyzer("ko-kiwi"))
    # A unit that writes the question's words scores as in the index without parts; parts only add where a word
    # is not written ("wash" writes "세탁", a part of "세탁물").
    for question, unit in (("세탁물 처리", 0), ("간호사의 업무", 2), ("전자의무기록 보존", 3)):
        with_parts, without = parts.scores(question), whole.scores(question)
        assert without[unit] > 0 and with_parts[unit] == pytest.approx(without[unit])
        assert (with_parts >= without - 1e-6).all()
    assert parts.scores("세탁물 처리")[1] > 0 == whole.scores("세탁물 처리")[1]
    # The shop's "세탁소" and the word "세탁" reach the statute's "세탁물" by its part; the unit that writes "세탁"
    # keeps its own match.
    shop = parts.scores("세탁소")
    assert shop[0] > 0 and shop[1] == pytest.approx(whole.scores("세탁")[1]) and shop[2] == shop[3] == 0
    assert parts.scores("세탁")[0] > 0 == whole.scores("세탁")[0]
    assert parts.search("세탁소", 2)[0][0] in {"laundry", "wash"}


def test_a_compound_matched_by_its_parts_weighs_as_one_word():
    index = LexicalIndex.build(["record", "other"], ["진료 기록을 보존한다", "간호사의 업무"],
                               analyzer=get_analyzer("ko-kiwi+parts"))
    # "전자의무기록" is not written: a unit holding all its parts (전자, 의무, 기록) scores their mean, not their sum;
    # one holding only "기록" is not found by it.
    assert index.scores("전자의무기록")[0] == 0 < index.scores("기록")[0]
    both = LexicalIndex.build(["record", "other"], ["전자 의무 기록", "간호사의 업무"], analyzer=get_analyzer("ko-kiwi+parts"))
    assert both.scores("전자의무기록")[0] == pytest.approx(np.mean([both.scores(w)[0] for w in ("전자", "의무", "기록")]))


def test_the_analyzer_and_unit_terms_are_saved_with_the_index(tmp_path):
    index = LexicalIndex.build(["vc", "nv", "byt"], VI_UNITS, analyzer=get_analyzer("vi"))
    index.save(tmp_path / "c")
    loaded = LexicalIndex.load(tmp_path / "c")
    assert loaded.analyzer.name == "vi-pyvi"
    assert loaded.tokens_of()["byt"] == index.unit_tokens[2]
    assert np.allclose(loaded.scores("Bộ Y tế"), index.scores("Bộ Y tế"))
    english = LexicalIndex.build(["a"], ["covered entity"])
    english.save(tmp_path / "e")
    again = LexicalIndex.load(tmp_path / "e")
    assert again.analyzer.name == "en" and again.unit_tokens is None
    assert not (tmp_path / "e" / "unit_tokens.json").exists()


def test_an_index_saved_before_analyzers_is_english(tmp_path):
    LexicalIndex.build(["a"], ["covered entity"]).save(tmp_path / "old")
    (tmp_path / "old" / "analyzer.json").unlink()
    assert LexicalIndex.load(tmp_path / "old").analyzer.name == "en"


def test_an_unknown_analyzer_setting_fails_when_settings_load(monkeypatch):
    from pydantic import ValidationError

    from core.settings import Settings

    monkeypatch.setenv("CITEWALK_LEXICAL_ANALYZER", "vi-jieba")
    with pytest.raises(ValidationError, match="CITEWALK_LEXICAL_ANALYZER: unknown Vietnamese segmenter 'jieba'"):
        Settings()
    monkeypatch.setenv("CITEWALK_LEXICAL_ANALYZER", "vi-underthesea")
    assert Settings().lexical_analyzer == "vi-underthesea"
