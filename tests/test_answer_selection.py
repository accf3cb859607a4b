"""What the extractive answerer cites, without stores: rank and word overlap decide."""
from __future__ import annotations

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.selection import Scorer, choose_units
from core.answer.signals import clauses
from core.domain import Edge
from core.stores.queries import UnitRecord


def _ledger(units: list[tuple[str, str, int | None]], edges: list[tuple[str, str, str]]) -> EvidenceLedger:
    ledger = EvidenceLedger()
    for uid, text, rank in units:
        role = "seed" if rank is not None else "referenced"
        ledger.record(Evidence(UnitRecord(id=uid, label=uid, text=text), role, rank=rank))
    for s, t, ty in edges:
        ledger.record_edge(Edge(source=s, type=ty, target=t))
    return ledger


def test_a_hit_that_answers_the_question_is_cited_alone_not_with_what_it_cites():
    ledger = _ledger(
        [("A", "A firm must notify the Regulator of any breach of its systems within five days.", 1),
         ("B", "Fees are payable annually.", None)],
        [("A", "B", "REFERENCES")],
    )
    q = "Within how many days must a firm notify the Regulator of a breach of its systems?"
    selection = choose_units(ledger, Scorer.for_question(q, ledger))
    assert [c.evidence.unit.id for c in selection.choices] == ["A"] and selection.edge is None


def test_the_cited_provision_joins_when_it_answers_the_other_half_of_the_question():
    ledger = _ledger(
        [("A", "A firm must notify the Regulator of any breach, as set out in Rule 9.1.", 1),
         ("B", "A firm must keep records for six years.", 2),
         ("C", "The written notice must state the remedial steps taken and the date of discovery.", None)],
        [("A", "C", "REFERENCES")],
    )
    q = "When must a firm notify the Regulator of a breach, and what must the written notice state?"
    selection = choose_units(ledger, Scorer.for_question(q, ledger))
    assert {c.evidence.unit.id for c in selection.choices} == {"A", "C"}
    assert selection.edge is not None and selection.edge.type == "REFERENCES"


def test_a_near_duplicate_second_hit_adds_nothing_and_is_not_cited():
    ledger = _ledger(
        [("A", "A firm must notify the Regulator of any breach promptly.", 1),
         ("B", "A firm must notify the Regulator of any breach promptly and in full.", 2)],
        [],
    )
    selection = choose_units(ledger, Scorer.for_question("Must a firm notify the Regulator of a breach?", ledger))
    assert [c.evidence.unit.id for c in selection.choices] == ["A"]


def test_nothing_retrieved_gives_an_empty_selection():
    assert choose_units(EvidenceLedger(), Scorer({}, "q")).choices == []


def test_weights_decide_between_one_and_two_units():
    from core.answer.selection import SET_WEIGHTS

    ledger = _ledger([("A", "Records must be kept.", 1), ("B", "Records must be kept in writing.", 2)], [])
    scorer = Scorer.for_question("Records kept?", ledger)
    cheap_second = dict(SET_WEIGHTS, second=10.0)
    assert len(choose_units(ledger, scorer, weights=cheap_second).choices) == 2
    assert len(choose_units(ledger, scorer).choices) == 1


def test_terms_keep_vietnamese_words_whole_and_drop_question_words():
    from core.answer.terms import terms_of

    assert terms_of("Người xem dưới 16 tuổi") == ["người", "xem", "dưới", "16", "tuổi"]
    assert "what" not in terms_of("What must a firm notify?") and "notifi" in terms_of("What must a firm notify?")


def test_vietnamese_terms_keep_the_syllables_that_happen_to_be_ascii():
    from core.answer.terms import terms_of

    # "an" and "y" are English stop words and "hay" stems to "hai" ("two"): read by the English tokenizer, the
    # headings "… Bộ Công an" and "… Bộ Y tế" lose the syllable that tells them apart.
    assert terms_of("Trách nhiệm của Bộ Công an") == ["trách", "nhiệm", "của", "bộ", "công", "an"]
    assert terms_of("Bộ Y tế") == ["bộ", "y", "tế"]
    assert "hay" in terms_of("Hợp đồng hay giao dịch") and "hai" not in terms_of("Hợp đồng hay giao dịch")
    # English text with a non-ASCII mark is still stemmed.
    assert terms_of("Uses and disclosures under § 164.508") == ["use", "disclosur", "164.508"]


