"""Long units are cut into windows without the tokenizer warning that they are too long for the model."""
from __future__ import annotations

import io
import logging

from core.embeddings import get_embedder


def test_windowing_a_long_unit_warns_nothing(test_settings) -> None:
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    logger = logging.getLogger("transformers")
    logger.addHandler(handler)
    try:
        embedder = get_embedder(test_settings)
        windows = embedder.windows("u", "the covered entity must notify " * 400)
    finally:
        logger.removeHandler(handler)
    assert len(windows) > 1
    assert all(w.unit_id == "u" for w in windows)
    assert "longer than the specified maximum" not in log.getvalue()
