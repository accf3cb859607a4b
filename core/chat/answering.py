"""Where a chat or API question is answered: in its corpus's own process, or here."""
from __future__ import annotations

import logging

from core.answer.events import NoticeEvent
from core.answer.models import AnswerEnvelope
from core.chat.controls import RunOptions
from core.chat.corpus_hosts import HostFailed, has_host, hosted_envelope
from core.chat.local_answer import EventHandler, local_envelope
from core.retrieval.reload import is_open
from core.settings import Settings

log = logging.getLogger("citewalk.answering")
HOST_FALLBACK = "Answered by the chat process: the corpus's own answering process failed"


def answered_apart(settings: Settings, corpus: str) -> bool:
    """A corpus this process has not opened (the warm-up opens those there are at start-up) is opened and answered
    in a process of its own, and once it has one, always there."""
    return settings.answer_processes and (has_host(settings, corpus) or not is_open(settings, corpus))


async def chat_envelope(question: str, options: RunOptions, settings: Settings, on_event: EventHandler, *,
                        for_api: bool = False) -> AnswerEnvelope | None:
    """The answer with its progress events; what the chat shows and what `POST /api/ask` returns (`for_api`) meet
    here. Computed here or in the corpus's own process (`answered_apart`); when that process fails, here, saying so."""
    if not answered_apart(settings, options.corpus):
        return await local_envelope(question, options, settings, on_event, for_api=for_api)
    try:
        return await hosted_envelope(question, options, settings, on_event, for_api=for_api)
    except HostFailed as exc:
        log.error("answered in the chat process instead: %s", exc)
        await on_event(NoticeEvent(text=f"{HOST_FALLBACK} ({exc})"))
        envelope = await local_envelope(question, options, settings, on_event, for_api=for_api)
        if envelope is not None:
            envelope.notices.append(HOST_FALLBACK)
        return envelope
