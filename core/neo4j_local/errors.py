"""The one error type of the local server tooling."""
from __future__ import annotations


class Neo4jServerError(RuntimeError):
    """An expected failure with a message meant for the user (no traceback needed)."""
