"""What a retrieval request may narrow to. Its own module: the corpus stores apply it, and the retriever
interface (base.py) names the stores, so neither can hold it without importing the other."""
from __future__ import annotations

from pydantic import BaseModel, Field


class Filters(BaseModel):
    document_ids: list[str] | None = None
    unit_types: list[str] | None = None
    include_repealed: bool = Field(default=False, description="repealed/expired units are excluded unless asked")
