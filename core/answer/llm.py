"""The OpenAI-compatible chat model named by the settings (OPENAI_BASE_URL, OPENAI_API_KEY, CITEWALK_LLM_MODEL)."""
from __future__ import annotations

from openai import AsyncOpenAI
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

from core.settings import Settings

# The SDK retries timeouts, connection errors, 429 and 5xx with exponential backoff; beyond that the
# service falls back to the extractive answer, so a short budget keeps a broken endpoint cheap.
HTTP_RETRIES = 2


def chat_model(settings: Settings, name: str) -> OpenAIChatModel:
    client = AsyncOpenAI(
        base_url=settings.openai_base_url,
        # Local OpenAI-compatible servers often need no key, but the SDK insists on one.
        api_key=settings.openai_api_key or "not-needed",
        timeout=settings.llm_timeout_s,
        max_retries=HTTP_RETRIES,
    )
    return OpenAIChatModel(name, provider=OpenAIProvider(openai_client=client))
