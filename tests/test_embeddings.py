"""The packaged model loads offline; long units become several windows that map back to one unit id."""
from __future__ import annotations

import numpy as np
import pytest

from core.embeddings import Embedder, EmbeddingModelError, get_embedder
from core.settings import Settings


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder(Settings())


def test_long_unit_is_split_into_windows_of_the_same_unit(embedder: Embedder):
    text = " ".join(f"word{i} covered entity disclosure" for i in range(400))
    windows = embedder.windows("u-1", text)
    assert len(windows) > 2
    assert windows[0].vector_id == "u-1" and all(w.unit_id == "u-1" for w in windows)
    assert len({w.vector_id for w in windows}) == len(windows)
    assert all(len(embedder.tokenizer(w.text, add_special_tokens=False)["input_ids"]) <= embedder.window_tokens + 2 for w in windows)


def test_vectors_are_normalised_and_order_preserved(embedder: Embedder):
    texts = ["a covered entity may disclose", "x", "psychotherapy notes require an authorization " * 5]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert np.allclose(vectors[1], embedder.embed(["x"])[0], atol=1e-5)


def test_missing_model_path_names_the_setting(tmp_path):
    with pytest.raises(EmbeddingModelError, match="CITEWALK_EMBEDDING_MODEL"):
        Embedder(Settings(embedding_model=str(tmp_path / "no-model")))
