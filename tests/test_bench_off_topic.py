"""The off-topic bench: the closeness signals it compares, read on the ingested HIPAA corpus, and its calibration of
each signal's line (all tuning corpora of a model; each corpus left out, as an unseen one would get its line; the
corpus's own answerable sets)."""
from __future__ import annotations

import pytest

from bench.off_topic import OFF, ON, SIGNALS, compare, line_for, signals
from core.answer.off_topic import closeness
from core.retrieval.reload import open_stores
from core.retrieval.stores import CorpusStores

ANSWERABLE = "Our hospital lost a laptop with patient files last week. How long do we have to tell the patients?"
ELSEWHERE = "What speed limit applies to trucks on rural highways?"


@pytest.fixture(scope="module")
def stores(test_settings, hipaa_corpus) -> CorpusStores:
    return open_stores(test_settings, hipaa_corpus)


def test_the_shipped_signal_is_the_answerers_closeness(stores):
    for question in (ANSWERABLE, ELSEWHERE):
        assert signals(stores, question)["neighbourhood"] == pytest.approx(closeness(stores, question), abs=1e-6)


def test_signals_are_ordered_as_their_definitions_say(stores):
    read = signals(stores, ANSWERABLE)
    assert set(read) == set(SIGNALS)
    # The nearest unit is at least the mean of the five nearest, which is at least the mean of the forty nearest;
    # reading the question's sentences too never lowers the best.
    assert read["nearest"] >= read["nearest_5"] >= read["neighbourhood"]
    assert read["nearest"] >= read["nearest_whole"] and read["neighbourhood"] >= read["neighbourhood_whole"]


def test_every_signal_puts_a_breach_question_closer_than_a_traffic_rule(stores):
    near, far = signals(stores, ANSWERABLE), signals(stores, ELSEWHERE)
    assert all(near[name] > far[name] + 0.05 for name in SIGNALS), (near, far)


def _set(name: str, corpus: str, role: str, values: list[float], model: str = "m") -> dict:
    return {"questions_file": name, "corpus": corpus, "model": model, "role": role,
            "per_question": [dict.fromkeys(SIGNALS, v) | {"closeness": v} for v in values]}


def test_a_line_declines_at_most_the_budget_of_every_answerable_set():
    assert line_for([[0.5, 0.6, 0.7], [0.4, 0.9]], 0.05) == 0.4
    assert line_for([[v / 100 for v in range(100)]], 0.05) == 0.05  # 5 of 100 below it


def test_a_corpus_left_out_gets_its_line_from_the_other_corpora_of_its_model():
    sets = [_set("a_on", "a", ON, [0.5, 0.6]), _set("a_off", "a", OFF, [0.3, 0.45]),
            _set("b_on", "b", ON, [0.4, 0.8]), _set("b_off", "b", OFF, [0.35, 0.2]),
            _set("c_on", "c", ON, [0.1, 0.2], model="other")]
    read = compare(sets, 0.05)["nearest"]
    # All corpora of the model: line 0.4 (b's lowest answerable). Corpus a left out: b's line 0.4; a's own: 0.5.
    assert read["a_off:a"] == {"role": OFF, "all": 0.5, "other_corpora": 0.5, "own_corpus": 1.0}
    assert read["b_on:b"] == {"role": ON, "all": 0.0, "other_corpora": 0.5, "own_corpus": 0.0}
    # Another model's corpus neither sets nor reads these lines; alone, it has no other corpus to take a line from.
    assert read["c_on:c"] == {"role": ON, "all": 0.0, "other_corpora": 0.0, "own_corpus": 0.0}
