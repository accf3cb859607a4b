"""Ages stated in a question and the age conditions a provision sets, in the three languages."""
from __future__ import annotations

import pytest

from core.answer.ages import age_conditions, fails, meets, stated_ages


@pytest.mark.parametrize(("question", "months"), [
    ("Vợ chồng tôi sắp ly hôn, con mới được 2 tuổi.", [24.0]),
    ("어머니가 만 70세이신데, 아이는 3살이에요.", [840.0, 36.0]),
    ("My 15-year-old daughter wants to sign up; her brother is 6 months old.", [180.0, 6.0]),
    ("We look after a 6-month-old baby and a man aged 70.", [6.0, 840.0]),
])
def test_an_age_the_question_tells_is_read_in_months(question, months):
    assert stated_ages(question) == months


@pytest.mark.parametrize("question", [
    "Người xem dưới 16 tuổi được xem phim nào?",  # a threshold asked about, not someone's age
    "Người từ đủ 14 tuổi đến dưới 18 tuổi đang cai nghiện thì sao?",
    "620세대 아파트 관리사무소장입니다.",  # households, not years of age
    "Can children under the age of 16 consent? Must it be kept for at least 6 years?",
    "My son signed up when he was 14.",  # no word for age: not read
])
def test_a_threshold_or_a_number_without_a_word_for_age_is_not_a_stated_age(question):
    assert stated_ages(question) == []


@pytest.mark.parametrize(("text", "conditions"), [
    ("Con dưới 36 tháng tuổi được giao cho mẹ trực tiếp nuôi", [("lt", 36.0)]),
    ("nếu con từ đủ 07 tuổi trở lên thì phải xem xét nguyện vọng của con", [("ge", 84.0)]),
    ("người chưa đủ 18 tuổi", [("lt", 216.0)]),  # "đủ 18 tuổi" within it is not a second condition
    ("Người từ đủ 14 tuổi đến dưới 18 tuổi", [("lt", 216.0), ("ge", 168.0)]),
    ("18세 미만인 사람", [("lt", 216.0)]),
    ("만 65세 이상의 노인", [("ge", 780.0)]),
    ("where the child is below the age of 16 years", [("lt", 192.0)]),
    ("persons aged 16 or over", [("ge", 192.0)]),
    ("records shall be kept for at least 6 years", []),  # a period, not an age
    ("620세대 이상의 공동주택", []),
])
def test_a_provision_s_age_conditions(text, conditions):
    assert [(c.compare.__name__, c.months) for c in age_conditions(text)] == conditions


def test_an_age_meets_a_provision_when_it_holds_for_every_condition_the_provision_sets():
    assert meets(age_conditions("Con dưới 36 tháng tuổi"), [24.0])
    assert not meets(age_conditions("nếu con từ đủ 07 tuổi trở lên"), [24.0])
    assert meets(age_conditions("Người từ đủ 14 tuổi đến dưới 18 tuổi"), [24.0, 192.0])
    assert not meets(age_conditions("Người từ đủ 14 tuổi đến dưới 18 tuổi"), [24.0])


def test_a_text_fails_an_age_only_when_none_of_its_conditions_holds_for_it():
    both_cases = age_conditions("at least 16 years old. Where the child is below the age of 16 years, consent by the "
                                "holder of parental responsibility")
    assert not fails(both_cases, [180.0]) and not fails(both_cases, [240.0])
    assert fails(age_conditions("nếu con từ đủ 07 tuổi trở lên"), [24.0])
    assert not fails(age_conditions("Nam từ đủ 20 tuổi trở lên, nữ từ đủ 18 tuổi trở lên"), [228.0])
    assert not fails([], [24.0])
