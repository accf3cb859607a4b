"""A clear first-stage lead is cited without reading the shortlist in context; a close race is still read.

The stores are CorpusStores built in memory over the units of each case, their vectors and the in-context reading
from the packaged embedding model.
"""
from __future__ import annotations

import numpy as np
import pytest

from core.answer.deps import Evidence, EvidenceLedger
from core.answer.selection import (
    CLEAR_MARGIN,
    READ_WEIGHTS,
    Candidate,
    Scorer,
    candidates,
    choose_units,
    clear_lead,
    ranked,
)
from core.answer.signals import Signals
from core.answer.soft_match import SoftMatch
from core.embeddings import Embedder, get_embedder
from core.lexical import LexicalIndex, unit_search_text
from core.retrieval.config import RetrievalConfig
from core.retrieval.fusion import scaled_to_best
from core.retrieval.stores import CorpusStores
from core.retrieval.unit_table import UnitTable
from core.settings import Settings
from core.stores.graph_reader import reader_for
from core.stores.queries import UnitRecord


class CountingSignals(Signals):
    """The stores' signals, counting how often the shortlist is read in context."""

    reads = 0

    def soft_match(self, question: str, texts: dict[str, str]) -> SoftMatch | None:
        self.reads += 1
        return super().soft_match(question, texts)


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder(Settings())


def _case(embedder: Embedder, question: str, hits: dict[str, str]) -> tuple[EvidenceLedger, Scorer, CountingSignals]:
    """Search hits in rank order over stores holding just them."""
    settings = Settings()
    ids = list(hits)
    texts = [unit_search_text(u, "", t) for u, t in hits.items()]
    stores = CorpusStores(
        settings=settings, corpus="clear-lead", config=RetrievalConfig(), lexical=LexicalIndex.build(ids, texts),
        embedder=embedder, collection=None, graph=reader_for(settings), unit_ids=ids, units=UnitTable.from_records({}),
        window_matrix=embedder.embed(texts), window_unit=np.arange(len(ids)), lexical_to_unit=np.arange(len(ids)),
        index={u: i for i, u in enumerate(ids)},
    )
    ledger = EvidenceLedger()
    for rank, (uid, text) in enumerate(hits.items(), start=1):
        ledger.record(Evidence(UnitRecord(id=uid, label=uid, text=text), "seed", rank=rank))
    vector = embedder.embed_query(question)
    signals = CountingSignals(stores, vector, None, stores.dense_scores(vector),
                              scaled_to_best(stores.lexical_scores(question)))
    return ledger, Scorer.for_question(question, ledger), signals


def _lead(ledger: EvidenceLedger, scorer: Scorer, signals: Signals) -> float:
    first = ranked(candidates(ledger, scorer, signals), ledger)
    return first[0][0] - first[1][0]


def test_a_hit_far_ahead_is_cited_without_reading_and_reading_would_cite_it_too(embedder: Embedder):
    question = "Within how many days must a firm notify the Regulator of a breach of its systems?"
    ledger, scorer, signals = _case(embedder, question, {
        "A": "A firm must notify the Regulator of any breach of its systems within five days.",
        "B": "Fees are payable annually to the Registrar.",
        "C": "The Board shall meet at least four times in each year.",
    })
    assert _lead(ledger, scorer, signals) >= CLEAR_MARGIN
    skipped = choose_units(ledger, scorer, signals)
    assert signals.reads == 0 and [c.evidence.unit.id for c in skipped.choices] == ["A"]
    read = choose_units(ledger, scorer, signals, weights=READ_WEIGHTS)  # the second stage, forced
    assert signals.reads == 1 and [c.evidence.unit.id for c in read.choices] == ["A"]


def test_two_hits_close_together_are_still_read(embedder: Embedder):
    question = "Must a firm notify the Regulator of a breach?"
    ledger, scorer, signals = _case(embedder, question, {
        "A": "A firm must notify the Regulator of any breach promptly.",
        "B": "A firm must notify the Regulator of any breach promptly and in full.",
    })
    assert _lead(ledger, scorer, signals) < CLEAR_MARGIN
    choose_units(ledger, scorer, signals)
    assert signals.reads == 1


def test_a_lead_is_clear_from_the_margin_on_or_when_nothing_else_is_a_candidate():
    one, two = Candidate(("A",), {}), Candidate(("B",), {})
    assert clear_lead([(1.0, one)])
    assert clear_lead([(2.0 + CLEAR_MARGIN, one), (2.0, two)])
    assert not clear_lead([(2.0 + CLEAR_MARGIN - 0.01, one), (2.0, two)])
