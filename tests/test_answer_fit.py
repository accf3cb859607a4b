"""The answer fit: which units count as one rule, a recital giving way to the enacting provision, and the
batched heading reads it makes on the real graph."""
from __future__ import annotations

from collections.abc import Iterable

import pytest

from core.answer.asked import Kind
from core.answer.deps import AnswerDeps, Evidence
from core.answer.fit import Fitted, _same_rule, fit
from core.answer.selection import UNSURE_MARGIN, Scorer, Selection
from core.domain import Edge, EdgeType
from core.stores import queries as gq
from core.stores.queries import UnitRecord
from tests.support.answer_fakes import FakeGraph, FakeRetriever


def _unit(uid: str, label: str, type_: str = "paragraph", text: str = "") -> UnitRecord:
    return UnitRecord(id=uid, label=label, type=type_, text=text)


def test_same_rule_is_a_coarser_level_of_one_provision_not_a_section_of_rules():
    assert _same_rule(_unit("s", "45 CFR 164.404", "section"), _unit("p", "45 CFR 164.404(a)(1)"))
    assert _same_rule(_unit("a", "Luật X Điều 27", "article"), _unit("k", "Luật X Điều 27 khoản 1", "clause"))
    # A section of separately numbered rules, and the whole instrument, are not one rule.
    assert not _same_rule(_unit("s", "MIR 8.1", "section"), _unit("r", "MIR 8.1.1", "rule"))
    assert not _same_rule(_unit("d", "MIR", "document"), _unit("r", "MIR 8.1.1", "rule"))
    assert not _same_rule(_unit("s", "45 CFR 164.40", "section"), _unit("p", "45 CFR 164.404(a)"))
    # Korean sub-units continue their article's label without a space: 항, 호, 목 are the same rule, 조의2 is not.
    assert _same_rule(_unit("a", "의료법 제56조", "article"), _unit("p", "의료법 제56조제2항", "paragraph"))
    assert _same_rule(_unit("p", "의료법 제56조제2항", "paragraph"), _unit("i", "의료법 제56조제2항제6호", "point"))
    assert _same_rule(_unit("i", "의료법 제2조제3호", "point"), _unit("s", "의료법 제2조제3호가목", "point"))
    assert not _same_rule(_unit("a", "의료법 제56조", "article"), _unit("b", "의료법 제56조의2제1항", "paragraph"))
    assert not _same_rule(_unit("a", "의료법 제5조", "article"), _unit("b", "의료법 제56조제1항", "paragraph"))


RECITAL = _unit("rec", "Reg, recital 47", "recital",
                "The legitimate interests of a controller may provide a legal basis for processing, provided that "
                "the interests or the fundamental rights and freedoms of the data subject are not overriding.")
ARTICLE = _unit("art", "Reg, Article 21(1)", "clause",
                "The data subject shall have the right to object, on grounds relating to his or her particular "
                "situation, at any time to processing of personal data concerning him or her which is based on "
                "legitimate interests. The controller shall no longer process the personal data unless the "
                "controller demonstrates compelling legitimate grounds for the processing.")
OTHER = _unit("far", "Reg, Article 90(1)", "clause", "Member States may adopt specific rules on obligations of secrecy.")


class _Graph(FakeGraph):
    """The few units above, each without headings or sub-units."""

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        known = {u.id: u for u in (RECITAL, ARTICLE, OTHER)}
        return {u: known[u] for u in unit_ids if u in known}

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        return []

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return {}


def _deps(question: str, settings, units: tuple[UnitRecord, ...] = (RECITAL, ARTICLE, OTHER)) -> AnswerDeps:
    deps = AnswerDeps(settings=settings, corpus="eu", question=question, retriever=FakeRetriever(), graph=_Graph())
    deps.ledger.record_all(Evidence(u, "seed", u.id) for u in units)
    return deps