def test_korean_terms_are_morphemes_so_a_particle_does_not_hide_a_shared_noun():
    from core.answer.terms import terms_of

    question = terms_of("제가 가진 헌혈증서를 돈을 받고 팔아도 되나요?")
    statute = terms_of("제14조에 따른 헌혈증서의 매매를 금지한다")
    assert {"헌혈", "증서"} <= set(question) & set(statute)
    assert "팔/V" in question and "되/V" not in question  # the asking verb weighs nothing
    assert "헌혈증서를" not in question


def test_clauses_split_two_part_questions_only():
    assert clauses("What must a firm do, and how does the Regulator respond?") == \
        ["What must a firm do", "how does the Regulator respond"]
    assert clauses("What must a valid authorization contain?") == ["What must a valid authorization contain"]


def test_phrase_coverage_counts_adjacent_word_pairs_of_either_end():
    from core.answer.selection import bigrams, phrase_coverage
    from core.lexical import tokenize

    question = bigrams(tokenize("What is the Capital Conservation Buffer and what capital must it comprise?"))
    buffer = bigrams(tokenize("The Capital Conservation Buffer requirement must comprise only CET1 Capital."))
    plan = bigrams(tokenize("Capital conservation plan: a firm must submit it."))
    assert phrase_coverage(question, buffer, plan) == phrase_coverage(question, buffer, set()) > \
        phrase_coverage(question, plan, set()) > 0
    assert phrase_coverage(set(), buffer, plan) == 0.0


def test_one_linked_pair_per_unordered_written_citation():
    from core.answer.selection import linked_pairs

    ledger = _ledger([("A", "a", 1), ("B", "b", 2)],
                     [("A", "B", "REFERENCES"), ("B", "A", "REFERENCES"), ("A", "B", "DEFINES"), ("A", "Z", "REFERENCES")])
    pairs = linked_pairs(ledger)
    assert len(pairs) == 1 and {pairs[0].source, pairs[0].target} == {"A", "B"}  # Z is not in the ledger


def test_clause_split_assigns_one_clause_to_each_end():
    import numpy as np

    from core.answer.selection import clause_split
    from core.answer.signals import Signals

    class _Stores:
        index = {"S": 0, "T": 1}

    vectors = {"S": np.array([1.0, 0.0]), "T": np.array([0.0, 1.0])}
    signals = Signals(_Stores(), np.array([0.6, 0.8]), np.array([[0.0, 1.0], [1.0, 0.0]]), np.zeros(2), np.zeros(2))
    signals.vector_of = vectors.get
    assert clause_split(signals, "S", "T") == 1.0  # clause 2 matches S, clause 1 matches T
    signals.clause_vectors = None
    assert abs(clause_split(signals, "S", "T") - (0.6 + 0.8) / np.sqrt(2)) < 1e-9


def test_follow_records_edges_between_search_hits_it_did_not_expand():
    from core.answer.deps import AnswerDeps
    from core.answer.tools import run_follow, run_search
    from core.settings import get_settings
    from tests.support.answer_fakes import FakeGraph, FakeRetriever

    deps = AnswerDeps(get_settings(), "fake", "q", FakeRetriever(), FakeGraph())
    run_search(deps, "Recognised Body systems controls Regulator notify")
    assert {"r1", "r2"} <= set(deps.ledger.ids())
    run_follow(deps, ["r3"], ["REFERENCES"])  # expands r3 only, which cites nothing
    assert ("r2", "REFERENCES", "r1") in deps.ledger.edges


def test_scorer_is_independent_of_term_order():
    """Equal coverage must tie exactly whatever order the weights were built in (the string-hash seed decides
    that order), so the tie-break, not float rounding, picks between equally good sentences."""
    weights = {"a": 0.1, "b": 0.2, "c": 0.3, "d": 0.6}
    forward, backward = Scorer(dict(weights)), Scorer(dict(reversed(list(weights.items()))))
    for scorer in (forward, backward):
        assert scorer.score_terms({"a", "b", "c"}) == scorer.score_terms({"d"})
    assert forward.score_terms({"a", "b", "c"}) == backward.score_terms({"a", "b", "c"})


