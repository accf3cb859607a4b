"""A question after the fine for breaching a duty cites the item of the penalty provision that cites that duty: the
item names the duty only by its article number, so it is read with the cited article's heading."""
from __future__ import annotations

import pytest

from core.answer.service import answer_question
from core.settings import Settings
from tests.eu_texts import regulation
from tests.support.ingested import ingest_text

ACT = regulation(
    "2021/88",
    "the keeping of garden birds (Bird Keeping Regulation)",
    "Keepers of garden birds should be accountable for how the birds are fed.", """CHAPTER I
Obligations of keepers
Article 1
Lawfulness of feeding
1. Feeding shall be lawful only if the keeper holds a valid permit issued by the competent authority.
2. A permit shall state the species that may be fed.
Article 2
Logbook of feeding activities
1. Each keeper shall maintain a logbook of the feeding activities under its responsibility.
2. The logbook shall be in writing, including in electronic form.
Article 3
Designation of a bird warden
1. A keeper of more than fifty birds shall designate a bird warden.
2. The warden shall report to the highest management level of the keeper.
Article 4
Cooperation with the competent authority
The keeper shall cooperate, on request, with the competent authority in the performance of its tasks.
CHAPTER II
Remedies and penalties
Article 5
Administrative fines
1. Infringements of the following provisions shall be subject to administrative fines up to 10 000 EUR, or in the case of an undertaking up to 2 % of its annual turnover, whichever is higher:
(a) the obligations of the keeper pursuant to Articles 2, 3 and 4;
(b) the obligations of the monitoring body pursuant to Article 4.
2. Infringements of the following provisions shall be subject to administrative fines up to 20 000 EUR, or in the case of an undertaking up to 4 % of its annual turnover, whichever is higher:
(a) the basic principles for feeding pursuant to Article 1;
(b) non-compliance with an order of the competent authority.
3. Each competent authority shall ensure that the imposition of administrative fines is effective.
""")

# A Korean act's 과태료 article: its items name the duty's article, and in part its words.
KO_ACT = """# 수혈관리법

##### 제8조 (보고)

**⑥** 혈액원은 혈액 공급 현황을 매월 보건복지부장관에게 보고하여야 한다.

##### 제10조 (수혈부작용에 대한 조치)

**①** 의료기관의 장은 수혈부작용이 발생한 경우에는 그 사실을 시ㆍ도지사에게 신고하여야 한다.

**③** 보건복지부장관은 수혈부작용의 실태를 조사할 수 있다. 이 경우 의료기관의 장은 실태조사에 협조하여야 한다.

##### 제23조 (과태료)

**①** 다음 각 호의 어느 하나에 해당하는 자에게는 200만원 이하의 과태료를 부과한다.

  1\\. 제8조제6항을 위반하여 보고를 하지 아니한 자
  2\\. 제10조제1항을 위반하여 신고를 하지 아니한 자
  3\\. 제10조제3항 후단을 위반하여 실태조사에 협조하지 아니한 자
"""

# A Vietnamese sanctions decree: the points of a fine name the duty only as "khoản 1 Điều 2".
VI_DECREE = """CHÍNH PHỦ
NGHỊ ĐỊNH
QUY ĐỊNH XỬ PHẠT VI PHẠM HÀNH CHÍNH TRONG LĨNH VỰC NUÔI CHIM CẢNH
Chương I
NGHĨA VỤ CỦA NGƯỜI NUÔI CHIM
Điều 1. Giấy phép nuôi chim
1. Người nuôi chim cảnh phải có giấy phép do cơ quan có thẩm quyền cấp.
Điều 2. Sổ theo dõi hoạt động cho chim ăn
1. Người nuôi chim phải lập và lưu giữ sổ theo dõi hoạt động cho chim ăn.
2. Sổ theo dõi được lập bằng văn bản giấy hoặc điện tử.
Điều 3. Chỉ định người giám sát
1. Người nuôi trên năm mươi con chim phải chỉ định người giám sát.
Chương II
XỬ PHẠT VI PHẠM HÀNH CHÍNH
Điều 10. Vi phạm quy định về nghĩa vụ của người nuôi chim
1. Phạt tiền từ 1.000.000 đồng đến 3.000.000 đồng đối với một trong các hành vi sau đây:
a) Không thực hiện đúng quy định tại khoản 1 Điều 2;
b) Không thực hiện đúng quy định tại khoản 1 Điều 3.
2. Phạt tiền từ 5.000.000 đồng đến 10.000.000 đồng đối với hành vi vi phạm quy định tại khoản 1 Điều 1.
"""

