"""The records every floor shares: legal units and documents as ingest builds them, the typed edges between
them as ingest writes them and readers get them back, and the edge and unit vocabularies."""
from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, Field, WithJsonSchema
from pydantic.json_schema import SkipJsonSchema


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


class ExternalRef(BaseModel):
    """A citation to something outside the corpus: kept as a node, never dropped."""

    id: str
    corpus: str
    raw: str


def _is_none(value: object) -> bool:
    return value is None


# One typed edge between two units (or a unit and an External), direction as stored. Source, type and target are
# the edge; the rest is provenance only the ingest knows (where the citation is written, how it resolved).
# Provenance at its default is not written out, so an edge read back from the graph, a retrieval path's step or an
# answer's chain serialises as its three fields, as stored answers, share links and API responses have always held
# them. No docstring on purpose: it would become the description in the answer schema the model is shown.
class Edge(BaseModel):
    source: str
    # Ingest builds EdgeType members (compared by identity there); edges read back from Neo4j or named by the model
    # keep the string they came with, so a model's unknown type reaches the answer validator and is named there.
    type: Annotated[EdgeType | str, WithJsonSchema({"title": "Type", "type": "string"})]
    target: str
    citation: SkipJsonSchema[str | None] = Field(default=None, exclude_if=_is_none)
    start: SkipJsonSchema[int | None] = Field(default=None, exclude_if=_is_none)
    end: SkipJsonSchema[int | None] = Field(default=None, exclude_if=_is_none)
    resolution: SkipJsonSchema[str] = Field(default="exact", exclude_if=lambda v: v == "exact",
                                            description="exact | ancestor | external | structure | inferred")
    in_cycle: SkipJsonSchema[bool] = Field(default=False, exclude_if=lambda v: v is False)
    # amendment instruction (replaced, inserted, deleted, amended), from Mention.action
    action: SkipJsonSchema[str | None] = Field(default=None, exclude_if=_is_none)

    def full_dump(self) -> dict[str, Any]:
        """Every field, defaults included: the form ingest's content hashes were computed over."""
        return {name: getattr(self, name) for name in type(self).model_fields}
