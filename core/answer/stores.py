"""What a run reads from, opened once per process: the retriever (models and indexes are the slow part) and
the graph over the process's one Neo4j reader."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.answer.graph import GraphReader, Neo4jGraph
from core.answer.kept_reads import KeptGraph, kept_reads_for
from core.retrieval import registry
from core.retrieval.base import Retriever
from core.settings import Settings
from core.stores.graph_reader import UNAVAILABLE, reader_for
from core.stores.queries import versioned_units

_RETRIEVERS: dict[tuple[str, ...], Retriever] = {}


def make_retriever(settings: Settings, method: str) -> Retriever:
    """One retriever per (method, stores) for the process, whatever the corpus: it reads each corpus's stores from
    core.retrieval.reload, so no name a user types adds an entry here (an unknown method raises first)."""
    key = (method, str(settings.data_dir), str(settings.chroma_host), str(settings.neo4j_bolt_port))
    if key not in _RETRIEVERS:
        _RETRIEVERS[key] = registry.get_retriever(method, settings)
    return _RETRIEVERS[key]


@dataclass
class Stores:
    """What a run reads from; `graph_notice` says why the graph is missing when it is."""

    retriever: Retriever
    graph: GraphReader | None
    graph_notice: str | None = None
    search_k: int | None = None  # the search hits a run reads as its seeds (the chat's panel k); None: the default
    # The corpus's dated wordings by unit (acts ingested with versions, ingest.versions): a run as of a date reads
    # its units' words from them (core.answer.dated). Empty for a corpus without versions.
    wordings: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)


def open_stores(settings: Settings, corpus: str, method: str) -> Stores:
    """The retriever and the graph (what it says of single units kept per ingest: core.answer.kept_reads); Neo4j
    down gives graph=None and a notice (answers go on without expansion)."""
    retriever = make_retriever(settings, method)
    reader = reader_for(settings)
    driver = reader.driver_or_none()
    if driver is None:
        return Stores(retriever, None, UNAVAILABLE)
    none: dict[str, list[dict[str, Any]]] = {}  # the graph failing here is told by the run's first graph read
    wordings, _problem = reader.call(lambda d, database: versioned_units(d, database, corpus), none)
    return Stores(retriever, KeptGraph(Neo4jGraph(driver, reader.database), kept_reads_for(settings, corpus)),
                  wordings=wordings)
