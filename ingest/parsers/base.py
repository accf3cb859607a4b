"""The contract every corpus parser implements: files → documents (ingest/formats.py pairs each with its finder)."""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field

from core.domain import Document
from ingest.models import ParseFailure


class CorpusParse(BaseModel):
    documents: list[Document] = Field(default_factory=list)
    failures: list[ParseFailure] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="non-fatal remarks, e.g. structure fallbacks")


class CorpusParser(Protocol):
    name: str

    def detect(self, paths: list[Path]) -> bool:
        """True when these input paths are in this format (used when --format is not given)."""
        ...

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        """Parse every file; a bad file becomes a ParseFailure and the others still parse."""
        ...
