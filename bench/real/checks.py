"""The record every real-regulation check returns, so one table and one JSON file hold them all."""
from __future__ import annotations

from pydantic import BaseModel


class Check(BaseModel):
    area: str  # "ko", "eu", "vi"
    name: str
    value: float | int | str
    target: str = ""  # as the issue states it, e.g. ">= 0.97"; empty for figures that are only reported
    ok: bool | None = None  # None for reported-only figures
    detail: dict = {}