PREFIX = "Regulation (EU) 2021/88, "


@pytest.fixture(scope="module")
def fines_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    return ingest_text(tmp_path_factory, test_settings, "fines", "bird_keeping.txt", ACT, 4)


@pytest.fixture(scope="module")
def ko_fines_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    return ingest_text(tmp_path_factory, test_settings, "ko_fines", "법률.md", KO_ACT, 3)


@pytest.fixture(scope="module")
def vi_fines_corpus(tmp_path_factory: pytest.TempPathFactory, test_settings: Settings, neo4j_driver) -> str:
    return ingest_text(tmp_path_factory, test_settings, "vi_fines", "nghi_dinh.txt", VI_DECREE, 3)


def _cited(question: str, settings: Settings, corpus: str) -> list[str]:
    envelope = answer_question(question, corpus, settings)
    return [r.label.removeprefix(PREFIX) for r in envelope.answer.rules]


@pytest.mark.parametrize(("question", "item"), [
    # The duty by its heading's words only: the item says "Articles 2, 3 and 4", the lead-in the sum.
    ("How big a fine could we face for not keeping a logbook of our feeding activities?", "Article 5(1)(a)"),
    ("What is the maximum fine if we feed birds without being lawful?", "Article 5(2)(a)"),
])
def test_the_fine_for_a_duty_is_the_penalty_item_citing_it(question: str, item: str, fines_corpus: str,
                                                           test_settings: Settings) -> None:
    assert _cited(question, test_settings, fines_corpus) == [item]


def test_a_question_asking_no_sanction_keeps_the_duty(fines_corpus: str, test_settings: Settings) -> None:
    cited = _cited("Do we have to keep a logbook of our feeding activities?", test_settings, fines_corpus)
    assert cited and all(c.startswith("Article 2") for c in cited), cited


def test_a_korean_fine_is_the_item_of_the_duty_asked_not_one_sharing_an_everyday_word(
        ko_fines_corpus: str, test_settings: Settings) -> None:
    """Items 2 and 3 both cite 제10조; "후" (after) of the question is in item 3's "후단" and is no content word."""
    question = "저희 병원에서 수혈 후 수혈부작용이 생겼는데 담당자가 깜빡하고 신고를 안 했어요. 과태료가 얼마까지 나올 수 있나요?"
    cited = _cited(question, test_settings, ko_fines_corpus)
    assert cited and cited[0].endswith("제23조제1항제2호"), cited


def test_the_answer_s_path_shows_the_duty_the_penalty_item_cites(fines_corpus: str, test_settings: Settings) -> None:
    """The citation is why the item answers: the path view draws it, from the item to the duty's article."""
    envelope = answer_question("How big a fine could we face for not keeping a logbook of our feeding activities?",
                               fines_corpus, test_settings)
    [rule] = envelope.answer.rules
    cites = [e for e in envelope.answer.chain if e.type == "REFERENCES"]
    assert [(e.source, e.target) for e in cites] == [(rule.unit_id, "fines/bird_keeping/ch-i/art-2")], envelope.answer.chain
    assert any(e.type == "CONTAINS" and e.target == rule.unit_id for e in envelope.answer.chain)
    assert not envelope.notices, envelope.notices


@pytest.mark.parametrize(("question", "point"), [
    ("Nếu không lập sổ theo dõi hoạt động cho chim ăn thì bị phạt bao nhiêu tiền?", "Điều 10 khoản 1 điểm a"),
    ("Không chỉ định người giám sát thì bị xử phạt thế nào?", "Điều 10 khoản 1 điểm b"),
])
def test_a_vietnamese_fine_is_the_point_citing_the_duty(question: str, point: str, vi_fines_corpus: str,
                                                        test_settings: Settings) -> None:
    assert _cited(question, test_settings, vi_fines_corpus) == [f"nghi_dinh {point}"]
