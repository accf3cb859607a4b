"""The one percentile every bench reports (latency p50/p95/p99)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def percentile(values: Sequence[float], q: float) -> float:
    """q in 0..100: linear interpolation between the closest ranks (numpy's default, Hyndman–Fan type 7).

    0.0 for no values, so an empty slice of a run reports instead of failing.
    """
    if len(values) == 0:
        return 0.0
    return float(np.percentile(values, q))