def test_the_question_bigrams_a_unit_holds_are_those_of_all_its_bigrams():
    """The substring test matches whole adjacent terms only: a term that is a prefix of another, or two question
    terms far apart in the unit, is no pair."""
    from core.answer.selection import bigrams, grams_present, unit_tokens
    from core.lexical import tokenize

    unit = Evidence(UnitRecord(id="u", label="(a)", text="A firm must notify the Regulator within five business "
                               "days; notification of a notifiable event goes to the firm's regulator in writing."), "seed", rank=1)
    asked = bigrams(tokenize("Within how many days must a firm notify the Regulator in writing of an event?"))
    asked |= {("notif", "regul"), ("firm", "notifi"), ("day", "writing")}
    held = grams_present(asked, unit)
    assert held == asked & bigrams(unit_tokens(unit))
    assert ("notifi", "regul") in held and ("notif", "regul") not in held and ("day", "writing") not in held


def test_meaning_is_read_on_the_scale_the_weights_were_fitted_on():
    """e5 puts every unit of a question within a narrow band of cosines (0.83-0.93): read as MiniLM's, a clear lead
    in meaning counts for less than one place of search rank; stretched to MiniLM's scale it decides."""
    import numpy as np

    from core.answer.signals import Signals
    from core.answer.soft_match import vector_match

    def unit(cosine: float) -> np.ndarray:
        return np.array([cosine, np.sqrt(1 - cosine**2)])

    vectors = {"A": unit(0.88), "B": unit(0.91)}  # B is much closer in meaning on e5's scale; A ranks first
    question_vector = np.array([1.0, 0.0])

    def chosen(stretch: float) -> list[str]:
        class _Embedder:
            cosine_stretch = stretch
            token_model = None  # e5's way: the reading compares the vectors the corpus holds

        class _Stores:
            index = {"A": 0, "B": 1}
            units: dict[str, UnitRecord] = {}
            embedder = _Embedder()

        ledger = _ledger([("A", "The firm must notify the regulator.", 1),
                          ("B", "The firm must notify the regulator.", 2)], [])
        signals = Signals(_Stores(), question_vector, None, np.zeros(2), np.zeros(2))  # type: ignore[arg-type]
        signals.vector_of = vectors.get  # type: ignore[method-assign]
        signals.soft_match = (  # type: ignore[method-assign]
            lambda question, texts: vector_match([question_vector], {u: vectors[u] for u in texts}))
        return [c.evidence.unit.id for c in choose_units(ledger, Scorer.for_question("notify", ledger), signals).choices]

    assert chosen(1.0) == ["A"]  # MiniLM's scale: 0.03 of cosine is a small difference in meaning
    assert chosen((1 - 0.31) / (1 - 0.86)) == ["B"]  # e5's: the same 0.03 is a tenth of its whole range


def test_vietnamese_terms_drop_pronouns_and_interrogatives():
    from core.answer.terms import terms_of

    # A typed question's "tôi" and "ai", "gì", "bao nhiêu", "mấy" are not what it is about: no statute holds "tôi",
    # and "không ai được cản trở" must not win a "Ai sẽ được nuôi con?" on the word "ai".
    asked = terms_of("Tôi phải báo trước mấy giờ? Ai sẽ được nuôi con, cần giấy tờ gì, bao nhiêu tiền?")
    assert not {"tôi", "mấy", "ai", "gì", "nhiêu"} & set(asked)
    assert {"báo", "trước", "giờ", "nuôi", "con", "giấy", "tờ", "bao", "tiền"} <= set(asked)
    # Content a statute writes with the same syllables stays: "bao gồm", "bản sao", "chưa thành niên".
    assert {"bao", "sao", "chưa"} <= set(terms_of("Hồ sơ bao gồm bản sao giấy tờ của người chưa thành niên"))
