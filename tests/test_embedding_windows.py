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


def test_a_documents_windows_cut_at_once_are_those_cut_one_by_one(test_settings) -> None:
    """The ingest plans a document's windows in one tokenizer call (ingest.reading.vector_plan): every unit gets the
    windows it gets alone, a long one several, an empty one its id."""
    embedder = get_embedder(test_settings)
    texts = [("a", "A covered entity may disclose."), ("b", "  "), ("c", "the covered entity must notify " * 300),
             ("d", "Phase II CORE 258: Normalizing Patient Last Name Rule\n(ii) version 1.0"), ("e", "x " * 254)]
    assert embedder.windows_of(texts) == [embedder.windows(u, t) for u, t in texts]
    assert len(embedder.windows_of(texts)[2]) > 1
