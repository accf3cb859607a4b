"""Typed records that flow through the ingest pipeline: read → parse → find → resolve → write."""
from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class UnitType(StrEnum):
    DOCUMENT = "document"
    PART = "part"
    SUBPART = "subpart"
    CHAPTER = "chapter"
    SECTION = "section"
    ARTICLE = "article"
    RULE = "rule"
    PARAGRAPH = "paragraph"
    CLAUSE = "clause"
    POINT = "point"
    DEFINITION = "definition"
    PASSAGE = "passage"
    PREAMBLE = "preamble"  # citations and recitals before the enacting terms
    RECITAL = "recital"  # "Whereas: (1) …": reasons, not rules; outside the enacting terms
    ANNEX = "annex"


class EdgeType(StrEnum):
    CONTAINS = "CONTAINS"
    PART_OF = "PART_OF"
    REFERENCES = "REFERENCES"
    AMENDS = "AMENDS"
    REPLACES = "REPLACES"
    DELEGATES_TO = "DELEGATES_TO"
    SPECIFIES = "SPECIFIES"
    DEFINES = "DEFINES"


CITATION_EDGE_TYPES: tuple[EdgeType, ...] = (
    EdgeType.REFERENCES,
    EdgeType.AMENDS,
    EdgeType.REPLACES,
    EdgeType.DELEGATES_TO,
    EdgeType.SPECIFIES,
    EdgeType.DEFINES,
)


class LegalUnit(BaseModel):
    """One addressable piece of a regulation (document, part, section, paragraph, defined term…)."""

    id: str
    corpus: str
    document_id: str
    type: UnitType
    label: str = Field(description="as a lawyer writes it: '45 CFR 164.508(a)(2)(ii)', 'MIR 3.8.1'")
    title: str = ""
    text: str = ""
    parent_id: str | None = None
    order: int = 0
    tier: int = Field(default=1, description="authority tier: 1 = binding rule/statute; higher = weaker")
    metadata: dict[str, str] = Field(default_factory=dict)
    # Address keys this unit answers to when a citation names it (corpus-scoped, see citations/*).
    keys: list[str] = Field(default_factory=list)


class Document(BaseModel):
    """One source file's worth of units: the unit of atomic (re)writing."""

    id: str
    corpus: str
    title: str
    source_path: str
    names: list[str] = Field(default_factory=list, description="abbreviations and titles it is cited by")
    units: list[LegalUnit]


class Mention(BaseModel):
    """A citation found in the words of a unit, before resolution."""

    # Finders in several grammars build these: a misspelt field must fail, not be dropped without a word.
    model_config = ConfigDict(extra="forbid")

    source_id: str
    text: str
    start: int
    end: int
    keys: list[str] = Field(description="candidate address keys, finest first; later ones are ancestors")
    edge_type: EdgeType = EdgeType.REFERENCES
    inferred: bool = Field(default=False, description="True for uses of a defined term, not written citations")
    typed: bool = Field(default=False, description="the finder typed the edge from the citation's own grammar; "
                        "context words must not retype it")
    name: str | None = Field(default=None, description="the cited act and provision as a lawyer writes them, "
                             "naming the External node when the target is not ingested")
    pair: EdgeType | None = Field(default=None, description="also store the reverse edge of this type when resolved "
                                  "(SPECIFIES ↔ DELEGATES_TO)")
    action: str | None = Field(default=None, description="amendment instruction: replaced, inserted, deleted, amended")


class Edge(BaseModel):
    source: str
    target: str
    type: EdgeType
    citation: str | None = None
    start: int | None = None
    end: int | None = None
    resolution: str = Field(default="exact", description="exact | ancestor | external | structure | inferred")
    in_cycle: bool = False
    action: str | None = None  # amendment instruction (replaced, inserted, deleted, amended), from Mention.action


class ExternalRef(BaseModel):
    """A citation to something outside the corpus: kept as a node, never dropped."""

    id: str
    corpus: str
    raw: str


class ParseFailure(BaseModel):
    path: str
    problem: str

    def line(self) -> str:
        return f"{self.path}: {self.problem}"
