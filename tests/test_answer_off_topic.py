"""The question's parts the off-topic test reads: sentences and clauses, in any of the chat's languages."""
from __future__ import annotations

from core.answer.off_topic import parts


def test_a_context_sentence_and_the_question_are_read_apart():
    question = "We are a clinic. Can we give a patient's records to a university researcher without asking?"
    assert parts(question) == ["We are a clinic.", "Can we give a patient's records to a university researcher "
                                                   "without asking?"]


def test_a_one_sentence_question_has_no_parts_beyond_itself():
    assert parts("What VAT rate applies to restaurant meals?") == []


def test_korean_and_vietnamese_sentences_are_split_too():
    assert parts("저희는 병원입니다 진료 기록을 보관합니다. 환자 기록을 연구자에게 제공할 수 있나요?") == [
        "저희는 병원입니다 진료 기록을 보관합니다.", "환자 기록을 연구자에게 제공할 수 있나요?"]
    assert len(parts("Tôi là chủ cửa hàng nhỏ. Tôi có phải đăng ký kinh doanh không?")) == 2


def test_fragments_shorter_than_a_clause_are_left_out():
    assert parts("Hi. Is a pre-ticked box valid consent?") == ["Is a pre-ticked box valid consent?"]
