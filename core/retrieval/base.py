"""The retrieval interface every method implements, and the typed results the agent and UI consume."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from core.domain import Edge
from core.retrieval.filters import Filters
from core.retrieval.stores import CorpusStores

# The method the chat, the API, the CLI and the benchmarks use unless told otherwise (a RETRIEVERS name). Here,
# not in the registry, so that the answer service can name it without importing every retriever.
DEFAULT_METHOD = "citewalk"


class RetrievalRequest(BaseModel):
    question: str
    corpus: str
    k: int = 10
    filters: Filters = Field(default_factory=Filters)


class Provenance(BaseModel):
    """Why a unit is in the list: a vector hit, a lexical hit, or reached from a seed over typed edges."""

    kind: Literal["dense", "lexical", "graph", "external"]
    rank: int | None = None
    score: float | None = None
    seed_id: str | None = None
    hops: int = 0
    path: list[Edge] = Field(default_factory=list, description="edges from the seed to this unit")


class RetrievedUnit(BaseModel):
    unit_id: str
    score: float
    label: str = ""
    title: str = ""
    text: str = ""
    document_id: str = ""
    type: str = ""
    provenance: list[Provenance] = Field(default_factory=list)
    context: list[str] = Field(default_factory=list, description="parent headings, top down (containment)")


class RetrievalResult(BaseModel):
    method: str
    hits: list[RetrievedUnit]
    timings_ms: dict[str, float] = Field(default_factory=dict)
    degraded: list[str] = Field(default_factory=list, description="visible notices, e.g. expansion skipped: Neo4j down")


class KeepsCorpusStores(Protocol):
    """A retriever whose ranking reads in-memory corpus stores; the answer's selection signals read the same ones.
    Every Retriever is one (its `corpus_stores` is abstract); code that only needs the stores asks for this."""

    def corpus_stores(self, corpus: str) -> CorpusStores | None: ...


class Retriever(ABC):
    name: str

    @abstractmethod
    def retrieve(self, request: RetrievalRequest) -> RetrievalResult: ...

    @abstractmethod
    def corpus_stores(self, corpus: str) -> CorpusStores | None:
        """The in-memory corpus stores the ranking reads (the answer's selection signals read them too), or None.
        Abstract, so that no wrapper silently switches those signals off by not passing its inner retriever's on."""