def test_a_recital_gives_way_to_the_enacting_provision_that_answers(test_settings):
    question = "If a user objects to processing based on legitimate interests, must the controller stop processing?"
    deps = _deps(question, test_settings)
    fitted = fit(deps, Scorer.for_question(question, deps.ledger), None, ["rec"])
    assert fitted.units == ["art"], fitted.notes
    # An enacting provision that is not about the question does not displace the recital.
    deps = _deps(question, test_settings, (RECITAL, OTHER))
    assert fit(deps, Scorer.for_question(question, deps.ledger), None, ["rec"]).units == ["rec"]


def test_a_recital_gives_way_to_an_enacting_candidate_scored_almost_as_well(test_settings):
    question = "If a user objects to processing based on legitimate interests, must the controller stop processing?"
    deps = _deps(question, test_settings)
    scorer = Scorer.for_question(question, deps.ledger)
    # The selection's first enacting candidate within UNSURE_MARGIN is cited, a pair as a pair.
    close = Selection([], score=5.0, alternatives=[(4.95, ("rec", "far")), (5.0 - UNSURE_MARGIN / 2, ("far", "art"))])
    assert fit(deps, scorer, None, ["rec"], selection=close).units == ["far", "art"]
    # One further behind is not: the enacting provision that reads best in place replaces the recital, as before.
    far = Selection([], score=5.0, alternatives=[(5.0 - 2 * UNSURE_MARGIN, ("far", "art"))])
    assert fit(deps, scorer, None, ["rec"], selection=far).units == ["art"]


BALANCE = _unit("bal", "Reg, Article 6(1)(f)", "point",
                "(f) processing based on legitimate interests pursued by the controller is lawful, except where such "
                "interests are overridden by the interests of the data subject, who may object to it;")


def test_a_recital_gives_way_to_the_search_hit_that_reads_most_like_it(test_settings):
    """The rule a recital explains is written in the recital's terms: of the enacting search hits, the one closest in
    meaning to the recital replaces it, not the one sharing most of the user's words."""
    import numpy as np

    from core.answer.signals import Signals

    class _Stores:
        index = {"rec": 0, "art": 1, "far": 2, "bal": 3}
        units: dict[str, UnitRecord] = {}  # no parents or titles: nothing transitional
        edges = None  # no citations held
        first_rows = np.array([0, 1, 2, 3])
        window_matrix = np.array([[1.0, 0.0], [0.5, 0.87], [0.0, 1.0], [0.9, 0.44]])

    question = "If a user objects to processing based on legitimate interests, must the controller stop processing?"
    deps = _deps(question, test_settings, (RECITAL, ARTICLE, OTHER, BALANCE))
    signals = Signals(_Stores(), np.zeros(2), None, np.full(4, 0.3), np.zeros(4))
    scorer = Scorer.for_question(question, deps.ledger)
    fitted = fit(deps, scorer, None, ["rec"], signals)
    assert fitted.units == ["bal"], fitted.notes
    # Without the corpus's vectors, the enacting provision that reads best in place, as before.
    assert fit(deps, scorer, None, ["rec"]).units == ["art"]


BIOMETRIC = UnitRecord(id="d14", label="Reg, Article 4(14)", type="definition",
                       text="(14) ‘biometric data’ means personal data resulting from specific technical processing "
                            "relating to the physical characteristics of a natural person, such as fingerprints;")
SPECIAL = _unit("a9-1", "Reg, Article 9(1)", "clause",
                "Processing of biometric data for the purpose of uniquely identifying a natural person shall be "
                "prohibited.")


def test_a_quoted_defined_term_of_a_two_part_question_is_cited_beside_the_rule_that_answers_the_other_part(
        test_settings):
    asked = "We want fingerprint scanners for staff. Are fingerprints 'biometric data', and does that make them sensitive?"
    deps = _deps(asked, test_settings, (BIOMETRIC, SPECIAL))
    assert fit(deps, Scorer.for_question(asked, deps.ledger), None, ["a9-1"]).units == ["a9-1", "d14"]
    # One part only: the chosen rule stands alone (a definition question is answered by `definitions`).
    one = "We want fingerprint scanners for staff. Is processing 'biometric data' of staff prohibited?"
    deps = _deps(one, test_settings, (BIOMETRIC, SPECIAL))
    assert fit(deps, Scorer.for_question(one, deps.ledger), None, ["a9-1"]).units == ["a9-1"]


