"""The sentence-transformers model through ONNX Runtime: exported once per machine and reused, keyed by the model's
files, close to the PyTorch fp32 model in sentence and token vectors, with fp32 PyTorch still a setting."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.answer.soft_match import TokenReader, reader_for
from core.embeddings import SENTENCE_TRANSFORMERS, EmbeddingModelError, get_embedder, onnx_export
from core.embeddings.onnx_export import MODEL_FILE, ONNX_INT8, TORCH, export_key, exported_model
from core.embeddings.ort_encoder import OrtEncoder
from core.embeddings.sentence import SentenceTransformerEmbedder, model_path
from core.settings import REPO_ROOT, Settings
from ingest.graph import build_graph
from ingest.reading import vector_plan

SENTENCES = [
    "A covered entity may disclose protected health information to a public health authority.",
    "The Regulator may impose a financial penalty on an Authorised Person that contravenes these Rules.",
    "Personal data shall be processed lawfully, fairly and in a transparent manner.",
    "An individual has a right to request restriction of uses and disclosures of their health information.",
]


@pytest.fixture(scope="module")
def int8() -> SentenceTransformerEmbedder:
    loaded = get_embedder(Settings(embedding_runtime=ONNX_INT8), SENTENCE_TRANSFORMERS)
    assert isinstance(loaded, SentenceTransformerEmbedder)
    return loaded


@pytest.fixture(scope="module")
def fp32() -> SentenceTransformerEmbedder:
    loaded = get_embedder(Settings(embedding_runtime=TORCH), SENTENCE_TRANSFORMERS)
    assert isinstance(loaded, SentenceTransformerEmbedder)
    return loaded


def test_the_int8_model_runs_in_onnx_runtime_and_the_torch_setting_in_pytorch(int8, fp32):
    assert isinstance(int8.model[0].auto_model, OrtEncoder)
    assert not isinstance(fp32.model[0].auto_model, OrtEncoder)
    assert fp32.name == model_path(Settings()) and int8.name != fp32.name
    assert (Path(int8.name) / MODEL_FILE).is_file()
    vectors = fp32.embed(SENTENCES)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_the_default_onnx_model_gives_pytorchs_vectors(fp32):
    default = get_embedder(Settings(), SENTENCE_TRANSFORMERS)
    assert isinstance(default.model[0].auto_model, OrtEncoder)
    assert np.allclose(default.embed(SENTENCES), fp32.embed(SENTENCES), atol=1e-5)
    assert np.allclose(default.embed_queries(SENTENCES[:2], 1), fp32.embed_queries(SENTENCES[:2], 1), atol=1e-5)


def test_int8_vectors_are_close_to_fp32_ones(int8, fp32):
    for got, want in ((int8.embed(SENTENCES), fp32.embed(SENTENCES)),
                      (int8.embed_queries(SENTENCES[:2], 1), fp32.embed_queries(SENTENCES[:2], 1))):
        cosines = np.sum(got * want, axis=1)
        assert cosines.min() > 0.99, cosines
    # Each sentence is still nearest to itself across the two models.
    assert list(np.argmax(int8.embed(SENTENCES) @ fp32.embed(SENTENCES).T, axis=1)) == list(range(len(SENTENCES)))


def test_the_answers_token_vectors_come_from_onnx_runtime_and_match_fp32(int8, fp32):
    reader = reader_for(int8)
    assert isinstance(reader, TokenReader)
    [got], [want] = reader.read([SENTENCES[0]]), TokenReader(fp32.token_model).read([SENTENCES[0]])
    assert got.pieces == want.pieces
    assert float(np.mean(np.sum(got.vectors * want.vectors, axis=1))) > 0.97
    # The question's token vectors are kept from the pass that embedded it, as with PyTorch.
    int8.embed_queries([SENTENCES[1]])
    kept = int8.question_tokens([SENTENCES[1]])
    assert kept is not None and kept[0][1].shape[1] == int8.dimension


def test_a_second_load_reuses_the_export(int8, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_export, "_export", never)
    settings = Settings(embedding_runtime=ONNX_INT8)
    assert exported_model(model_path(settings), ONNX_INT8, settings.cache_dir) == Path(int8.name)
    again = SentenceTransformerEmbedder(settings)  # a new process's load, without the per-process cache
    assert again.name == int8.name
    assert np.allclose(again.embed(SENTENCES[:1]), int8.embed(SENTENCES[:1]), atol=1e-5)


def test_the_export_key_follows_the_model_files_and_the_runtime(tmp_path: Path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"weights")
    first = export_key(str(model), ONNX_INT8)
    assert export_key(str(model), ONNX_INT8) == first
    assert export_key(str(model), "onnx") != first
    (model / "model.safetensors").write_bytes(b"retrained")
    assert export_key(str(model), ONNX_INT8) != first


def test_int8_vectors_are_cached_apart_from_fp32_ones(int8, fp32, tmp_path: Path):
    settings = Settings(cache_dir=tmp_path)
    int8_cache, fp32_cache = int8.cache_for(settings), fp32.cache_for(settings)
    assert int8_cache is not None and fp32_cache is not None and int8_cache.path != fp32_cache.path
    fp32.embed(SENTENCES[:1], cache=fp32_cache)
    assert int8_cache.lookup(SENTENCES[:1]) == {}


def test_a_failed_export_leaves_nothing_and_names_the_fp32_setting(tmp_path: Path, monkeypatch):
    def broken(model: str, runtime: str, out: Path) -> dict:
        (out / "plain.onnx").write_bytes(b"half")
        raise RuntimeError("exporter crashed")

    monkeypatch.setattr(onnx_export, "_export", broken)
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    with pytest.raises(EmbeddingModelError, match="CITEWALK_EMBEDDING_RUNTIME=torch"):
        exported_model(str(model), ONNX_INT8, tmp_path / "cache")
    assert [p.name for p in (tmp_path / "cache" / "onnx").iterdir() if not p.name.endswith(".lock")] == []


def test_an_unknown_runtime_is_refused_when_settings_load():
    with pytest.raises(ValueError, match="CITEWALK_EMBEDDING_RUNTIME"):
        Settings(embedding_runtime="tensorrt")


def test_passages_read_in_batches_keep_the_vectors_each_text_gets_alone(adgm_dir: Path):
    """An ingest's passages go to the fp32 export in length-sorted padded batches (core.embeddings.ort_passages);
    each vector stays what the export gives the text alone through sentence-transformers, to cosine 0.9999, over
    ADGM windows of every length (so retrieval and answers do not move)."""
    default = get_embedder(Settings(), SENTENCE_TRANSFORMERS)
    assert isinstance(default, SentenceTransformerEmbedder)
    assert default.passages is not None and default.passages.batch > 1
    graph = build_graph([adgm_dir], "adgm")
    texts = [w.text for d in graph.documents for _, w in vector_plan(d, default)]
    sample = [*texts[:: max(1, len(texts) // 120)][:120], "x", "   spaces around   ", max(texts, key=len)]
    got = default.embed(sample)
    alone = default.model.encode(sample, batch_size=1, normalize_embeddings=True, convert_to_numpy=True)
    cosines = np.sum(got * alone, axis=1)
    assert cosines.min() >= 0.9999, (cosines.min(), sample[int(np.argmin(cosines))][:80])


def test_an_ingest_reads_passages_without_loading_torch_or_sentence_transformers():
    """Importing them takes seconds (7 s for torch alone on a busy machine) that a re-ingest of one edited file cannot
    spend; questions and the answer's reading still load them (the tests above)."""
    script = ("import sys\n"
              "from core.embeddings import get_embedder\n"
              "from core.settings import Settings\n"
              "embedder = get_embedder(Settings(embedding_cache=False))\n"
              "embedder.embed([w.text for w in embedder.windows('u', 'A covered entity may disclose. ' * 200)])\n"
              "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
