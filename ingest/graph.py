"""Parse → find → resolve, in memory: the graph a corpus yields, before anything is written."""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from ingest.citations.classify import classify_citation
from ingest.citations.terms import DefinedTermFinder
from ingest.formats import pick_format
from ingest.models import Document, Edge, ExternalRef, Mention, ParseFailure
from ingest.resolve import KeyIndex, resolve_mentions, structure_edges


class CorpusGraph(BaseModel):
    corpus: str
    format: str
    documents: list[Document] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    externals: list[ExternalRef] = Field(default_factory=list)
    failures: list[ParseFailure] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def unit_count(self) -> int:
        return sum(len(d.units) for d in self.documents)


def find_mentions(documents: list[Document], finder, terms: DefinedTermFinder) -> list[Mention]:
    mentions: list[Mention] = []
    for document in documents:
        for unit in document.units:
            for mention in finder.find(unit, document):
                # A finder may type an edge itself (grammar-specific cues); otherwise the context decides.
                if mention.edge_type.value == "REFERENCES":
                    mention.edge_type = classify_citation(unit.text, mention.start, mention.end)
                mentions.append(mention)
            mentions.extend(terms.find(unit, document))
    return mentions


def build_graph(paths: list[Path], corpus: str, forced_format: str | None = None) -> CorpusGraph:
    fmt = pick_format(paths, forced_format)
    parsed = fmt.parse(paths, corpus)
    documents = parsed.documents
    mentions = find_mentions(documents, fmt.finder(documents), DefinedTermFinder(documents))
    resolution = resolve_mentions(mentions, KeyIndex(documents), corpus)
    return CorpusGraph(
        corpus=corpus,
        format=fmt.name,
        documents=documents,
        edges=structure_edges(documents) + resolution.edges,
        externals=resolution.externals,
        failures=parsed.failures,
        notes=parsed.notes,
    )
