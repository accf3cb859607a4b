"""Records only the ingest pipeline uses (found citations, parse failures); the shared ones are in core.domain."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.domain import EdgeType


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


class ParseFailure(BaseModel):
    path: str
    problem: str

    def line(self) -> str:
        return f"{self.path}: {self.problem}"
