"""Loading every answerable corpus's stores before the first user arrives.

A cold process spends ~10 s loading the embedding model, the BM25 index and the vectors on its first
question; answering one throwaway question per corpus at start-up moves that cost out of a user's request.
"""
from __future__ import annotations

import asyncio
import logging
import time

from core.answer.service import answer_question_async
from core.retrieval.base import DEFAULT_METHOD
from core.settings import Settings
from core.stores.corpora import answerable_corpora

log = logging.getLogger("citewalk.warmup")
WARMUP_QUESTION = "What does this regulation require?"


async def warm_up(settings: Settings, method: str = DEFAULT_METHOD) -> dict[str, float]:
    """Seconds per corpus; a corpus that fails to load is logged and left cold (the app still starts)."""
    took: dict[str, float] = {}
    for corpus in await asyncio.to_thread(answerable_corpora, settings):
        started = time.perf_counter()
        try:
            # Extractive: the warm-up loads stores and models; asking a configured LLM would only cost its time.
            await answer_question_async(WARMUP_QUESTION, corpus, settings, method=method, model="extractive")
        except Exception:  # noqa: BLE001 — a broken corpus must not keep the others (or the app) down
            log.exception("warm-up of corpus %r failed; its first question will load it", corpus)
            continue
        took[corpus] = round(time.perf_counter() - started, 2)
    log.info("stores warmed up: %s", took)
    return took
