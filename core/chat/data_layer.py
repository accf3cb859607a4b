"""Chainlit's SQLAlchemy data layer, with a thread's steps and elements read back as the JSON they were stored as.

Chainlit (2.12) stores step metadata and element props with `json.dumps` and `get_thread` returns the strings, so a
resumed chat would mount cards with string props and find no answer snapshot: they are decoded here, once. The
thread's own metadata stays a string: Chainlit decodes it itself on resume, and a dict decoded here would share
nested values with the thread it sends to the browser.
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
