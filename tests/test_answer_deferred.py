"""Content a cited rule leaves to another provision ("… the information referred to in points (b), (c) and (d) of
Article 33(3)") is cited beside it when the question asks for that content, and only the provisions that phrase
names."""
from __future__ import annotations

from core.answer.asked import Kind
from core.answer.deferred import deferred_to
from core.answer.deps import AnswerDeps, Evidence
from core.domain import Edge
from core.stores.queries import UnitRecord
from tests.support.answer_fakes import FakeGraph, FakeRetriever


def _unit(uid: str, label: str, text: str) -> UnitRecord:
    return UnitRecord(id=uid, label=f"Reg, {label}", type="paragraph", text=text)


NOTICE = _unit("34-2", "Article 34(2)",
               "The communication to the data subject referred to in paragraph 1 of this Article shall describe in "
               "clear and plain language the nature of the breach and contain at least the information and measures "
               "referred to in points (b), (c) and (d) of Article 33(3).")
DUTY = _unit("34-1", "Article 34(1)", "The controller shall communicate the breach to the data subject.")
POINT_A = _unit("33-3-a", "Article 33(3)(a)", "(a) describe the nature of the breach;")
POINT_C = _unit("33-3-c", "Article 33(3)(c)", "(c) describe the likely consequences of the breach;")
POINT_D = _unit("33-3-d", "Article 33(3)(d)", "(d) describe the measures taken to address the breach.")
GROUND = _unit("9-2-h", "Article 9(2)(h)",
               "(h) processing is necessary for the purposes of occupational medicine, subject to the conditions and "
               "safeguards referred to in paragraph 3;")
SECRECY = _unit("9-3", "Article 9(3)", "3. Such data may be processed when processed under an obligation of secrecy.")
OTHER_PARAGRAPH = _unit("9-4", "Article 9(4)", "4. Member States may maintain further conditions.")


def _deps(question: str, settings, units: list[UnitRecord], cites: list[tuple[str, str]]) -> AnswerDeps:
    deps = AnswerDeps(settings=settings, corpus="eu", question=question, retriever=FakeRetriever(), graph=None)
    deps.ledger.record_all(Evidence(u, "seed", u.id) for u in units)
    deps.ledger.record_edges(Edge(source=s, type="REFERENCES", target=t) for s, t in cites)
    return deps


def test_a_list_left_to_points_of_another_article_is_cited_with_those_points(test_settings):
    units = [NOTICE, DUTY, POINT_A, POINT_C, POINT_D]
    cites = [("34-2", "34-1"), ("34-2", "33-3-a"), ("34-2", "33-3-c"), ("34-2", "33-3-d")]
    deps = _deps("We have to email the affected customers. What must that email contain?", test_settings, units, cites)
    # Not the paragraph the sentence applies to ("referred to in paragraph 1"), not a point it does not name.
    assert deferred_to(deps, Kind.LIST, ["34-2"]) == ["34-2", "33-3-c", "33-3-d"]


def test_conditions_left_to_another_paragraph_are_cited_when_the_question_asks_for_a_condition(test_settings):
    units = [GROUND, SECRECY, OTHER_PARAGRAPH]
    cites = [("9-2-h", "9-3"), ("9-2-h", "9-4")]
    question = "What allows us to process health data, and is there any extra condition?"
    # The question's kind is not read as a condition here: the noun it writes is enough.
    assert deferred_to(_deps(question, test_settings, units, cites), None, ["9-2-h"]) == ["9-2-h", "9-3"]


def test_nothing_is_added_when_the_question_asks_for_other_content_or_the_target_was_not_found(test_settings):
    units = [GROUND, SECRECY]
    cites = [("9-2-h", "9-3")]
    question = "How long may occupational health records be kept?"
    assert deferred_to(_deps(question, test_settings, units, cites), Kind.DEADLINE, ["9-2-h"]) == ["9-2-h"]
    asked = "Is there any extra condition for processing health data?"
    assert deferred_to(_deps(asked, test_settings, [GROUND], cites), None, ["9-2-h"]) == ["9-2-h"]


def test_a_block_of_paragraphs_is_not_one_provision_holding_the_content(test_settings):
    pointer = UnitRecord(id="g96", label="Guidance 96", type="paragraph",
                         text="An operator will also need to consider the relevant requirements set out in paragraphs "
                              "47 to 87 of another Guidance.")
    last = UnitRecord(id="g87", label="Guidance 87", type="paragraph", text="This section applies to brokers.")
    deps = _deps("Which requirements should an operator prioritise?", test_settings, [pointer, last], [("g96", "g87")])
    assert deferred_to(deps, Kind.LIST, ["g96"]) == ["g96"]


def test_a_heading_the_content_is_left_to_is_not_cited_for_its_title(test_settings):
    pointer = UnitRecord(id="r761", label="MKT 7.6.1", type="rule",
                         text="A Reporting Entity must Disclose in accordance with Rule 7.7.1 the matters specified in "
                              "APP 2.")
    appendix = UnitRecord(id="app2", label="MKT APP 2", type="section", text="CONTINUOUS AND OTHER DISCLOSURES")
    deps = _deps("Which matters must a Reporting Entity disclose?", test_settings, [pointer, appendix],
                 [("r761", "app2")])
    assert deferred_to(deps, Kind.LIST, ["r761"]) == ["r761"]


class _Points(FakeGraph):
    """Article 33(3)'s points, of which the run's evidence held only (c) and (d)."""

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        kids = [UnitRecord(id=f"33-3-{m}", label=f"Reg, Article 33(3)({m})", type="point", parent_id="33-3",
                           text=f"({m}) describe item {m} of the breach;") for m in "abcd"]
        return {"33-3": kids} if "33-3" in unit_ids else {}


def test_the_points_the_phrase_names_beside_those_found_are_read_from_the_graph(test_settings):
    under = [UnitRecord(id=u.id, label=u.label, type="point", parent_id="33-3", text=u.text) for u in (POINT_C, POINT_D)]
    deps = _deps("We have to email the affected customers. What must that email contain?", test_settings,
                 [NOTICE, DUTY, *under], [("34-2", "34-1"), ("34-2", "33-3-c"), ("34-2", "33-3-d")])
    deps.graph = _Points()
    # (b) joins (c) and (d), and the evidence, so the answer may quote it; (a) is not named.
    assert deferred_to(deps, Kind.LIST, ["34-2"]) == ["34-2", "33-3-c", "33-3-d", "33-3-b"]
    assert "33-3-b" in deps.ledger and "33-3-a" not in deps.ledger
