"""Parse → find → resolve, in memory: the graph a corpus yields, before anything is written."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from core.domain import Document, Edge, ExternalRef, LegalUnit
from ingest.citations.classify import classify_citation
from ingest.citations.terms import DefinedTermFinder
from ingest.citations.vi_inserted import keep_stored
from ingest.formats import pick_format
from ingest.models import Mention, ParseFailure
from ingest.resolve import KeyIndex, resolve_mentions, structure_edges
from ingest.stages import StageRecorder
from ingest.versions import StoredAct, Wording, merge_versions


class CorpusGraph(BaseModel):
    corpus: str
    format: str
    documents: list[Document] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    externals: list[ExternalRef] = Field(default_factory=list)
    failures: list[ParseFailure] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    wordings: dict[str, list[Wording]] = Field(default_factory=dict)  # act id → dated wordings (ingest.versions)

    def unit_count(self) -> int:
        return sum(len(d.units) for d in self.documents)


def find_mentions(documents: list[Document], finder, terms: DefinedTermFinder) -> list[Mention]:
    mentions: list[Mention] = []
    for document in documents:
        for unit in document.units:
            for mention in finder.find(unit, document):
                # A finder may type an edge itself (grammar-specific cues); otherwise the context decides.
                if mention.edge_type.value == "REFERENCES" and not mention.typed:
                    mention.edge_type = classify_citation(unit.text, mention.start, mention.end)
                mentions.append(mention)
            mentions.extend(terms.find(unit, document))
    return mentions


def build_graph(
    paths: list[Path], corpus: str, forced_format: str | None = None, recorder: StageRecorder | None = None,
    known_keys: Callable[[list[str]], dict[str, str]] | None = None,
    stored_insertions: Callable[[list[str]], list[LegalUnit]] | None = None,
    stored_acts: Callable[[set[str]], list[StoredAct]] | None = None,
) -> CorpusGraph:
    """The one parse → find → resolve path, each stage timed by the recorder.

    known_keys(document_ids) → stored address keys of the corpus's other documents, so citations into
    documents not re-read this run still resolve (ingest passes the Neo4j lookup; benchmarks pass None).
    stored_insertions(document_ids) → stored units that amending documents not re-read inserted into these
    (ingest.citations.vi_inserted.keep_stored puts them back, so the amenders' edges into them stay).
    stored_acts(name_keys) → stored acts with those names and their dated wordings: a version of one joins them
    (ingest.versions); without it, versions in the batch still become one act.
    """
    recorder = recorder or StageRecorder()
    with recorder.stage("parse") as stage:
        fmt = pick_format(paths, forced_format)
        parsed = fmt.parse(paths, corpus)
        merged = merge_versions(parsed.documents, stored_acts)
        stage.items = sum(len(d.units) for d in merged.documents)
    documents = merged.documents
    with recorder.stage("find citations") as stage:
        if stored_insertions is not None:
            keep_stored(documents, stored_insertions([d.id for d in documents]))
        finder = fmt.finder(documents)
        mentions = find_mentions(documents, finder, DefinedTermFinder(documents))
        stage.items = len(mentions)
    with recorder.stage("resolve") as stage:
        index = KeyIndex(documents)
        if known_keys is not None:
            index.add_fallback(known_keys([d.id for d in documents]))
        resolution = resolve_mentions(mentions, index, corpus)
        edges = structure_edges(documents) + resolution.edges
        stage.items = len(edges)
    return CorpusGraph(
        corpus=corpus, format=fmt.name, documents=documents, edges=edges, externals=resolution.externals,
        # A finder may warn about what it kept in a weaker form (an amending instruction with no target).
        failures=[*parsed.failures, *merged.failures], notes=[*parsed.notes, *getattr(finder, "warnings", [])],
        wordings=merged.wordings,
    )
