"""The packaged model loads offline; long units become several windows that map back to one unit id."""
from __future__ import annotations

import numpy as np
import pytest

from core.embeddings import EmbeddingModelError, get_embedder
from core.embeddings.sentence import SentenceTransformerEmbedder
from core.settings import Settings


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    loaded = get_embedder(Settings())
    assert isinstance(loaded, SentenceTransformerEmbedder)
    return loaded


def test_long_unit_is_split_into_windows_of_the_same_unit(embedder: SentenceTransformerEmbedder):
    text = " ".join(f"word{i} covered entity disclosure" for i in range(400))
    windows = embedder.windows("u-1", text)
    assert len(windows) > 2
    assert windows[0].vector_id == "u-1" and all(w.unit_id == "u-1" for w in windows)
    assert len({w.vector_id for w in windows}) == len(windows)
    tokenizer = embedder.model.tokenizer  # the one sentence-transformers reads the windows with
    assert all(len(tokenizer(w.text, add_special_tokens=False)["input_ids"]) <= embedder.window_tokens + 2 for w in windows)


def test_vectors_are_normalised_and_order_preserved(embedder: SentenceTransformerEmbedder):
    texts = ["a covered entity may disclose", "x", "psychotherapy notes require an authorization " * 5]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert np.allclose(vectors[1], embedder.embed(["x"])[0], atol=1e-5)


def test_missing_model_path_names_the_setting(tmp_path):
    with pytest.raises(EmbeddingModelError, match="CITEWALK_EMBEDDING_MODEL"):
        SentenceTransformerEmbedder(Settings(embedding_model=str(tmp_path / "no-model")))


def test_cached_vectors_equal_fresh_ones_and_only_new_texts_are_embedded(embedder: SentenceTransformerEmbedder, tmp_path, monkeypatch):
    cache = embedder.cache_for(Settings(cache_dir=tmp_path))
    assert cache is not None and embedder.cache_for(Settings(cache_dir=tmp_path, embedding_cache=False)) is None
    texts = ["a covered entity may disclose", "the minimum necessary standard", "x"]
    fresh = embedder.embed(texts, cache=cache)
    encoded: list[list[str]] = []
    original = embedder._encode

    def counting(batch: list[str], progress: bool) -> np.ndarray:
        encoded.append(batch)
        return original(batch, progress)

    monkeypatch.setattr(embedder, "_encode", counting)
    again = embedder.embed([texts[2], "a new text", texts[0]], cache=cache)
    assert encoded == [["a new text"]]  # the two known texts came from the cache
    assert np.allclose(again[0], fresh[2], atol=1e-6) and np.allclose(again[2], fresh[0], atol=1e-6)
    assert np.allclose(again[1], original(["a new text"], False)[0], atol=1e-5)


def test_another_model_never_reads_these_vectors(embedder: SentenceTransformerEmbedder, tmp_path):
    from core.stores.embedding_cache import EmbeddingCache, model_identity

    model = tmp_path / "model"
    model.mkdir()
    (model / "weights.bin").write_bytes(b"one")
    first = model_identity(str(model))
    (model / "weights.bin").write_bytes(b"two!")  # retrained weights, same folder
    assert model_identity(str(model)) != first
    cache = EmbeddingCache(tmp_path / "cache", embedder.name, embedder.dimension)
    cache.store(["text"], embedder.embed(["text"]))
    assert set(cache.lookup(["text", "other"])) == {0}
    assert EmbeddingCache(tmp_path / "cache", str(model), embedder.dimension).lookup(["text"]) == {}


def test_an_unreadable_cache_embeds_everything(embedder: SentenceTransformerEmbedder, tmp_path):
    cache = embedder.cache_for(Settings(cache_dir=tmp_path))
    assert cache is not None
    cache.path.parent.mkdir(parents=True)
    cache.path.write_bytes(b"not a database")
    vectors = embedder.embed(["a covered entity may disclose"], cache=cache)
    assert np.allclose(vectors[0], embedder.embed(["a covered entity may disclose"])[0], atol=1e-5)
