"""One progress line for an ingest on a terminal: units done, units per second, time left.

Counted in legal units ("3/4 documents" says nothing of a 40,000-unit document). Nothing is shown with `--quiet`,
nor when stderr is not a terminal (a log file would fill with carriage returns).
"""
from __future__ import annotations

import threading

from tqdm import tqdm


class Progress:
    """Thread-safe: the vector side of the pipeline advances it from its own thread."""

    def __init__(self, desc: str, total: int, quiet: bool) -> None:
        # disable=None: tqdm shows the bar only on a terminal.
        self._bar = tqdm(desc=desc, total=total, unit="unit", disable=True if quiet else None, leave=False,
                         dynamic_ncols=True, smoothing=0.1)
        self._lock = threading.Lock()

    def advance(self, units: int) -> None:
        if units:
            with self._lock:
                self._bar.update(units)

    def close(self) -> None:
        with self._lock:
            self._bar.close()
