"""The benches' one percentile: numpy's linear interpolation, 0.0 when a slice has no values."""
from __future__ import annotations

from bench.stats import percentile


def test_linear_between_closest_ranks() -> None:
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert percentile([float(v) for v in range(1, 21)], 95) == 19.05
    assert percentile([7.0], 99) == 7.0


def test_no_values_reports_zero() -> None:
    assert percentile([], 95) == 0.0
