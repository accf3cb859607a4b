"""Question terms weigh by how much they say in the corpus (its BM25 index), not among the run's few hits."""
from __future__ import annotations

from core.analyzers import get_analyzer
from core.answer.deps import Evidence, EvidenceLedger
from core.answer.informative import corpus_weights, holding
from core.answer.selection import Scorer
from core.lexical import LexicalIndex
from core.stores.queries import UnitRecord

# A corpus where "last" and "week" are everyday words (dates, periods, names) and breach notification is a topic.
_EVERYDAY = [f"The patient plan must be reviewed each week and the last review dated, item {i}." for i in range(30)]
_CORPUS = {
    "name-rule": "Phase II CORE 258: Normalizing Patient Last Name Rule.",
    "notify": "A covered entity shall, following the discovery of a breach of unsecured protected health "
              "information, notify each individual whose information has been stolen or disclosed.",
    "timing": "Notice shall be provided without unreasonable delay and in no case later than 60 calendar days "
              "after discovery of a breach.",
    **{f"every-{i}": text for i, text in enumerate(_EVERYDAY)},
}


def _index() -> LexicalIndex:
    return LexicalIndex.build(list(_CORPUS), list(_CORPUS.values()))


def _ledger(hits: list[str]) -> EvidenceLedger:
    ledger = EvidenceLedger()
    for rank, uid in enumerate(hits, start=1):
        ledger.record(Evidence(UnitRecord(id=uid, label=uid, text=_CORPUS[uid]), "seed", rank=rank))
    return ledger


QUESTION = "Our laptop with unencrypted patient files was stolen last week. Who do we have to tell about the breach?"


def test_an_everyday_word_weighs_little_over_the_corpus_though_one_hit_alone_holds_it():
    ledger = _ledger(["name-rule", "notify", "timing"])
    among_hits = Scorer.for_question(QUESTION, ledger).weights
    over_corpus = Scorer.for_question(QUESTION, ledger, _index()).weights
    # Among three hits "last" is rarer than "breach"; weighed by the corpus as well, it is the everyday word it is.
    assert among_hits["last"] > among_hits["breach"]
    assert over_corpus["last"] < over_corpus["breach"]
    assert over_corpus["week"] < over_corpus["stolen"]


def test_the_rule_sharing_only_the_incidental_words_covers_less_of_the_question():
    ledger = _ledger(["name-rule", "notify", "timing"])
    among_hits = Scorer.for_question(QUESTION, ledger)
    over_corpus = Scorer.for_question(QUESTION, ledger, _index())
    # Among the hits, "patient" and "last" (the name rule's) weigh more than "breach" (held by two hits).
    assert among_hits.score(_CORPUS["name-rule"]) > among_hits.score(_CORPUS["notify"])
    assert over_corpus.score(_CORPUS["name-rule"]) < over_corpus.score(_CORPUS["notify"])


def test_a_term_no_unit_holds_weighs_most_and_counts_are_per_unit():
    index = _index()
    assert holding(index, ["week", "breach", "zebra"]) == {"week": 30, "breach": 2, "zebra": 0}
    weights = corpus_weights(index, ["week", "breach", "zebra"])
    assert weights["zebra"] > weights["breach"] > weights["week"] > 0


def test_words_the_index_joins_are_counted_by_their_pieces():
    """A Vietnamese index writes words of several syllables ("nhân_viên"); the answer matches syllables, so each
    syllable is counted in every word that holds it: "nhân" is everyday, though alone it is a rare word."""
    texts = ["nhân_viên phải báo cáo", "cá_nhân có quyền", "nhân_viên được nghỉ", "người lao_động làm việc"]
    analyzer = get_analyzer("vi-syllable/words")
    index = LexicalIndex.from_tokens([f"u{i}" for i in range(4)], [t.split() for t in texts], analyzer=analyzer)
    found = holding(index, ["nhân", "viên", "quyền", "động"])
    assert found == {"nhân": 3, "viên": 2, "quyền": 1, "động": 1}
