"""bench.open_stall's pooled figures: which questions count as asked while the cold corpus opened, and the step
timings read from those same questions."""
import json

import pytest

from bench.open_stall import (
    NULL_SAMPLES,
    Phase,
    bootstrap_interval,
    null_figures,
    null_samples,
    pool,
    pooled,
    pooled_control,
    same_window_figures,
    window_samples,
)


def _phase(name: str, asked: list[tuple[float, float]], composes: list[float],
           opening: tuple[float, float] | None = None) -> Phase:
    return Phase(name, asked=asked, steps=[{"compose": c, "search": 1.0} for c in composes], opening=opening)


def test_steps_while_opening_are_read_from_the_questions_that_overlapped_it():
    alone = _phase("alone", [(0.0, 0.1), (1.0, 0.1)], [10.0, 10.0])
    # Opening from 5 to 6 s: the question asked at 4.5 s for 1 s overlaps it, the ones at 1 s and 7 s do not.
    opening = _phase("opening", [(1.0, 0.1), (4.5, 1.0), (7.0, 0.1)], [10.0, 90.0, 10.0], opening=(5.0, 6.0))
    result = pooled([(alone, opening)])
    assert result["while the cold corpus opens"]["questions"] == 1
    assert result["steps while opening"]["compose"] == {"p50_ms": 90.0, "p95_ms": 90.0}
    assert result["steps alone"]["compose"] == {"p50_ms": 10.0, "p95_ms": 10.0}
    assert result["p95 while opening / p95 alone"] == 10.0


def test_the_same_window_of_the_alone_phase_is_the_baseline_of_an_opening():
    # Alone: a 0.9 s question asked at 4.5 s overlaps the window 5-6 s; the short ones at 1 s and 7 s do not.
    alone = _phase("alone", [(1.0, 0.1), (4.5, 0.9), (7.0, 0.1)], [10.0, 10.0, 10.0])
    opening = _phase("opening", [(4.8, 0.9)], [90.0], opening=(5.0, 6.0))
    result = pooled([(alone, opening)])
    assert result["alone, in the opening's window"]["questions"] == 1
    assert result["alone, in the opening's window"]["p95_s"] == 0.9
    assert result["p95 while opening / p95 alone in the same window"] == 1.0
    # Against the whole alone phase the same opening looks slower: its short questions pull the phase's p95 down.
    assert result["p95 while opening / p95 alone"] > 1.0


def test_a_new_question_s_window_is_compared_with_the_same_window_alone():
    alone = _phase("alone", [(0.0, 0.1), (5.2, 0.2)], [10.0, 10.0])
    opening = _phase("opening", [(5.5, 0.1)], [10.0], opening=(5.0, 6.0))
    control = _phase("control", [(5.1, 0.4)], [10.0], opening=(5.0, 5.5))
    result = pooled_control([(alone, opening)], [control])
    assert result["alone, in the new question's window"]["questions"] == 1
    assert result["p95 while a new question is answered / p95 alone in the same window"] == 2.0



def _round(alone_s: float, during_s: float) -> tuple[Phase, Phase]:
    return (_phase("alone", [(5.1, alone_s)], [10.0]), _phase("opening", [(5.1, during_s)], [10.0], opening=(5.0, 6.0)))


def test_the_interval_over_rounds_spans_rounds_that_disagree_and_closes_on_rounds_that_agree():
    agreeing = [_round(0.1, 0.12) for _ in range(5)]
    assert bootstrap_interval(window_samples(agreeing)) == [1.2, 1.2]
    # One round twice as slow while opening, one twice as fast: the interval holds both, and 1.0 within it.
    disagreeing = [_round(0.1, 0.2), _round(0.2, 0.1), _round(0.1, 0.1)]
    low, high = bootstrap_interval(window_samples(disagreeing))
    assert low < 1.0 < high
    assert bootstrap_interval(window_samples(agreeing[:1])) is None  # one round says nothing of the spread
    assert pooled(disagreeing)["same-window ratio per round"] == [2.0, 0.5, 1.0]