def test_ancestors_of_reads_every_units_headings_in_one_query(neo4j_driver, test_settings, hipaa_corpus):
    db = test_settings.neo4j_database
    labels = ["45 CFR 164.512(i)(2)(ii)(C)", "45 CFR 164.404(a)(1)", "45 CFR 164.404"]
    rows, _, _ = neo4j_driver.execute_query("MATCH (u:Unit {corpus: $c}) WHERE u.label IN $labels RETURN u.id AS id, u.label AS label",
                                            c=hipaa_corpus, labels=labels, database_=db)
    ids = [r["id"] for r in rows]
    deep = next(r["id"] for r in rows if r["label"] == labels[0])
    assert len(ids) == 3
    many = gq.ancestors_of(neo4j_driver, db, [*ids, "no-such-unit"])
    assert "no-such-unit" not in many
    for uid in ids:  # the same headings, top down, as one unit's own query gives
        assert [a.id for a in many[uid]] == [a.id for a in gq.ancestors(neo4j_driver, db, uid)]
    assert [a.label for a in many[deep]][-3:] == ["45 CFR 164.512(i)", "45 CFR 164.512(i)(2)", "45 CFR 164.512(i)(2)(ii)"]


def test_a_fitter_and_its_answer_are_freed_once_the_answer_is_done(test_settings):
    """A cache on the class (functools.cache on a method) kept every answer's fitter, deps and ledger alive."""
    import gc
    import weakref

    from core.answer.fit import _Fitter

    question = "If a user objects to processing based on legitimate interests, must the controller stop processing?"
    deps = _deps(question, test_settings)
    fitter = _Fitter(deps, Scorer.for_question(question, deps.ledger), None, None)
    assert [u.id for u in fitter.region("art")] == ["art"]
    assert [u.id for u in fitter.region("art")] == ["art"]  # read once, served again
    gone_fitter, gone_deps = weakref.ref(fitter), weakref.ref(deps)
    del fitter, deps
    gc.collect()
    assert gone_fitter() is None and gone_deps() is None


BREACH_RECITAL = _unit("rec85", "Reg, recital 85", "recital",
                       "A personal data breach should be reported to the supervisory authority by the controller "
                       "without undue delay and, where feasible, not later than 72 hours after having become aware "
                       "of the breach.")
BREACH_ARTICLE = _unit("art33", "Reg, Article 33(1)", "clause",
                       "The controller shall notify the personal data breach to the supervisory authority not later "
                       "than 72 hours after having become aware of it.")
REPORTING_LINES = _unit("art75", "Reg, Article 75(3)", "clause",
                        "The staff of the secretariat shall be subject to separate reporting lines from the staff of "
                        "the supervisory authority.")


class _BreachGraph(_Graph):
    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        known = {u.id: u for u in (BREACH_RECITAL, BREACH_ARTICLE, REPORTING_LINES)}
        return {u: known[u] for u in unit_ids if u in known}


def test_the_asked_for_kind_is_taken_from_a_rule_never_from_a_recital(test_settings):
    """A recital repeats the rule's deadline as its reason and words it closer to the question ("reported"); the
    answer to "how long" is the enacting provision that sets it."""
    question = "How long do we have to get a personal data breach reported to the supervisory authority?"
    fitted = _fitted(test_settings, _BreachGraph(), question, (REPORTING_LINES, BREACH_RECITAL, BREACH_ARTICLE),
                     Kind.DEADLINE, ["art75"])
    assert fitted.units == ["art33"], fitted.notes


def _fitted(settings, graph: FakeGraph, question: str, evidence: tuple[UnitRecord, ...], kind: Kind | None,
            chosen: list[str]) -> Fitted:
    """The fit of `chosen` for a question whose evidence is `evidence`, over `graph`."""
    deps = AnswerDeps(settings=settings, corpus="eu", question=question, retriever=FakeRetriever(), graph=graph)
    deps.ledger.record_all(Evidence(u, "seed", u.id) for u in evidence)
    return fit(deps, Scorer.for_question(question, deps.ledger), kind, chosen)

