"""The retrieval pool the template verifier checks against: the project's hybrid retriever, used as a black box."""
from __future__ import annotations

from core.retrieval.base import RetrievalRequest
from core.settings import Settings

POOL_METHOD = "hybrid"


def hybrid_pool(settings: Settings, corpus: str, k: int):
    """A function question → ranked unit ids (top k) from the registry's hybrid retriever."""
    from core.retrieval.registry import get_retriever  # written alongside; imported late so tests can inject a pool

    retriever = get_retriever(POOL_METHOD, settings)

    def pool(question: str) -> list[str]:
        result = retriever.retrieve(RetrievalRequest(question=question, corpus=corpus, k=k))
        return [hit.unit_id for hit in result.hits]

    return pool
