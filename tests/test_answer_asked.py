"""What kind of answer a question asks for (three languages), what content carries it, and which words a caveat names."""
from __future__ import annotations

import pytest

from core.answer.asked import Kind, asked_content, asked_kind, carries, lists_elements
from core.answer.checkable import checkable_words


@pytest.mark.parametrize(("question", "kind"), [
    ("How soon must a covered entity notify individuals after discovering a breach?", Kind.DEADLINE),
    ("By when do we have to tell those people that we have their details?", Kind.DEADLINE),
    ("의료기관은 진료기록을 언제까지 보존해야 하나요?", Kind.DEADLINE),
    ("Người lao động phải báo trước bao lâu khi nghỉ việc?", Kind.DEADLINE),
    ("What elements must an authorization contain to be valid?", Kind.LIST),
    ("신청서의 기재사항은 무엇인가요?", Kind.LIST),
    ("Hồ sơ đề nghị cấp giấy phép gồm những nội dung gì?", Kind.LIST),
    ("What's the maximum fine for processing without a legal basis?", Kind.AMOUNT),
    ("과태료는 얼마인가요?", Kind.AMOUNT),
    ("Mức phạt tối đa là bao nhiêu?", Kind.AMOUNT),
    ("Does that still count as a personal data breach?", Kind.DEFINITION),
    ("Người tiêu dùng là gì?", Kind.DEFINITION),
    ("Who is responsible for paying the compensation?", Kind.WHO),
    ("Which data protection authority can I complain to?", Kind.WHO),
    # Typed as Vietnamese users type them: "mấy giờ", "được coi là … không", a bare "Ai …".
    ("Nhà tôi có họ hàng lên chơi. Tôi phải báo công an trước mấy giờ?", Kind.DEADLINE),
    ("Tôi 28 tuổi thì có còn được coi là thanh niên không?", Kind.DEFINITION),
    ("Hai bên không thỏa thuận được. Ai sẽ được nuôi con?", Kind.WHO),
    # Typed as Korean users type them: "얼마나 지나야" is a wait, not a sum; "몇 개", "뭐뭐".
    ("환자 동의 없이 사진을 올려도 되나요?", Kind.CONDITION),
    ("When may a covered entity disclose information for research?", Kind.CONDITION),
    ("자격이 정지됐는데 얼마나 지나야 다시 일할 수 있나요?", Kind.DEADLINE),
    ("이사한 뒤 몇 개월 안에 신고해야 하나요?", Kind.DEADLINE),
    ("약국을 열려면 병상이 몇 개 필요한가요?", Kind.AMOUNT),
    ("신고할 때 내야 하는 서류가 뭐뭐 있나요?", Kind.LIST),
    ("개업 전에 어떤 서류를 챙겨야 하나요?", Kind.LIST),
])
def test_asked_kind(question, kind):
    assert asked_kind(question) is kind


def test_content_that_carries_the_kind():
    assert carries(Kind.DEADLINE, "without unreasonable delay and in no case later than 60 calendar days")
    assert not carries(Kind.DEADLINE, "A covered entity shall notify each individual whose information was disclosed.")
    assert carries(Kind.LIST, "A valid authorization must contain at least the following elements:")
    assert carries(Kind.AMOUNT, "fines up to 20 000 000 EUR, or up to 4 % of the total worldwide annual turnover")
    assert carries(Kind.DEFINITION, "'personal data' means any information relating to an identified person")
    assert carries(Kind.DEADLINE, "30일 이내에 신고하여야 한다") and carries(Kind.DEADLINE, "trong thời hạn 15 ngày")
    assert not carries(None, "anything")
    # An age in digits is an amount, as "18 years" is in English; "chưa đủ tuổi" states none.
    assert carries(Kind.AMOUNT, "a) Nam từ đủ 20 tuổi trở lên, nữ từ đủ 18 tuổi trở lên;")
    assert not carries(Kind.AMOUNT, "Tảo hôn là việc lấy vợ, lấy chồng khi một bên chưa đủ tuổi kết hôn")
    # "AI" is not the Vietnamese "ai" (who); a syllable inside "hai" neither.
    assert asked_kind("Can our AI tool profile users?") is not Kind.WHO
    assert asked_kind("Tôi có hai con, tôi có được nghỉ không?") is not Kind.WHO


def test_a_korean_provision_that_says_who_may_or_to_whom_carries_who():
    # "Only these may …" is written "X가 아니면 … 할 수 없다", often over a list of those who may.
    assert carries(Kind.WHO, "② 다음 각 호의 어느 하나에 해당하는 자가 아니면 의료기관을 개설할 수 없다.")
    assert carries(Kind.WHO, "③ 의료기관의 장은 24시간 이내에 관할 보건소장에게 신고하여야 한다.")
    assert not carries(Kind.WHO, "① 의료인은 진료 요청을 받으면 정당한 사유 없이 거부하지 못한다.")


def test_the_stated_deadline_is_quoted_to_the_end_of_its_clause():
    text = ("Except as provided in § 164.412, a covered entity shall provide the notification without unreasonable "
            "delay and in no case later than 60 calendar days after discovery of a breach.")
    assert asked_content(Kind.DEADLINE, text) == (
        "without unreasonable delay and in no case later than 60 calendar days after discovery of a breach")
    assert asked_content(Kind.LIST, text) is None


def test_caveat_words_are_content_words_once():
    words = checkable_words("We are a clinic. Can we give a patient's records to a university researcher "
                            "without asking the patient? How soon?")
    assert words == ["clinic", "patient", "records", "university", "researcher"]
    # Vietnamese, syllable by syllable: the question's particles and everyday verbs are not named.
    assert checkable_words("Con tôi năm nay bao nhiêu tuổi thì được đi học lớp một?") == ["Con", "năm", "tuổi", "học", "lớp"]
    # … and its words of several syllables are named whole ("Công ty", not "ty").
    assert checkable_words("Tạm trú của tôi sắp hết hạn, tôi muốn gia hạn lúc nào?") == ["Tạm trú", "hết", "hạn", "gia hạn"]
    assert checkable_words("Công ty chúng tôi muốn mở thêm tour du lịch") == ["Công ty", "mở", "thêm", "tour", "du lịch"]
    # Korean, noun by noun as written: no particles or endings ("어머니가", "떼려고"), no pronouns, adverbs or verbs;
    # nouns written together stay one word.
    assert checkable_words("저희 어머니가 진료기록을 다시 떼려고 하는데 보건소에 가야 하나요?") == ["어머니", "진료기록", "보건소"]


def test_a_list_of_required_elements_is_told_from_a_list_of_cases():
    assert lists_elements("7. The assessment shall contain at least:")
    assert lists_elements("2. The communication shall describe the nature of the breach and contain at least the "
                          "information referred to in points (b), (c) and (d) of Article 33(3).")
    assert lists_elements("access to the personal data and the following information:")
    assert not lists_elements("3. An assessment shall in particular be required in the case of:")
    assert not lists_elements("shall not be required if any of the following conditions are met:")
    # Both still carry a list.
    assert carries(Kind.LIST, "in the case of:") and carries(Kind.LIST, "7. The assessment shall contain at least:")


def test_a_deadline_set_by_an_event_is_a_deadline():
    # "at the latest" bounds a time by an event rather than a number of days.
    assert carries(Kind.DEADLINE, "(c) if a disclosure to another recipient is envisaged, at the latest when the "
                                  "personal data are first disclosed.")
    assert carries(Kind.DEADLINE, "at the latest at the time of the first communication to that data subject")
