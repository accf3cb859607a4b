"""Wall time and peak resident memory per pipeline stage (RSS sampled in a background thread)."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psutil
from pydantic import BaseModel


class StageStats(BaseModel):
    name: str
    seconds: float
    peak_rss_mb: float
    items: int = 0


class StageRecorder:
    def __init__(self, interval: float = 0.05) -> None:
        self.stages: list[StageStats] = []
        self._interval = interval
        self._process = psutil.Process()

    @contextmanager
    def stage(self, name: str) -> Iterator[StageStats]:
        stats = StageStats(name=name, seconds=0.0, peak_rss_mb=0.0)
        peak = [self._process.memory_info().rss]
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(self._interval):
                peak[0] = max(peak[0], self._process.memory_info().rss)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        started = time.perf_counter()
        try:
            yield stats
        finally:
            stop.set()
            sampler.join()
            stats.seconds = round(time.perf_counter() - started, 3)
            stats.peak_rss_mb = round(max(peak[0], self._process.memory_info().rss) / 2**20, 1)
            self.stages.append(stats)
