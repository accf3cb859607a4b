"""The OpenAI-compatible chat model named by the settings (OPENAI_BASE_URL, OPENAI_API_KEY, CITEWALK_LLM_MODEL)."""
from __future__ import annotations

from openai import AsyncOpenAI
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings

from core.settings import Settings

# One SDK retry for a transient 429/5xx or dropped connection. A slow model is not retried into a pile-up:
# each request's timeout is within the answer's deadline, and the deadline stops the whole run.
HTTP_RETRIES = 1


def chat_model(settings: Settings, name: str, extra: ModelSettings | None = None) -> OpenAIChatModel:
    """`extra` adds server-specific settings (e.g. llama.cpp's `extra_body`); the run's caps still apply over it."""
    client = AsyncOpenAI(
        base_url=settings.openai_base_url,
        # Local OpenAI-compatible servers often need no key, but the SDK insists on one.
        api_key=settings.openai_api_key or "not-needed",
        timeout=min(settings.llm_timeout_s, settings.llm_deadline_s),
        max_retries=HTTP_RETRIES,
    )
    return OpenAIChatModel(name, provider=OpenAIProvider(openai_client=client), settings=extra)
