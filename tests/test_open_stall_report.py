"""bench.open_stall's pooled figures: which questions count as asked while the cold corpus opened, and the step
timings read from those same questions."""
from bench.open_stall import Phase, pooled


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
