"""Sibling articles told apart by the heading the question names (core.answer.headings)."""
from __future__ import annotations

from core.answer.deps import AnswerDeps, Evidence, EvidenceLedger
from core.answer.headings import Heading, heading_of, off_heading, off_units, read_headings
from core.answer.selection import Scorer, choose_units
from core.answer.terms import terms_of
from core.domain import Edge
from core.stores.queries import UnitRecord
from tests.support.answer_fakes import FakeGraph, FakeRetriever

LAW = "vi/luat-phong-chong-ma-tuy"
OTHER_LAW = "vi/luat-khac"


def _h(title: str, document: str = LAW) -> Heading:
    return Heading(document, tuple(terms_of(title)))


HEADINGS = {
    "art46-cl3": _h("Trách nhiệm của Bộ Công an"),
    "art47-cl6": _h("Trách nhiệm của Bộ Lao động - Thương binh và Xã hội"),
    "art49": _h("Trách nhiệm của Bộ Y tế"),
    "art49-cl2": _h("Trách nhiệm của Bộ Y tế"),
    "art52": _h("Chính sách hợp tác quốc tế về phòng, chống ma túy"),
    "other-art5": _h("Trách nhiệm của Bộ Công an", OTHER_LAW),
}


def test_a_unit_under_a_sibling_of_the_named_heading_is_off():
    q = "Trách nhiệm của Bộ Y tế trong việc phòng, chống ma túy là gì? Trả lời: Tổ chức công tác giám định chất ma túy"
    # Not the named article's units, not an article of another frame, not a sibling in another law.
    assert off_heading(q, HEADINGS) == {"art46-cl3", "art47-cl6"}


def test_nothing_is_off_when_the_question_names_no_heading_or_names_both_siblings():
    assert off_heading("Bộ nào tổ chức công tác giám định chất ma túy?", HEADINGS) == set()
    both = "Trách nhiệm của Bộ Y tế và trách nhiệm của Bộ Công an khác nhau thế nào?"
    assert off_heading(both, HEADINGS) == {"art47-cl6"}


def test_one_shared_word_is_not_a_frame():
    headings = {"a": _h("Duties of the controller", "gdpr"), "b": _h("Duties of the processor", "gdpr")}
    assert off_heading("What are the duties of the controller?", headings) == set()


def _ledger(units: list[tuple[str, str]], edges: tuple[tuple[str, str], ...] = ()) -> EvidenceLedger:
    ledger = EvidenceLedger()
    for rank, (uid, text) in enumerate(units, start=1):
        ledger.record(Evidence(UnitRecord(id=uid, label=uid, text=text, document_id=LAW), "seed", rank=rank))
    for s, t in edges:
        ledger.record_edge(Edge(source=s, type="REFERENCES", target=t))
    return ledger


UNITS = [("art46-cl3", "Tổ chức công tác giám định chất ma túy và tiền chất."),
         ("art49-cl2", "Thực hiện việc nghiên cứu thuốc và phương pháp cai nghiện ma túy.")]
QUESTION = "Trách nhiệm của Bộ Y tế là gì? Trả lời: Tổ chức công tác giám định chất ma túy và tiền chất"


def _chosen(ledger: EvidenceLedger, off: set[str]) -> list[str]:
    return [c.evidence.unit.id for c in choose_units(ledger, Scorer.for_question(QUESTION, ledger), off=off).choices]


def test_the_words_pick_the_sibling_and_the_named_heading_overrules_them():
    ledger = _ledger(UNITS)
    assert _chosen(ledger, set()) == ["art46-cl3"]
    assert _chosen(ledger, {"art46-cl3"}) == ["art49-cl2"]


def test_an_off_unit_a_written_citation_joins_to_the_named_one_may_stand_beside_it():
    ledger = _ledger(UNITS, (("art49-cl2", "art46-cl3"),))
    assert "art46-cl3" in _chosen(ledger, {"art46-cl3"})
    # Alone it is still off; with every candidate off, the choice is left to the words.
    assert _chosen(_ledger(UNITS[:1]), {"art46-cl3"}) == ["art46-cl3"]


ARTICLE = UnitRecord(id="art49", label="Điều 49", title="Trách nhiệm của Bộ Y tế", type="article", document_id=LAW)
DOCUMENT = UnitRecord(id="law", label="Luật", title="Luật Phòng, chống ma túy", type="document", document_id=LAW)
CLAUSE = UnitRecord(id="art49-cl2", label="Điều 49 khoản 2", text="Thực hiện việc nghiên cứu thuốc.", type="clause",
                    document_id=LAW, parent_id="art49")
LOOSE = UnitRecord(id="loose", label="Luật khoản 1", text="Luật này quy định.", type="clause", document_id=LAW)


def test_a_clause_reads_its_article_heading_never_the_law_title():
    assert heading_of(CLAUSE, [DOCUMENT, ARTICLE]) == _h("Trách nhiệm của Bộ Y tế")
    assert heading_of(ARTICLE, [DOCUMENT]) == _h("Trách nhiệm của Bộ Y tế")
    assert heading_of(LOOSE, [DOCUMENT]) is None


class _Graph(FakeGraph):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[list[str]] = []

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        self.asked.append(list(unit_ids))
        tree = {"art49-cl2": [DOCUMENT, ARTICLE], "loose": [DOCUMENT]}
        return {u: tree[u] for u in unit_ids if u in tree}


def test_headings_are_read_in_one_query_for_the_untitled_units_only(test_settings):
    graph = _Graph()
    deps = AnswerDeps(settings=test_settings, corpus="vi", question="q", retriever=FakeRetriever(), graph=graph)
    deps.ledger.record_all(Evidence(u, "seed", rank=i) for i, u in enumerate((ARTICLE, CLAUSE, LOOSE), start=1))
    found = read_headings(deps, ["art49", "art49-cl2", "loose", "not-in-ledger"])
    assert found == {"art49": _h("Trách nhiệm của Bộ Y tế"), "art49-cl2": _h("Trách nhiệm của Bộ Y tế")}
    assert graph.asked == [["art49-cl2", "loose"]]


SIBLING = UnitRecord(id="art46-cl3", label="Điều 46 khoản 3", text="Tổ chức công tác giám định chất ma túy.",
                     type="clause", document_id=LAW, parent_id="art46")


class _Tree(FakeGraph):
    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        article46 = UnitRecord(id="art46", label="Điều 46", title="Trách nhiệm của Bộ Công an", type="article",
                               document_id=LAW)
        tree = {"art49-cl2": [DOCUMENT, ARTICLE], "art46-cl3": [DOCUMENT, article46]}
        return {u: tree[u] for u in unit_ids if u in tree}


def test_the_answer_sets_aside_the_search_hits_under_a_sibling_heading(test_settings):
    deps = AnswerDeps(settings=test_settings, corpus="vi", question=QUESTION, retriever=FakeRetriever(), graph=_Tree())
    deps.ledger.record_all(Evidence(u, "seed", rank=i) for i, u in enumerate((SIBLING, ARTICLE, CLAUSE), start=1))
    assert off_units(deps) == {"art46-cl3"}