def test_runs_pooled_give_the_figures_of_their_rounds_taken_together(tmp_path):
    first, second = [_round(0.1, 0.2), _round(0.2, 0.1)], [_round(0.1, 0.1)]
    paths = []
    for name, rounds in (("a.json", first), ("b.json", second)):
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps({"same-window samples": window_samples(rounds)}))
    together = pool(paths)
    assert together["rounds"] == 3
    assert together["same-window ratio per round"] == pooled(first + second)["same-window ratio per round"]
    assert together["same-window ratio, 95 % interval over rounds"] == bootstrap_interval(window_samples(first + second))


def test_the_null_reads_a_second_alone_phase_in_the_opening_s_window_against_the_first():
    alone, opening = _round(0.1, 0.3)
    # Users alone again: the 0.15 s question at 5.5 s falls in the opening's window (5-6 s), the one at 9 s does not.
    null = _phase("null", [(5.5, 0.15), (9.0, 2.0)], [10.0, 10.0])
    assert null_samples([(alone, opening)], [null]) == [([0.15], [0.1])]
    assert same_window_figures(null_samples([(alone, opening)], [null]), "with nothing opening")[
        "p95 with nothing opening / p95 alone in the same window"] == 1.5


def test_runs_pool_their_null_rounds_only_when_every_run_has_them(tmp_path):
    rounds = [_round(0.1, 0.2), _round(0.2, 0.1)]
    nulls = [_phase("null", [(5.1, 0.1)], [10.0]), _phase("null", [(5.1, 0.2)], [10.0])]
    with_null, without = tmp_path / "a.json", tmp_path / "b.json"
    with_null.write_text(json.dumps({"same-window samples": window_samples(rounds),
                                     NULL_SAMPLES: null_samples(rounds, nulls)}))
    without.write_text(json.dumps({"same-window samples": window_samples(rounds)}))
    assert pool([with_null])["nothing opening"]["p95 with nothing opening / p95 alone in the same window"] == 1.0
    assert "nothing opening" not in pool([with_null, without])


def test_pooling_a_file_that_is_not_there_or_not_a_run_names_it(tmp_path):
    missing, garbled = tmp_path / "missing.json", tmp_path / "garbled.json"
    garbled.write_text("{not json")
    for path in (missing, garbled):
        with pytest.raises(SystemExit) as stop:
            pool([path])
        assert str(path) in str(stop.value)


def test_with_a_null_the_opening_is_also_read_against_the_phase_after_it():
    alone, opening = _round(0.2, 0.3)
    null = _phase("null", [(5.5, 0.15)], [10.0])
    figures = null_figures(window_samples([(alone, opening)]), null_samples([(alone, opening)], [null]))
    assert figures["nothing opening"]["p95 with nothing opening / p95 alone in the same window"] == 0.75
    assert figures["while opening against nothing opening"][
        "p95 while opening / p95 with nothing opening in the same window"] == 2.0


def test_pooled_runs_give_their_first_rounds_and_the_rounds_after_apart(tmp_path):
    # Each run's first round is slow while opening (a process from nothing), the rounds after it are not.
    paths = []
    for name in ("a.json", "b.json"):
        rounds = [_round(0.1, 0.3), _round(0.1, 0.1), _round(0.1, 0.1)]
        nulls = [_phase("null", [(5.1, 0.1)], [10.0]) for _ in rounds]
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps({"same-window samples": window_samples(rounds),
                                         NULL_SAMPLES: null_samples(rounds, nulls)}))
    together = pool(paths)
    assert together["by round"]["round 1 of each run"]["p95 while opening / p95 alone in the same window"] == 3.0
    assert together["by round"]["rounds 2 on"]["p95 while opening / p95 alone in the same window"] == 1.0
    assert together["by round"]["rounds 2 on"]["questions while opening"] == 4
    against = together["while opening against nothing opening, by round"]["round 1 of each run"]
    assert against["p95 while opening / p95 with nothing opening in the same window"] == 3.0
