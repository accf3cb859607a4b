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
    ("Hồ sơ đề nghị cấp giấy phép gồm những nội dung gì?", Kind.LIST),
    ("Mức phạt tối đa là bao nhiêu?", Kind.AMOUNT),
    ("What's the maximum fine for processing without a legal basis?", Kind.AMOUNT),
    ("약국을 열려면 병상이 몇 개 필요한가요?", Kind.AMOUNT),
    ("이 용어는 무슨 뜻인가요?", Kind.DEFINITION),
    ("Which data protection authority can I complain to?", Kind.WHO),
    # Typed as Vietnamese users type them: "mấy giờ".
    ("Nhà tôi có họ hàng lên chơi. Tôi phải báo công an trước mấy giờ?", Kind.DEADLINE),
    # Typed as Korean users type them: "얼마나 지나야" is a wait, not a sum; "어떤 서류".
    ("자격이 정지됐는데 얼마나 지나야 다시 일할 수 있나요?", Kind.DEADLINE),
    ("개업 전에 어떤 서류를 챙겨야 하나요?", Kind.LIST),
    ("Can we give a patient's records to a researcher without asking the patient?", Kind.CONDITION),
    ("When may a covered entity disclose information for research?", Kind.CONDITION),
    # No kind is read where no dev set lost without its pattern ("who is", "what counts as", "도 되나요"): the
    # chooser reads these by meaning (bench/results/TRIED.md, "The question-kind patterns, one by one").
    ("Who is responsible for paying the compensation?", None),
    ("Does that still count as a personal data breach?", None),
    ("환자 동의 없이 사진을 올려도 되나요?", None),
    ("Tôi có hai con, tôi có được nghỉ không?", None),
    # "could we face" asks what may befall, not what is allowed.
    ("How big a fine could we face for not keeping a logbook?", Kind.AMOUNT),
])
def test_asked_kind(question, kind):
    assert asked_kind(question) is kind


def test_content_that_carries_the_kind():
    assert carries(Kind.DEADLINE, "without unreasonable delay and in no case later than 60 calendar days")
    assert not carries(Kind.DEADLINE, "A covered entity shall notify each individual whose information was disclosed.")
    assert carries(Kind.LIST, "A valid authorization must contain at least the following elements:")
    assert carries(Kind.AMOUNT, "fines up to 20 000 000 EUR, or up to 4 % of the total worldwide annual turnover")
    assert carries(Kind.DEADLINE, "30일 이내에 신고하여야 한다") and carries(Kind.DEADLINE, "trong thời hạn 15 ngày")
    assert carries(Kind.LIST, "다음 각 호의 사항을 신고하여야 한다.")
    assert carries(Kind.WHO, "the controller shall be responsible for, and be able to demonstrate compliance")
    assert not carries(None, "anything")
    # No wording marks a definition as carried: the defined term's name does (fit.named).
    assert not carries(Kind.DEFINITION, "'personal data' means any information relating to an identified person")
    # An age in digits is an amount; "chưa đủ tuổi" states none.
    assert carries(Kind.AMOUNT, "a) Nam từ đủ 20 tuổi trở lên, nữ từ đủ 18 tuổi trở lên;")
    assert not carries(Kind.AMOUNT, "Tảo hôn là việc lấy vợ, lấy chồng khi một bên chưa đủ tuổi kết hôn")


def test_the_stated_deadline_is_quoted_to_the_end_of_its_clause():
    text = ("Except as provided in § 164.412, a covered entity shall provide the notification without unreasonable "
            "delay and in no case later than 60 calendar days after discovery of a breach.")
    assert asked_content(Kind.DEADLINE, text) == (
        "without unreasonable delay and in no case later than 60 calendar days after discovery of a breach")
    assert asked_content(Kind.LIST, text) is None
    # The stated words open the short answer: from where the deadline or amount is first stated.
    assert asked_content(Kind.DEADLINE, "Not later than 60 days after the end of each calendar year, provide the "
                                        "notification.").startswith("Not later than 60 days")
    assert asked_content(Kind.AMOUNT, "fines up to 20 000 000 EUR, or in the case of an undertaking, up to 4 % of "
                                      "the total worldwide annual turnover").startswith("up to 20 000 000 EUR")


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
    assert not lists_elements("3. An assessment shall in particular be required in the case of:")
    assert not lists_elements("shall not be required if any of the following conditions are met:")


def test_a_deadline_set_by_an_event_is_a_deadline():
    # "at the latest" bounds a time by an event rather than a number of days.
    assert carries(Kind.DEADLINE, "(c) if a disclosure to another recipient is envisaged, at the latest when the "
                                  "personal data are first disclosed.")
    assert carries(Kind.DEADLINE, "at the latest at the time of the first communication to that data subject")
