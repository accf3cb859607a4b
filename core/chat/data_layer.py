"""Chainlit's SQLAlchemy data layer, with a thread's steps and elements read back as the JSON they were stored as.

Chainlit (2.12) writes a step's metadata and an element's props with `json.dumps` through raw SQL, and `get_thread`
hands them back as the stored strings. A resumed chat then mounts each answer's cards and graph with a string for
props (no cards, an empty graph) and finds no answer snapshot in its steps' metadata. Here they are decoded once,
where the thread is read, for the chat page and every route that reads a thread.

The thread's own metadata stays a string: on resume Chainlit decodes it itself into the user session with a shallow
copy, and a dict decoded here would share its nested values with the thread it then sends to the browser (the
session's answer views among them, which are not JSON).
"""
from __future__ import annotations

import json
from typing import Any

from chainlit.data.sql_alchemy import SQLAlchemyDataLayer
from chainlit.logger import logger
from chainlit.types import ThreadDict


def _decoded(value: Any, where: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value) if value else {}
    except ValueError:
        # A row written by hand or cut short: shown empty, and said in the log, rather than failing the whole thread.
        logger.warning("stored JSON of %s could not be read; it is shown empty", where)
        return {}


class CitewalkDataLayer(SQLAlchemyDataLayer):
    async def get_thread(self, thread_id: str) -> ThreadDict | None:
        thread = await super().get_thread(thread_id)
        if thread is None:
            return None
        for step in thread.get("steps") or []:
            step["metadata"] = _decoded(step.get("metadata"), f"step {step.get('id')}")
        for element in thread.get("elements") or []:
            element["props"] = _decoded(element.get("props"), f"element {element.get('id')}")
        return thread
