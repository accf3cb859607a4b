"""A rule that applies to a case another provision defines by number is cited with that provision when the question
names the case in words ("processing based on point (b) of Article 1(1)" and "we rely on our legitimate interests"),
or when the question asks a period or a sum the rule names only by number ("chưa đủ tuổi … theo quy định tại điểm a
khoản 1 Điều 5")."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from core.answer.referenced import asked_phrases, holds, phrases
from core.answer.selection import Selection, choose_units
from core.answer.service import answer_question
from core.settings import Settings
from tests.eu_texts import regulation
from tests.support.ingested import ingest_text

ACT = regulation(
    "2021/91",
    "the feeding of garden birds (Bird Feeding Regulation)",
    "Keepers of garden birds should be accountable for how the birds are fed.", """CHAPTER I
Lawful feeding
Article 1
Lawfulness of feeding
1. Feeding shall be lawful only if and to the extent that at least one of the following applies:
(a) the owner of the bird has given consent to the feeding;
(b) it is necessary for the purposes of the legitimate interests pursued by the keeper.
2. Member States may maintain more specific provisions on feeding.
Article 2
Logbook
1. Each keeper shall maintain a logbook of the feeding activities under its responsibility.
2. The logbook shall be in writing, including in electronic form.
3. The keeper shall keep the logbook referred to in paragraph 1 for five years.
CHAPTER II
Rights of owners
Article 3
Right to object
1. The owner of the bird shall have the right to object at any time to feeding which is based on point (b) of Article 1(1). The keeper shall no longer feed the bird unless the keeper demonstrates compelling grounds.
2. The keeper shall inform the owner of the right to object at the latest at the time of the first feeding.
Article 4
Right to a copy of the logbook
The owner of the bird shall have the right to obtain from the keeper a copy of the entries of the logbook referred to in Article 2 that concern the bird.
""")

PREFIX = "Regulation (EU) 2021/91, "

# A Vietnamese law whose definition names the age only by the point that sets it.
VI_LAW = """QUỐC HỘI
LUẬT
NUÔI CHIM CẢNH
Chương I
NHỮNG QUY ĐỊNH CHUNG
Điều 1. Phạm vi điều chỉnh
Luật này quy định về việc nuôi chim cảnh và tách đàn chim.
Điều 2. Giải thích từ ngữ
Trong Luật này, các từ ngữ dưới đây được hiểu như sau:
1. Chim cảnh là chim được nuôi để làm cảnh.
2. Tách đàn sớm là việc tách chim khỏi đàn khi chim chưa đủ tuổi nuôi riêng theo quy định tại điểm a khoản 1 Điều 5 của Luật này.
Chương II
NUÔI RIÊNG
Điều 5. Điều kiện nuôi riêng
1. Chim được nuôi riêng khi đáp ứng các điều kiện sau đây:
a) Chim từ đủ 2 tuổi trở lên;
b) Chim tự kiếm ăn được.
2. Người nuôi chim phải ghi ngày nuôi riêng vào sổ theo dõi.
"""


@pytest.fixture(scope="module")
def objection_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    return ingest_text(tmp_path_factory, test_settings, "objection", "bird_feeding.txt", ACT, 3)


def _choosing_alone(monkeypatch: pytest.MonkeyPatch, label_end: str) -> None:
    """The selection cites the rule without the provision it cites, as it does on a real corpus where that provision
    is one candidate among hundreds (GDPR user dev: Article 21(1) alone, Article 6(1)(f) passed over): the fit is
    what adds it. The acts here are small enough for the selection to pair them itself."""
    def alone(*args: Any, **kwargs: Any) -> Selection:
        found = choose_units(*args, **kwargs)
        rule = [c for c in found.choices if c.evidence.unit.label.endswith(label_end)]
        return replace(found, choices=rule or found.choices, edge=None)

    monkeypatch.setattr("core.answer.extractive.choose_units", alone)


@pytest.fixture
def rule_chosen_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    _choosing_alone(monkeypatch, "Article 3(1)")


def test_the_case_the_question_names_is_cited_with_the_rule_that_cites_it(
        objection_corpus: str, test_settings: Settings, rule_chosen_alone: None) -> None:
    envelope = answer_question("We feed the birds on the basis of our legitimate interests. If an owner objects, "
                               "do we have to stop feeding?", objection_corpus, test_settings)
    cited = [r.label.removeprefix(PREFIX) for r in envelope.answer.rules]
    assert sorted(cited) == ["Article 1(1)(b)", "Article 3(1)"], cited
    # The path view draws the citation that joined them.
    ids = {r.label.removeprefix(PREFIX): r.unit_id for r in envelope.answer.rules}
    assert [(e.source, e.type, e.target) for e in envelope.answer.chain] == [
        (ids["Article 3(1)"], "REFERENCES", ids["Article 1(1)(b)"])], envelope.answer.chain
    assert not envelope.notices, envelope.notices


@pytest.fixture(scope="module")
def vi_age_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    return ingest_text(tmp_path_factory, test_settings, "vi_age", "luat_nuoi_chim.txt", VI_LAW, 1)


def test_the_age_a_rule_names_by_number_is_cited_from_the_point_that_sets_it(
        vi_age_corpus: str, test_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Is this an early separation, and how old must a bird be?": the definition answers the first half and names
    the age as "điểm a khoản 1 Điều 5"; the point states it."""
    _choosing_alone(monkeypatch, "Điều 2 khoản 2")
    envelope = answer_question("Nhà hàng xóm tách con chim mới được 1 tuổi khỏi đàn. Như vậy có phải là tách đàn sớm "
                               "không, và chim bao nhiêu tuổi mới được tách khỏi đàn?", vi_age_corpus, test_settings)
    cited = sorted(r.label.split(" ", 1)[1] for r in envelope.answer.rules)
    assert cited == ["Điều 2 khoản 2", "Điều 5 khoản 1 điểm a"], [r.label for r in envelope.answer.rules]


