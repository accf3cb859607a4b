"""Quoting a cited unit: matching sentences, and the items under a lead-in with their own ids and spans."""
from __future__ import annotations

from core.analyzers.script import language_of_text
from core.answer.deps import Evidence, EvidenceLedger
from core.answer.models import Claim, RuleClaims
from core.answer.quotes import choose_claims, is_lead_in, item_claims, sentence_spans
from core.answer.selection import Scorer
from core.answer.short import short_answer
from core.stores.queries import UnitRecord

LEAD = UnitRecord(id="p", label="45 CFR 164.504(e)(2)", text="Business associate contracts. A contract between the "
                  "covered entity and a business associate must:")
ITEMS = {"p": [UnitRecord(id="p/i", label="45 CFR 164.504(e)(2)(i)", text="Establish the permitted uses. The "
                          "contract may not authorize further use."),
               UnitRecord(id="p/ii", label="45 CFR 164.504(e)(2)(ii)", text="Provide that the business associate will:"),
               UnitRecord(id="p/iii", label="45 CFR 164.504(e)(2)(iii)", text="Authorize termination of the contract.")],
         "p/ii": [UnitRecord(id="p/ii/A", label="45 CFR 164.504(e)(2)(ii)(A)", text="Not use or further disclose the information.")]}


def _scorer(question: str) -> Scorer:
    ledger = EvidenceLedger()
    ledger.record(Evidence(LEAD, "seed", rank=1))
    return Scorer.for_question(question, ledger)


def test_lead_in_marks():
    assert is_lead_in(LEAD.text) and is_lead_in("The following apply —") and not is_lead_in("A firm must pay.")


def test_lead_in_sentence_is_kept_and_items_keep_their_own_ids_and_spans():
    claims = choose_claims(LEAD.text, _scorer("What must a business associate contract contain?"))
    assert claims[-1].text.endswith("must:") and claims[-1].unit_id is None
    items = item_claims(LEAD, ITEMS)
    assert [c.unit_id for c in items] == ["p/i", "p/ii", "p/ii/A", "p/iii"]  # nested lead-in keeps its own items
    texts = {u.id: u.text for kids in ITEMS.values() for u in kids}
    for claim in items:
        assert texts[claim.unit_id][claim.span[0]:claim.span[1]] == claim.text
    assert items[0].paragraph == "(i)" and items[2].paragraph == "(ii)(A)"


def test_item_limit_caps_the_quote():
    assert len(item_claims(LEAD, ITEMS, limit=2)) == 2


def test_short_answer_reads_on_from_the_rule_and_lists_items():
    claims = choose_claims(LEAD.text, _scorer("What must a business associate contract contain?")) + item_claims(LEAD, ITEMS)
    answer = short_answer([RuleClaims(unit_id="p", label=LEAD.label, claims=claims)], "q")
    assert answer.startswith("Under 45 CFR 164.504(e)(2), ")
    assert "must: (i) Establish the permitted uses." in answer and "See also" not in answer


def test_short_answer_speaks_the_corpus_language():
    vi = UnitRecord(id="v", label="Luật Điện ảnh Điều 32", text="Người xem dưới 16 tuổi không được xem phim phân loại T18.")
    claims = choose_claims(vi.text, _scorer("Người xem dưới 16 tuổi"))
    answer = short_answer([RuleClaims(unit_id="v", label=vi.label, claims=claims)], "Người xem dưới 16 tuổi?")
    assert language_of_text(vi.text) == "vi" and answer.startswith("Theo Luật Điện ảnh Điều 32: Người xem")
    assert short_answer([], "Người xem dưới 16 tuổi được xem phim?") == "Không tìm thấy điều khoản nào phù hợp với câu hỏi."


def test_an_inline_item_brings_the_sentence_it_hangs_on():
    text = ("A Person making a Prospectus Offer must ensure that:\n(1) an application form is not provided to any Person "
            "unless it is included in the Prospectus; and\n(2) only applications in the form included are accepted.")
    claims = choose_claims(text, _scorer("Must the application form be included in the Prospectus?"), limit=1)
    assert [c.text for c in claims][0] == "A Person making a Prospectus Offer must ensure that:"
    assert claims[1].paragraph == "(1)" and all(text[c.span[0]:c.span[1]] == c.text for c in claims)


def test_a_case_quoted_under_its_rule_s_lead_in_reads_after_it():
    lead = Claim(text="Infringements of the following provisions shall be subject to fines up to 20 000 EUR:",
                 unit_id="art/5/1")
    case = Claim(text="(a) the basic principles for feeding pursuant to Article 1;", unit_id=None)
    answer = short_answer([RuleClaims(unit_id="art/5/1/a", label="Reg, Article 5(1)(a)", claims=[lead, case])], "q")
    assert "fines up to 20 000 EUR: (a) the basic principles for feeding pursuant to Article 1." in answer, answer


def test_a_short_head_running_into_its_sentence_is_quoted_with_it():
    """An item named by a short head on its own line ("d) Loại T13 (13+): Phim …") is quoted with its name: the head
    alone is too short to be chosen, and without it the quote no longer says which class it sets the age for."""
    text = "d) Loại T13 (13+): Phim được phổ biến đến người xem từ đủ 13 tuổi trở lên;"
    claims = choose_claims(text, _scorer("Cháu tôi 10 tuổi có được xem phim loại T13 không?"))
    assert [c.text for c in claims] == [text] and claims[0].span == (0, len(text))
    # A lead-in on a line of its own stays a sentence of its own.
    lead = "1. Phim được phân loại như sau:\na) Loại P: Phim được phép phổ biến đến người xem ở mọi độ tuổi;"
    spans = [lead[s:e] for s, e in sentence_spans(lead)]
    assert "Phim được phân loại như sau:" in spans[-2] and "\n" not in spans[-2]
    assert spans[-1] == "a) Loại P: Phim được phép phổ biến đến người xem ở mọi độ tuổi;"
