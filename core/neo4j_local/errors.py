"""The one error type of the local server tooling."""
from __future__ import annotations

from core.domain import StoreError


class Neo4jServerError(StoreError):
    """An expected failure with a message meant for the user (no traceback needed)."""