def test_a_question_that_does_not_name_the_case_keeps_the_rule_alone(
        objection_corpus: str, test_settings: Settings, rule_chosen_alone: None) -> None:
    envelope = answer_question("If an owner objects to the feeding of the bird, do we have to stop?",
                               objection_corpus, test_settings)
    cited = [r.label.removeprefix(PREFIX) for r in envelope.answer.rules]
    assert cited == ["Article 3(1)"], cited


def test_a_citation_inside_the_rule_s_own_article_is_not_followed(objection_corpus: str,
                                                                  test_settings: Settings) -> None:
    """Article 2(3) cites paragraph 1, which holds the question's "feeding activities": a paragraph of the same rule,
    which descent and the rule's own quotes answer for, not a second rule to cite beside it."""
    envelope = answer_question("How long must we keep the logbook of our feeding activities?", objection_corpus,
                               test_settings)
    cited = [r.label.removeprefix(PREFIX) for r in envelope.answer.rules]
    assert cited == ["Article 2(3)"], cited


def test_asked_phrases_are_the_question_s_that_the_rule_lacks_and_few_provisions_hold() -> None:
    content = {"legitim", "interest", "person", "data", "analyt"}
    question = "We use legitimate interests and personal data for analytics"
    rule = ["The data subject shall have the right to object to processing of personal data"]
    evidence = ["processing of personal data"] * 5 + ["the legitimate interests pursued by the controller"]
    # "personal data" is in the rule; "legitimate interests" in one provision of six.
    assert asked_phrases(question, content, rule, evidence) == {("legitim", "interest")}
    # Held by most of the evidence, a phrase is the corpus's everyday wording.
    assert asked_phrases(question, content, rule, ["legitimate interests"] * 5) == set()
    # A rule whose own words hold the phrase, in another form of the word, needs nothing cited beside it.
    assert asked_phrases(question, content, ["legitimately interested parties"], evidence) == set()


def test_a_phrase_is_held_in_any_form_of_its_words_and_only_as_adjacent_words() -> None:
    assert holds(("legitim", "interest"), phrases("a legitimately interested party"))
    assert not holds(("legitim", "interest"), phrases("interests that are legitimate"))
    # A function word between two content words parts them.
    assert phrases("interests and personal data") == {("person", "data")}
