"""bench.open_stall's pooled figures: which questions count as asked while the cold corpus opened, and the step
timings read from those same questions."""
from bench.open_stall import Phase, pooled, pooled_control


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

