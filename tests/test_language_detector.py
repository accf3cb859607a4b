"""One language detector for ingest, the lexical analyzer, the embedding backend and the short answer."""
from __future__ import annotations

from pathlib import Path

from core.analyzers import choose_analyzer
from core.analyzers.script import detect_language, language_of_text
from core.answer.models import Claim, RuleClaims
from core.answer.short import short_answer
from ingest.graph import build_graph
from ingest.parsers.generic.structure import _script_language
from ingest.stages import StageRecorder

KOREAN_WITH_ENGLISH = ("제23조(전자의무기록) ① 의료인이나 의료기관 개설자는 전자서명법에 따른 전자서명(electronic "
                       "signature)이 기재된 전자의무기록(EMR, Electronic Medical Record)을 작성·보관할 수 있다.")
ENGLISH_QUOTING_KOREAN = ("The Medical Service Act of Korea (의료법) requires a medical institution to keep medical "
                          "records for ten years, and Article 23 allows electronic medical records to be kept instead "
                          "of paper ones, provided that the records carry an electronic signature.")
VIETNAMESE = "Người xem dưới 16 tuổi được xem phim có nội dung thuộc phân loại T16 khi có cha mẹ đi cùng."
ENGLISH_QUOTING_VIETNAMESE = ("The Law on Cinematography of Việt Nam, passed by the National Assembly in 2022, sets "
                              "the age ratings of films and the duties of the Ministry of Culture, Sports and Tourism.")


def test_mixed_script_texts_keep_their_main_language():
    assert language_of_text(KOREAN_WITH_ENGLISH) == "ko"
    assert language_of_text(ENGLISH_QUOTING_KOREAN) == "en"
    assert language_of_text(VIETNAMESE) == "vi"
    assert language_of_text(ENGLISH_QUOTING_VIETNAMESE) == "en"
    assert language_of_text("") == "en" and language_of_text("123 §§ 4.5") == "en"


def test_ingest_the_analyzer_and_the_short_answer_agree_on_each_text():
    for text, language in ((KOREAN_WITH_ENGLISH, "ko"), (ENGLISH_QUOTING_KOREAN, "en"), (VIETNAMESE, "vi"),
                           (ENGLISH_QUOTING_VIETNAMESE, "en")):
        lines = [text] * 3
        assert _script_language(lines) == detect_language(lines) == language
        analyzer = choose_analyzer("auto", lines).name
        assert analyzer.split("-", 1)[0] == language
        answer = short_answer([RuleClaims(unit_id="u", label="X 1", claims=[Claim(text=text, unit_id=None)])], "?")
        opening = {"ko": "X 1에 따르면", "vi": "Theo X 1", "en": "Under X 1"}[language]
        assert answer.startswith(opening), (language, answer)


def test_an_english_document_quoting_a_korean_name_is_parsed_as_english(tmp_path: Path):
    """Bare numbering picks the grammar by script: "any Hangul" once read these as Korean items (제1호 …)."""
    path = tmp_path / "notes.txt"
    path.write_text("Guidance on foreign clinics\n\n1. This note applies the Medical Service Act (의료법) to foreign "
                    "clinics.\n\n2. A clinic must keep its medical records for ten years.\n\n3. A clinic must name a "
                    "records officer.\n", encoding="utf-8")
    graph = build_graph([path], "t", None, StageRecorder())
    labels = [u.label for d in graph.documents for u in d.units]
    assert labels == ["notes", "notes Clause 1", "notes Clause 2", "notes Clause 3"]


def test_the_extractive_answers_own_words_follow_the_question_language():
    from core.answer.short import empty_caveat, missing_caveat

    assert empty_caveat("진료기록은 몇 년 동안 보관해야 하나요?") == "검색 결과에서 인용할 조문을 찾지 못했습니다."
    assert empty_caveat("Người lao động được nghỉ hằng năm bao nhiêu ngày?").startswith("Tìm kiếm")
    assert empty_caveat("How long must records be kept?") == "The search returned nothing to quote."
    rules = [RuleClaims(unit_id="u", label="의료법 제22조", claims=[Claim(text=KOREAN_WITH_ENGLISH)])]
    assert short_answer(rules, "?").startswith("의료법 제22조에 따르면, 제23조")
    assert missing_caveat(rules, "?", ["아르바이트생"]) == "인용된 조문에 다음 내용이 없습니다: “아르바이트생”."
