"""Loading every answerable corpus's stores before the first user arrives.

One throwaway question per corpus at start-up moves a cold process's ~10 s of loading out of a user's request, and
its answer is read as the chat shows it (cards, history, source views) so Neo4j has planned those queries too.
"""
from __future__ import annotations

import asyncio
import logging
import time

from neo4j import Driver

from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question_async
from core.chat.evidence import answer_view
from core.render.source_view import card_sources
from core.retrieval.base import DEFAULT_METHOD
from core.retrieval.reload import wait_opened
from core.settings import Settings
from core.stores import heap
from core.stores.corpora import answerable_corpora
from core.stores.graph_reader import reader_for

log = logging.getLogger("citewalk.warmup")
WARMUP_QUESTION = "What does this regulation require?"


async def warm_up(settings: Settings, method: str = DEFAULT_METHOD, corpora: list[str] | None = None) -> dict[str, float]:
    """Seconds per corpus (every answerable one unless `corpora` names some); a corpus that fails to load is logged
    and left cold (the app still starts; its first question opens it). Then the heap is settled (core.stores.heap)."""
    took: dict[str, float] = {}
    for corpus in corpora if corpora is not None else await asyncio.to_thread(answerable_corpora, settings):
        started = time.perf_counter()
        try:
            # Extractive: the warm-up loads stores and models; asking a configured LLM would only cost its time.
            envelope = await answer_question_async(WARMUP_QUESTION, corpus, settings, method=method, model="extractive")
            if await asyncio.to_thread(wait_opened, settings, corpus):  # it outlasted a question's wait: again
                envelope = await answer_question_async(WARMUP_QUESTION, corpus, settings, method=method,
                                                       model="extractive")
            await asyncio.to_thread(_read_as_shown, settings, envelope)
        except Exception:  # noqa: BLE001 — a broken corpus must not keep the others (or the app) down
            log.exception("warm-up of corpus %r failed; its first question will load it", corpus)
            continue
        took[corpus] = round(time.perf_counter() - started, 2)
    log.info("stores warmed up: %s", took)
    await asyncio.to_thread(heap.settle)
    return took


def _read_as_shown(settings: Settings, envelope: AnswerEnvelope) -> None:
    def read(driver: Driver, database: str) -> int:
        return len(card_sources(driver, database, answer_view(driver, database, envelope)))

    reader_for(settings).call(read, 0)