def _under(parent: str, uid: str, label: str, text: str) -> UnitRecord:
    """A paragraph of the rule `parent`."""
    return UnitRecord(id=uid, label=label, type="clause", parent_id=parent, text=text)


ACCESS = _unit("a15", "Reg, Article 15", "article", "Article 15\nRight of access by the data subject")
ACCESS_INFO = _under("a15", "a15-1", "Reg, Article 15(1)",
        "1. The data subject shall have the right to obtain from the controller confirmation as "
        "to whether or not personal data concerning him or her are being processed, and, where "
        "that is the case, access to the personal data and the following information:")
ACCESS_ITEMS = [UnitRecord(id=f"a15-1-{p}", label=f"Reg, Article 15(1)({p})", type="point", parent_id="a15-1",
                           text=text)
                for p, text in (("a", "(a) the purposes of the processing;"),
                                ("b", "(b) the recipients to whom the personal data have been or will be disclosed;"))]
ACCESS_COPY = _under("a15", "a15-3", "Reg, Article 15(3)",
        "3. The controller shall provide a copy of the personal data undergoing processing. For "
        "any further copies requested by the data subject, the controller may charge a "
        "reasonable fee based on administrative costs.")


class _AccessGraph(_Graph):
    """One article: a paragraph granting the right with its list of information, a paragraph on the copy."""

    units = (ACCESS, ACCESS_INFO, *ACCESS_ITEMS, ACCESS_COPY)

    def fetch_units(self, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
        known = {u.id: u for u in self.units}
        return {u: known[u] for u in unit_ids if u in known}

    def ancestors_of(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        known = {u.id: u for u in self.units}
        out: dict[str, list[UnitRecord]] = {}
        for unit_id in unit_ids:
            above: list[UnitRecord] = []
            parent = known[unit_id].parent_id if unit_id in known else None
            while parent:
                above.insert(0, known[parent])
                parent = known[parent].parent_id
            out[unit_id] = above
        return out

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        return {p: kids for p in unit_ids if (kids := [u for u in self.units if u.parent_id == p])}


def _rule_graph(*units: UnitRecord) -> _AccessGraph:
    """A graph of these units only (their headings and sub-units by parent_id)."""
    graph = _AccessGraph()
    graph.units = units
    return graph


def test_a_list_question_descends_to_the_lead_in_of_its_rule_even_when_the_question_is_wordy(test_settings):
    """A user's question tells a situation in many words the rule does not use, so what any paragraph covers of it
    is small; within the chosen rule the topic is shared already, and the paragraph that lists the asked-for
    information (a lead-in with its items) is the answer, not the neighbouring paragraph on the copy."""
    question = ("I sent a subject access request to my bank last month. Apart from a copy of my data, what "
                "information are they obliged to give me?")
    fitted = _fitted(test_settings, _AccessGraph(), question, (ACCESS_COPY, ACCESS_INFO), Kind.LIST, ["a15-3"])
    assert fitted.units == ["a15-1"], fitted.notes


CONSULT = _unit("a36", "Reg, Article 36", "article", "Article 36\nPrior consultation")
SECURITY = _unit("a32", "Reg, Article 32", "article", "Article 32\nSecurity of processing")
BREACH = _unit("a33", "Reg, Article 33", "article", "Article 33\nNotification of a personal data breach")
# Paragraphs of the articles above: unit id → (parent, label, text).
PARAGRAPHS = {
    "a36-1": ("a36", "Reg, Article 36(1)",
        "1. The controller shall consult the supervisory authority prior to processing where a "
        "data protection impact assessment indicates that the processing would result in a "
        "high risk in the absence of measures taken by the controller to mitigate the risk."),
    "a36-2": ("a36", "Reg, Article 36(2)",
        "2. Where the supervisory authority is of the opinion that the intended processing "
        "would infringe this Regulation, the supervisory authority shall, within period of up "
        "to eight weeks of receipt of the request for consultation, provide written advice "
        "to the controller."),
    "a32-1": ("a32", "Reg, Article 32(1)",
        "1. The controller and the processor shall implement appropriate technical and "
        "organisational measures to ensure a level of security appropriate to the risk."),
    "a32-3": ("a32", "Reg, Article 32(3)",
        "3. Adherence to an approved code of conduct may be used as an element by which to "
        "demonstrate compliance."),
    "a33-1": ("a33", "Reg, Article 33(1)",
        "1. In the case of a personal data breach, the controller shall without undue "
        "delay and, where feasible, not later than 72 hours after having become aware of "
        "it, notify the personal data breach to the supervisory authority."),
    "a33-2": ("a33", "Reg, Article 33(2)",
        "2. The processor shall notify the controller without undue delay after becoming "
        "aware of a personal data breach."),
}
(CONSULT_DUTY, CONSULT_PERIOD, SECURITY_MEASURES, SECURITY_CODES, BREACH_CONTROLLER, BREACH_PROCESSOR) = (
    _under(parent, uid, label, text) for uid, (parent, label, text) in PARAGRAPHS.items())
CONSULTATION = (CONSULT, CONSULT_DUTY, CONSULT_PERIOD, ACCESS, ACCESS_COPY)
BREACH_RULE = (BREACH, BREACH_CONTROLLER, BREACH_PROCESSOR)
HOW_LONG_ADVICE = ("We have gone to the supervisory authority for prior consultation. How long can they take to come "
                   "back to us with written advice?")
DPIA = _unit("a35", "Reg, Article 35", "article", "Article 35\nData protection impact assessment")
DPIA_CASES = _under("a35", "a35-3", "Reg, Article 35(3)",
                    "3. A data protection impact assessment referred to in paragraph 1 shall in particular be required "
                    "in the case of:")
DPIA_CASE_ITEMS = tuple(_under("a35-3", f"a35-3-{m}", f"Reg, Article 35(3)({m})", text) for m, text in (
    ("a", "(a) a systematic and extensive evaluation of personal aspects based on automated processing;"),
    ("b", "(b) processing on a large scale of special categories of data;")))
DPIA_CONTENT = _under("a35", "a35-7", "Reg, Article 35(7)", "7. The assessment shall contain at least:")
DPIA_CONTENT_ITEMS = tuple(_under("a35-7", f"a35-7-{m}", f"Reg, Article 35(7)({m})", text) for m, text in (
    ("a", "(a) a systematic description of the envisaged processing operations;"),
    ("b", "(b) an assessment of the risks to the rights and freedoms of data subjects;"),
    ("c", "(c) the measures envisaged to address the risks, including safeguards, to ensure the protection of "
          "personal data.")))
LEAD = _unit("a56", "Reg, Article 56", "article", "Article 56\nCompetence of the lead supervisory authority")
LEAD_DESIGNATED = _under("a56", "a56-1", "Reg, Article 56(1)",
                         "1. The supervisory authority of the main establishment of the controller or processor shall be "
                         "competent to act as lead supervisory authority for the cross-border processing carried out by "
                         "that controller or processor.")
LEAD_INTERLOCUTOR = _under("a56", "a56-6", "Reg, Article 56(6)",
                           "6. The lead supervisory authority shall be the sole interlocutor of the controller or "
                           "processor for the cross-border processing carried out by that controller or processor.")
FIT_CASES = {
    # "Which authority?" is answered by the paragraph that says which one is competent; the paragraph after it
    # names the lead supervisory authority as its subject and says what it does.
    "a who question descends to the paragraph that designates": (
        (LEAD, LEAD_DESIGNATED, LEAD_INTERLOCUTOR),
        "We have offices in three member states. Which data protection authority is our lead regulator for "
        "cross-border processing?", (LEAD_INTERLOCUTOR, LEAD_DESIGNATED, ACCESS_COPY), Kind.WHO,
        ["a56-6"], ["a56-1"]),
    # A list of cases ("required in the case of:") does not say what must be contained; the short lead-in that
    # does ("shall contain at least:", no heading for its few words) is the answer.
    "a list question descends from a list of cases to the elements": (
        (DPIA, DPIA_CASES, *DPIA_CASE_ITEMS, DPIA_CONTENT, *DPIA_CONTENT_ITEMS),
        "What's the minimum content of a data protection impact assessment?",
        (DPIA_CASES, DPIA_CONTENT, CONSULT_DUTY, ACCESS_COPY), Kind.LIST,
        ["a35-3"], ["a35-7"]),

    # Two paragraphs of one rule chosen for "how long": the one that states the period answers; the duty it
    # belongs to only restates the topic.
    "a deadline from the paragraph that states it, not its duty beside it": (
        CONSULTATION, HOW_LONG_ADVICE, (CONSULT_PERIOD, CONSULT_DUTY, ACCESS_COPY), Kind.DEADLINE,
        ["a36-2", "a36-1"], ["a36-2"]),
    # Paragraphs of two rules each answer their half: both stay.
    "a pair of two rules stays": (
        CONSULTATION, HOW_LONG_ADVICE, (CONSULT_PERIOD, CONSULT_DUTY, ACCESS_COPY), Kind.DEADLINE,
        ["a36-2", "a15-3"], ["a36-2", "a15-3"]),
    # The question names "Article 32", whose own unit is its heading: nothing of it can be quoted, so the
    # paragraph below that answers is cited, as for any heading.
    "a named heading is opened": (
        (SECURITY, SECURITY_MEASURES, SECURITY_CODES),
        "Our contract says the processor takes all measures required pursuant to Article 32. What security measures "
        "does that actually oblige the processor to implement?", (SECURITY,), None, ["a32"], ["a32-1"]),
    # Both paragraphs state a deadline; the processor's question is covered more by the processor's paragraph.
    "of two paragraphs stating a deadline, the one that covers the question": (
        BREACH_RULE, "We are a processor. If we get a personal data breach, how fast must the processor notify the "
        "controller?", (BREACH_CONTROLLER, BREACH_PROCESSOR), Kind.DEADLINE, ["a33-1"], ["a33-2"]),
    "the controller's deadline question keeps the controller's paragraph": (
        BREACH_RULE, "How long does the controller have to notify the supervisory authority of a personal data breach?",
        (BREACH_CONTROLLER, BREACH_PROCESSOR), Kind.DEADLINE, ["a33-1"], ["a33-1"]),
}


@pytest.mark.parametrize("case", list(FIT_CASES))
def test_the_fit_cites_the_paragraph_of_the_rule_that_answers(case, test_settings):
    units, question, evidence, kind, chosen, expected = FIT_CASES[case]
    fitted = _fitted(test_settings, _rule_graph(*units), question, evidence, kind, chosen)
    assert fitted.units == expected, fitted.notes


CONTROLLER = _unit("d7", "Reg, Article 4(7)", "definition",
                   "(7) ‘controller’ means the natural or legal person which determines the purposes and means of "
                   "the processing of personal data;")
PROCESSOR = _unit("d8", "Reg, Article 4(8)", "definition",
                  "(8) ‘processor’ means a natural or legal person which processes personal data on behalf of the "
                  "controller;")
INSTRUCTED = _unit("a29", "Reg, Article 29", "article",
                   "The processor and any person acting under the authority of the controller or of the processor, "
                   "who has access to personal data, shall not process those data except on instructions from the "
                   "controller.")


def test_a_definition_question_is_answered_by_the_definitions_of_the_terms_it_writes(test_settings):
    question = "We process data for our clients strictly following their instructions. Are we a controller or a processor?"
    deps = _deps(question, test_settings, (INSTRUCTED, CONTROLLER, PROCESSOR))
    fitted = fit(deps, Scorer.for_question(question, deps.ledger), Kind.DEFINITION, ["a29"])
    assert fitted.units == ["d7", "d8"], fitted.notes
    # Asked for something else, the same question's choice stands.
    assert fit(deps, Scorer.for_question(question, deps.ledger), None, ["a29"]).units == ["a29"]


DEFINITIONS = _unit("a4", "Reg, Article 4", "article", "Article 4\nDefinitions")
PERSONAL_DATA = UnitRecord(id="d1", label="Reg, Article 4(1)", type="definition", parent_id="a4",
                           text="(1) ‘personal data’ means any information relating to an identified or identifiable "
                                "natural person based in any place;")
AUTHORITY = UnitRecord(id="d21", label="Reg, Article 4(21)", type="definition", parent_id="a4",
                       text="(21) ‘supervisory authority’ means an independent public authority which is established "
                            "by a Member State;")
COMPLAINTS = _unit("a77", "Reg, Article 77", "article", "Article 77\nRight to lodge a complaint with a supervisory authority")
COMPLAINT = _under("a77", "a77-1", "Reg, Article 77(1)",
                   "1. Every data subject shall have the right to lodge a complaint with a supervisory authority, in "
                   "particular in the Member State of his or her habitual residence, if the data subject considers "
                   "that the processing of personal data relating to him or her infringes this Regulation.")


def test_a_who_question_leaves_a_definition_for_the_provision_that_names_who(test_settings):
    """A definition is a rule of its own: the other definitions of its article are not its paragraphs, so one of
    them naming an authority does not keep the definition cited; the provision that names whom to turn to is."""
    question = ("I live in Spain, but the online shop that misused my personal data is based in Ireland. Which data "
                "protection authority can I complain to?")
    graph = _rule_graph(DEFINITIONS, PERSONAL_DATA, AUTHORITY, COMPLAINTS, COMPLAINT)
    fitted = _fitted(test_settings, graph, question, (PERSONAL_DATA, COMPLAINT), Kind.WHO, ["d1"])
    assert fitted.units == ["a77-1"], fitted.notes


BOARD_ADVICE = _unit("a70-2", "Reg, Article 70(2)", "clause",
                     "Where the Commission requests advice from the Board, it may indicate a time limit, taking into "
                     "account the urgency of the matter and what the Board holds.")
PEER_REPLY = _unit("a61-2", "Reg, Article 61(2)", "clause",
                   "Each supervisory authority shall reply to a request of another supervisory authority without "
                   "undue delay and no later than one month after receiving the request.")
ACTION_TAKEN = _unit("a12-3", "Reg, Article 12(3)", "clause",
                     "The controller shall provide information on action taken on a request under Article 15 to the "
                     "data subject without undue delay and in any event within one month of receipt of the request.")


def test_a_deadline_question_takes_the_period_closest_in_meaning_not_the_one_sharing_its_everyday_words(test_settings):
    """A user's "how long do I have to reply" shares "reply" with another party's period and nothing with the
    controller's own, which says "provide information on action taken"; the chosen unit, which states no period,
    shares more ("hold"). The meaning says which period is the user's. Among the evidence that states the asked-for period, the closest in meaning is cited, when it stands
    near the chosen unit (KIND_MARGIN) and is no farther in meaning (SWITCH_DENSE)."""
    import numpy as np

    from core.answer.signals import Signals

    class _Stores:
        index = {"a70-2": 0, "a61-2": 1, "a12-3": 2}
        units: dict[str, UnitRecord] = {}  # no parents or titles: nothing transitional
        edges = None  # no citations held

    question = "A customer emailed asking for a copy of everything we hold about her. How long do I have to reply?"
    deps = AnswerDeps(settings=test_settings, corpus="eu", question=question, retriever=FakeRetriever(), graph=_Graph())
    deps.ledger.record_all(Evidence(u, "seed", u.id) for u in (BOARD_ADVICE, PEER_REPLY, ACTION_TAKEN))

    def fitted(dense: list[float]) -> list[str]:
        signals = Signals(_Stores(), np.zeros(2), None, np.array(dense), np.zeros(3))  # type: ignore[arg-type]
        return fit(deps, Scorer.for_question(question, deps.ledger), Kind.DEADLINE, ["a70-2"], signals).units

    assert fitted([0.34, 0.33, 0.35]) == ["a12-3"]
    # Every period clearly farther in meaning than the chosen unit: the choice stands.
    assert fitted([0.34, 0.20, 0.21]) == ["a70-2"]


NOTICE = _unit("a51-4", "Act, Article 51(4)", "clause",
               "The governor shall notify the applicant within 15 days of receiving an application for a change of the "
               "permit.")
BARRED = _unit("a55-4", "Act, Article 55(4)", "clause",
               "A person whose permit was revoked under paragraph 3 may not run the business for twelve months.")
OPERATORS = tuple(_unit(f"a6{i}", f"Act, Article 6{i}", "clause", text) for i, text in enumerate((
    "An ambulance operator shall run its business with clean vehicles.",
    "An ambulance operator shall run its business with trained staff.",
    "The governor may inspect an ambulance operator at any time.",
    "An ambulance operator shall report its fees to the governor.")))


def test_a_unit_with_the_deciding_word_replaces_one_that_covers_next_to_nothing_of_a_situation_question(test_settings):
    """A question told as a situation leaves every unit's cover small: the unit holding its deciding words covers
    0.20 of it, under MIN_COVER, and five times what the chosen unit covers, which only shares "permit"."""
    question = ("Our ambulance company's permit was revoked last month. How long do we have to wait before we can run "
                "the business again?")
    deps = _deps(question, test_settings, (NOTICE, BARRED, *OPERATORS))
    fitted = fit(deps, Scorer.for_question(question, deps.ledger), None, ["a51-4"])
    assert fitted.units == ["a55-4"], fitted.notes


MARRIAGE = _unit("d8", "Luật, Điều 8", "article", "Điều 8. Điều kiện kết hôn")
MARRIAGE_CONDITIONS = _under("d8", "d8-1", "Luật, Điều 8 khoản 1",
                             "1. Nam, nữ kết hôn với nhau phải tuân theo các điều kiện sau đây:")
MARRIAGE_AGE = _under("d8-1", "d8-1-a", "Luật, Điều 8 khoản 1 điểm a",
                      "a) Nam từ đủ 20 tuổi trở lên, nữ từ đủ 18 tuổi trở lên;")
MARRIAGE_FREE = _under("d8-1", "d8-1-b", "Luật, Điều 8 khoản 1 điểm b",
                       "b) Việc kết hôn do nam và nữ tự nguyện quyết định;")
TERMS = _unit("d3", "Luật, Điều 3", "article", "Điều 3. Giải thích từ ngữ")
EARLY_MARRIAGE = _under("d3", "d3-8", "Luật, Điều 3 khoản 8",
                        "8. Tảo hôn là việc lấy vợ, lấy chồng khi một bên hoặc cả hai bên chưa đủ tuổi kết hôn theo "
                        "quy định tại điểm a khoản 1 Điều 8 của Luật này.")


@pytest.mark.parametrize(("cites", "chosen", "expected"), [
    (True, ["d3-8", "d8-1-a"], ["d8-1-a"]),
    (False, ["d3-8", "d8-1-a"], ["d3-8", "d8-1-a"]),
    # With the citing provision gone, a paragraph of the stating rule that restates no figure goes as before.
    (True, ["d3-8", "d8-1-a", "d8-1-b"], ["d8-1-a"]),
])
def test_a_provision_that_only_refers_to_the_stated_figure_is_not_cited_beside_it(cites, chosen, expected,
                                                                                  test_settings):
    """An age asked for is stated by the rule (20 and 18 years); the term defined by reference to that rule ("chưa đủ
    tuổi kết hôn theo quy định tại điểm a khoản 1 Điều 8") adds no figure. A provision of another rule that does not
    cite it stays: it may answer another half of the question."""
    graph = _rule_graph(MARRIAGE, MARRIAGE_CONDITIONS, MARRIAGE_AGE, MARRIAGE_FREE, TERMS, EARLY_MARRIAGE)
    graph.edges = [Edge(source="d3-8", type=EdgeType.REFERENCES, target="d8-1-a")] if cites else []
    question = "Con trai tôi năm nay 19 tuổi, đòi cưới vợ. Cháu đã đủ tuổi để lấy vợ chưa?"
    fitted = _fitted(test_settings, graph, question, (EARLY_MARRIAGE, MARRIAGE_AGE, MARRIAGE_FREE), Kind.AMOUNT,
                     chosen)
    assert sorted(fitted.units) == expected, fitted.notes
