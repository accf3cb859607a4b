"""A close choice names its two or three candidate rules; a declined question lists the closest as such.

The decision (core.answer.unsure.close_units) reads the selection's own scores; the view (core.render.view) carries
the candidates and the abstention to the share page's HTML and the chat's Markdown, from real stored units.
"""
from __future__ import annotations

from core.answer.deps import AnswerDeps, Evidence
from core.answer.models import AttributedAnswer, RuleRef
from core.answer.selection import Selection
from core.answer.unsure import CLOSE_MARGIN, close_units, may_be_about
from core.answer.validate import Problems, finalise
from core.render.chain import chain_segments
from core.render.markdown import answer_markdown
from core.render.share_page import _source_href
from core.render.templating import render
from core.render.view import build_view
from core.stores.queries import UnitRecord
from tests.render_support import answer_html, real_walk
from tests.support.answer_fakes import FakeGraph, FakeRetriever

LAW = UnitRecord(id="law", label="45 CFR", title="Public Welfare", type="document", document_id="d")
SECTION = UnitRecord(id="s404", label="45 CFR 164.404", title="Notification to individuals.", type="section",
                     document_id="d")
PARAGRAPH = UnitRecord(id="s404-b", label="45 CFR 164.404(b)", text="Without unreasonable delay …", type="paragraph",
                       document_id="d")
LOOSE = UnitRecord(id="loose", label="45 CFR 164.308(a)(6)", text="Security incident procedures …",
                   type="paragraph", document_id="d")


class _Tree(FakeGraph):
    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        tree = {"s404-b": [LAW, SECTION], "loose": [LAW]}
        return {u: tree[u] for u in unit_ids if u in tree}


def _deps(test_settings) -> AnswerDeps:
    deps = AnswerDeps(settings=test_settings, corpus="hipaa", question="q", retriever=FakeRetriever(), graph=_Tree())
    deps.ledger.record_all(Evidence(u, "seed", rank=i) for i, u in enumerate((PARAGRAPH, LOOSE, SECTION), start=1))
    return deps


def _selection(runner_up: float, alternatives: list[tuple[float, tuple[str, ...]]]) -> Selection:
    return Selection([], score=5.0, runner_up=runner_up, alternatives=alternatives)


def test_a_close_choice_names_the_cited_rule_first_then_the_close_candidates():
    close = _selection(5.0 - CLOSE_MARGIN / 4, [(5.0 - CLOSE_MARGIN / 4, ("b",)), (5.0 - CLOSE_MARGIN / 2, ("a", "c")),
                                              (5.0 - CLOSE_MARGIN / 2, ("d",)), (5.0 - 2 * CLOSE_MARGIN, ("e",))])
    assert close_units(close, ["a"]) == ["a", "b", "c"]  # at most three, best first, each once
    assert close_units(close, ["a"], most=5) == ["a", "b", "c", "d"]  # "e" is not close


def test_a_clear_lead_or_a_choice_among_the_same_rules_names_nothing():
    assert close_units(_selection(5.0 - 2 * CLOSE_MARGIN, [(5.0 - 2 * CLOSE_MARGIN, ("b",))]), ["a"]) == []
    assert close_units(_selection(5.0 - CLOSE_MARGIN / 2, [(5.0 - CLOSE_MARGIN / 2, ("a",))]), ["a"]) == []
    assert close_units(Selection([], score=5.0), ["a"]) == []  # no runner-up at all


def test_view_shows_the_candidates_each_one_click_from_its_source(neo4j_driver, hipaa_corpus, test_settings):
    envelope, units = real_walk(neo4j_driver, test_settings.neo4j_database)
    a, b, _ = envelope.evidence_ids
    answer = envelope.answer.model_copy(update={"may_be_about": [RuleRef(unit_id=a, label=units[a].label, topic="Breach"),
                                                                 RuleRef(unit_id=b, label="")]})
    view = build_view(envelope.model_copy(update={"answer": answer}), units, {})
    assert [(r.unit_id, r.label) for r in view.may_be_about] == [(a, units[a].label), (b, units[b].label)]
    assert view.may_be_about[0].topic == "Breach" and view.may_be_about[1].topic == (units[b].title or "")
    href = _source_href("tok")
    html = render("answer.html.j2", view=view, segments=chain_segments(view.chain, view.labels), source_href=href)
    assert "This may be about:" in html and f'href="{href(a)}"' in html and f'href="{href(b)}"' in html
    assert "This may be about:" in answer_markdown(view)
    plain = build_view(envelope, units, {})
    assert "This may be about" not in answer_html(plain) and "This may be about" not in answer_markdown(plain)


def test_a_declined_answer_lists_the_closest_provisions_as_not_an_answer(neo4j_driver, hipaa_corpus, test_settings):
    envelope, units = real_walk(neo4j_driver, test_settings.neo4j_database)
    declined = envelope.model_copy(update={"answer": envelope.answer.model_copy(update={"abstained": True})})
    view = build_view(declined, units, {})
    assert view.abstained and view.cards
    assert "not an answer" in answer_html(view) and "not an answer" in answer_markdown(view)
    answered = build_view(envelope, units, {})
    assert "not an answer" not in answer_html(answered) and "not an answer" not in answer_markdown(answered)


def test_each_candidate_is_named_by_its_nearest_heading_never_the_document_title(test_settings):
    close = _selection(5.0 - CLOSE_MARGIN / 2, [(5.0 - CLOSE_MARGIN / 2, ("loose",))])
    named = may_be_about(_deps(test_settings), close, ["s404-b"])
    assert [(r.unit_id, r.label, r.topic) for r in named] == [
        ("s404-b", "45 CFR 164.404(b)", "Notification to individuals."), ("loose", "45 CFR 164.308(a)(6)", "")]


def test_a_model_named_candidate_outside_the_evidence_is_dropped(test_settings):
    answer = AttributedAnswer(answer="a", may_be_about=[RuleRef(unit_id="s404-b", label="wrong"),
                                                        RuleRef(unit_id="made-up", label="45 CFR 999.1")])
    kept = finalise(answer, Problems(), _deps(test_settings)).may_be_about
    assert [(r.unit_id, r.label) for r in kept] == [("s404-b", "45 CFR 164.404(b)")]
