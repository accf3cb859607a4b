"""An answering process runs numpy's BLAS at Settings.answer_blas_threads (one by default): the answer's small
matrix products only wait on a second thread, and stall whenever another user's answer holds the other core."""
from __future__ import annotations

import asyncio

from threadpoolctl import threadpool_info

from core.answer.service import answer_question_async
from core.settings import Settings


def test_answering_sets_numpy_blas_to_one_thread(test_settings: Settings) -> None:
    asyncio.run(answer_question_async("", "no-corpus-needed", test_settings, model="extractive"))  # rejected early
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == test_settings.answer_blas_threads == 1 for pool in blas)
