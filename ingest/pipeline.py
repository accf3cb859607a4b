"""The whole ingest run: parse → find → resolve → write graph → embed + write vectors → lexical index."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field
from tqdm import tqdm

from core.analyzers import choose_analyzer
from core.analyzers.script import detect_language
from core.domain import Document, Edge, EdgeType
from core.embeddings import Embedder, backend_for, get_embedder
from core.lexical import LexicalIndex, unit_search_text
from core.settings import Settings
from core.stores import chroma_store, graph_reader, neo4j_store, queries
from core.stores.chroma_store import ChromaUnitWriter, text_hash
from core.stores.embedding_cache import EmbeddingCache
from core.stores.file_lock import exclusive
from ingest.graph import CorpusGraph, build_graph
from ingest.models import ParseFailure
from ingest.reading import own_text, vector_plan
from ingest.stages import StageRecorder, StageStats
from ingest.versions import StoredAct, Wording, stored_act


class IngestSummary(BaseModel):
    corpus: str
    format: str
    documents: int = 0
    documents_written: int = 0
    documents_unchanged: int = 0
    units_by_type: dict[str, int] = Field(default_factory=dict)
    edges_by_type: dict[str, int] = Field(default_factory=dict)
    edges_by_resolution: dict[str, int] = Field(default_factory=dict)
    unresolved_count: int = 0
    unresolved_examples: list[str] = Field(default_factory=list)
    vectors_embedded: int = 0
    failures: list[ParseFailure] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    stages: list[StageStats] = Field(default_factory=list)
    dry_run: bool = False


def _progress(desc: str, total: int, unit: str, quiet: bool) -> tqdm:
    """Counted in the units of work (legal units, vector windows): "3/4 doc" says nothing of a 40,000-unit document."""
    return tqdm(desc=f"{desc:<18}", total=total, unit=unit, disable=quiet, leave=False)


def document_hash(document: Document, edges: list[Edge], model: str, wordings: list[Wording] | None = None) -> str:
    parts = [document.model_dump(mode="json"), [e.full_dump() for e in edges], model]
    if wordings:  # an act with versions: its dated wordings are part of what is stored
        parts.append([w.model_dump() for w in wordings])
    payload = json.dumps(parts, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def summarize(graph: CorpusGraph) -> IngestSummary:
    units = Counter(u.type.value for d in graph.documents for u in d.units)
    edges = Counter(EdgeType(e.type).value for e in graph.edges)
    resolutions = Counter(e.resolution for e in graph.edges)
    unresolved = [e.citation or e.target for e in graph.edges if e.resolution == "external"]
    return IngestSummary(
        corpus=graph.corpus, format=graph.format, documents=len(graph.documents),
        units_by_type=dict(sorted(units.items())), edges_by_type=dict(sorted(edges.items())),
        edges_by_resolution=dict(sorted(resolutions.items())), unresolved_count=len(unresolved),
        unresolved_examples=sorted(set(unresolved))[:10], failures=graph.failures, notes=graph.notes,
    )


def ingest_lock(settings: Settings) -> Path:
    """The file ingests into one data dir take turns on: two at once (two corpora loaded by one script) would
    race to create Chroma's tables and interleave their writes to the stores."""
    return settings.data_dir / "ingest.lock"


def run_ingest(
    paths: list[Path], corpus: str, settings: Settings, forced_format: str | None = None,
    dry_run: bool = False, quiet: bool = False, on_wait: Callable[[str], None] | None = None,
) -> IngestSummary:
    """`on_wait` is told, before this run waits, that another ingest into the data dir holds the stores."""
    recorder = StageRecorder()
    if dry_run:
        graph = build_graph(paths, corpus, forced_format, recorder)
        summary = summarize(graph)
        summary.dry_run = True
        summary.stages = recorder.stages
        return summary
    with exclusive(ingest_lock(settings), on_wait):
        return _write_ingest(paths, corpus, settings, forced_format, quiet, recorder)


def _write_ingest(paths: list[Path], corpus: str, settings: Settings, forced_format: str | None, quiet: bool,
                  recorder: StageRecorder) -> IngestSummary:
    with recorder.stage("connect"):
        driver = graph_reader.write_driver(settings)
        neo4j_store.ensure_schema(driver, settings.neo4j_database)
    try:
        graph = build_graph(
            paths, corpus, forced_format, recorder,
            known_keys=lambda docs: queries.stored_keys(driver, settings.neo4j_database, corpus, docs),
            stored_insertions=lambda docs: queries.stored_insertions(driver, settings.neo4j_database, corpus, docs),
            stored_acts=lambda keys: _stored_acts(driver, settings, corpus, keys),
        )
        summary = summarize(graph)
        if graph.documents:
            write_stores(graph, driver, settings, recorder, summary, quiet)
    finally:
        driver.close()
    summary.stages = recorder.stages
    return summary


