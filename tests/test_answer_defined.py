"""Which definitions a question asks for, by the terms it writes."""
from __future__ import annotations

from core.answer.defined import asked_definitions, defined_term, quoted_definitions
from core.stores.queries import UnitRecord


def _definition(uid: str, text: str, title: str = "") -> UnitRecord:
    return UnitRecord(id=uid, label=uid, title=title, text=text, type="definition")


DATA = _definition("4(1)", "(1) ‘personal data’ means any information relating to an identified natural person;")
BREACH = _definition("4(12)", "(12) ‘personal data breach’ means a breach of security leading to the loss of personal data;")
CONSENT = _definition("4(11)", "(11) ‘consent’ of the data subject means any freely given indication of wishes;")
ACT = _definition("act", "Act means the Social Security Act.", title="Act")
PROFILING = _definition("4(4)", "(4) ‘profiling’ means any form of automated processing of personal data;")


def test_the_term_is_read_from_the_quotes_of_the_definition_or_its_title():
    assert defined_term(CONSENT) == ("consent", True)
    assert defined_term(ACT) == ("Act", False)
    assert defined_term(UnitRecord(id="x", text="‘consent’ means …", type="clause")) is None


def test_a_term_inside_a_longer_defined_term_is_not_asked_about():
    units = [DATA, BREACH, CONSENT]
    asked = asked_definitions("We deleted records by accident. Does that still count as a personal data breach?", units)
    assert [u.id for u in asked] == ["4(12)"]
    assert [u.id for u in asked_definitions("Is that still personal data?", units)] == ["4(1)"]


def test_quoted_terms_are_the_ones_asked_about_and_an_apostrophe_quotes_nothing():
    units = [DATA, PROFILING]
    question = "We're scoring personal data of applicants. Does that count as 'profiling'?"
    assert [u.id for u in asked_definitions(question, units)] == ["4(4)"]


def test_a_one_word_term_known_only_by_its_title_is_asked_about_only_when_written_capitalised():
    assert asked_definitions("How does the agency act on a complaint?", [ACT]) == []
    assert [u.id for u in asked_definitions("What is meant by the Act?", [ACT])] == ["act"]


def test_a_question_writing_many_defined_terms_asks_about_none_of_them():
    question = "Does consent count for profiling of personal data after a personal data breach?"
    assert asked_definitions(question, [DATA, BREACH, CONSENT, PROFILING]) == []


def test_only_a_quoted_term_counts_as_quoted():
    units = [DATA, PROFILING]
    assert [u.id for u in quoted_definitions("Is scoring CVs 'profiling', and may we do it?", units)] == ["4(4)"]
    # Written, not quoted: asked about only by a definition question.
    assert quoted_definitions("Is scoring CVs profiling, and may we do it with personal data?", units) == []
    # A heading quoted whole names a topic; a defined term inside it is not what is asked.
    heading = 'What does the provision on "Profiling of personal data: general rules" say, and when does it apply?'
    assert quoted_definitions(heading, units) == []


def test_a_korean_definitions_item_says_what_it_defines_by_its_own_form():
    """An item of a Korean act's definitions article ("“X”란 … 말한다") is typed as an item, not a definition; its
    form is one only a definition takes. A Vietnamese sentence "X là …" is not read so: any subject takes "là"."""
    item = UnitRecord(id="2-6", label="혈액관리법 제2조제6호", type="point",
                      text='6. "채혈금지대상자"란 감염병 환자, 약물복용 환자 등 건강기준에 미달하는 사람을 말한다.')
    assert defined_term(item) == ("채혈금지대상자", True)
    assert [u.id for u in asked_definitions("문진 후에 제가 '채혈금지대상자'라고 하더라고요. 이게 무슨 뜻이에요?",
                                            [item])] == ["2-6"]
    for text in ("6. Lưu trú là việc công dân ở lại một địa điểm.", "② 혈액원은 채혈 전에 건강진단을 하여야 한다."):
        assert defined_term(UnitRecord(id="x", type="clause", text=text)) is None