def _stored_acts(driver, settings: Settings, corpus: str, keys: set[str]) -> list[StoredAct]:
    return [stored_act(row) for row in queries.stored_acts(driver, settings.neo4j_database, corpus, sorted(keys))]


def corpus_embedder(graph: CorpusGraph, settings: Settings) -> Embedder:
    """The backend that reads the corpus's language (core.embeddings.backend_for), loaded once per process."""
    language = detect_language(u.text for d in graph.documents for u in d.units)
    return get_embedder(settings, backend_for(settings, language))


def write_stores(graph: CorpusGraph, driver, settings: Settings, recorder: StageRecorder, summary: IngestSummary,
                 quiet: bool) -> None:
    with recorder.stage("load model"):
        chroma = chroma_store.client(settings)
        embedder = corpus_embedder(graph, settings)
    owned = neo4j_store.edges_owned_by(graph.documents, graph.edges)
    externals = {x.id: x for x in graph.externals}
    stored = queries.stored_hashes(driver, settings.neo4j_database, graph.corpus)
    changed: list[Document] = []
    with recorder.stage("write graph") as stage:
        progress = _progress("write graph", sum(len(d.units) for d in graph.documents), "unit", quiet)
        for document in graph.documents:
            progress.update(len(document.units))
            edges = owned.get(document.id, [])
            digest = document_hash(document, edges, embedder.name, graph.wordings.get(document.id))
            if stored.get(document.id) == digest:
                summary.documents_unchanged += 1
                continue
            doc_externals = [externals[e.target] for e in edges if e.target in externals]
            neo4j_store.write_document(driver, settings.neo4j_database, document, edges, doc_externals, digest)
            if document.id in graph.wordings:
                neo4j_store.write_wordings(driver, settings.neo4j_database, document.id, graph.corpus,
                                           [w.model_dump() for w in graph.wordings[document.id]])
            changed.append(document)
        progress.close()
        neo4j_store.remove_stale_externals(driver, settings.neo4j_database, graph.corpus)
        stage.items = len(changed)
    summary.documents_written = len(changed)
    # Every document, not only the changed ones: a run killed between the graph and vector writes
    # must still get its vectors; unchanged windows are recognised by hash and not re-embedded.
    with recorder.stage("embed + vectors") as stage:
        stage.items = write_vectors(graph.documents, chroma, embedder, graph.corpus, quiet, embedder.cache_for(settings))
        summary.vectors_embedded = stage.items
    with recorder.stage("lexical index") as stage:
        rows = queries.corpus_units(driver, settings.neo4j_database, graph.corpus)
        texts = [unit_search_text(r["label"], r["title"] or "", r["text"] or "") for r in rows]
        index = LexicalIndex.build([r["id"] for r in rows], texts,
                                   analyzer=choose_analyzer(settings.lexical_analyzer, texts))
        index.save(settings.lexical_path / graph.corpus)
        stage.items = len(rows)


def write_vectors(documents: list[Document], chroma, embedder: Embedder, corpus: str, quiet: bool,
                  cache: EmbeddingCache | None = None) -> int:
    writer = ChromaUnitWriter(chroma, corpus)
    todo_ids: list[str] = []
    todo_texts: list[str] = []
    todo_docs: list[str] = []
    todo_meta: list[dict] = []
    planning = _progress("plan vectors", sum(len(d.units) for d in documents), "unit", quiet)
    for document in documents:
        planning.update(len(document.units))
        existing = writer.existing(document.id)
        wanted: set[str] = set()
        for unit, window in vector_plan(document, embedder):
            wanted.add(window.vector_id)
            # The model is in the digest: a corpus re-indexed by another backend gets all its vectors anew.
            digest = text_hash(f"{embedder.name}\n{window.text}")
            if existing.get(window.vector_id) == digest:
                continue
            todo_ids.append(window.vector_id)
            todo_texts.append(window.text)
            # The stored document is the unit's own text (an article-reading backend embeds its article's).
            todo_docs.append(own_text(unit) if embedder.reads_articles else window.text)
            todo_meta.append({
                "unit_id": unit.id, "document_id": document.id, "corpus": corpus, "type": unit.type.value,
                "status": unit.metadata.get("status", "in_force"), "window": window.index, "text_hash": digest,
                "backend": embedder.backend, "embedder": embedder.name,
            })
        stale = [vid for vid in existing if vid not in wanted]
        if stale:
            writer.delete(stale)
    planning.close()
    # Chunks persist progress: a run killed while embedding keeps what it finished.
    chunk = 4096
    embedding = _progress("embed", len(todo_ids), "window", quiet)
    for start in range(0, len(todo_ids), chunk):
        end = start + chunk
        writer.upsert(todo_ids[start:end], embedder.embed(todo_texts[start:end], cache=cache), todo_meta[start:end],
                      todo_docs[start:end])
        embedding.update(len(todo_ids[start:end]))
    embedding.close()
    return len(todo_ids)
