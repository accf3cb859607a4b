"""Passage vectors of a plain sentence-transformers model (transformer → mean pooling → normalisation, like the
packaged MiniLM) straight from its ONNX export, with neither torch nor sentence-transformers loaded.

An ingest spends most of its time here. sentence-transformers' `encode` hands the export one text at a time
(core.embeddings.ort_encoder, which int8 needs); here the texts are tokenized in one batch call of the tokenizers
library, sorted by token count, and the fp32 export reads them in batches padded only to each batch's longest
text; mean pooling and normalisation are sentence-transformers' own formulas, in numpy. Padding is masked out of
attention, so a text's vector is the one it gets alone to float rounding (cosine > 0.99999, tests/
test_onnx_runtime.py). The int8 export still reads one text at a time: its activations are scaled per call, so in a
batch a text's vector would depend on its neighbours. Questions and the answer's token vectors still go through
sentence-transformers (core.embeddings.sentence), unchanged.

`plain_layout` says whether a model folder is one this module reads; any other model (a Dense layer, CLS pooling, a
default prompt, lower-casing done by sentence-transformers) goes through sentence-transformers' `encode`.
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.embeddings.base import EmbeddingModelError

TOKENIZER_FILE = "tokenizer.json"
# The inputs of an export this module feeds (a BERT-like transformer's): any other export goes through
# sentence-transformers.
KNOWN_INPUTS = frozenset({"input_ids", "attention_mask", "token_type_ids"})
PLAIN_MODULES = ("Transformer", "Pooling", "Normalize")
# An fp32 model call's texts, after sorting by length: up to this many tokens with padding (so a batch of short
# texts has many rows and one of long texts few: its activations stay in the CPU's cache) and this many texts.
BATCH_TOKENS = 2048
FP32_BATCH = 64


@dataclass(frozen=True)
class PlainLayout:
    """What a model folder says of a model read as transformer → mean pooling → normalisation."""

    folder: Path
    max_seq_length: int
    dimension: int


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def plain_layout(model_path: str) -> PlainLayout | None:
    """The layout of a model this module reads exactly as sentence-transformers does, or None."""
    folder = Path(model_path)
    try:
        modules = _json(folder / "modules.json")
        if [str(m["type"]).rsplit(".", 1)[-1] for m in modules] != list(PLAIN_MODULES) or modules[0]["path"]:
            return None
        pooling = _json(folder / modules[1]["path"] / "config.json")
        config = _json(folder / "sentence_bert_config.json")
        prompts = _json(folder / "config_sentence_transformers.json") if (
            folder / "config_sentence_transformers.json").is_file() else {}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    modes = {key for key, on in pooling.items() if key.startswith("pooling_mode") and on}
    plain = (modes == {"pooling_mode_mean_tokens"} and not config.get("do_lower_case")
             and isinstance(config.get("max_seq_length"), int) and not prompts.get("default_prompt_name")
             and isinstance(pooling.get("word_embedding_dimension"), int) and (folder / TOKENIZER_FILE).is_file())
    if not plain:
        return None
    return PlainLayout(folder, int(config["max_seq_length"]), int(pooling["word_embedding_dimension"]))


def load_tokenizer(layout: PlainLayout, max_tokens: int | None) -> Any:
    """The model's fast tokenizer, cutting encodings at `max_tokens` (None: never), padding none."""
    # Here, not at the top: the tokenizers library is the embedding model's, loaded with it.
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(layout.folder / TOKENIZER_FILE))
    except Exception as exc:
        raise EmbeddingModelError(f"cannot read the tokenizer {layout.folder / TOKENIZER_FILE} ({exc})") from exc
    tokenizer.no_padding()  # tokenizer.json may carry a fixed padding; batches are padded here
    if max_tokens is None:
        tokenizer.no_truncation()
    else:
        tokenizer.enable_truncation(max_length=max_tokens)
    return tokenizer


class OrtPassages:
    """Normalised passage vectors, in the order of the texts given, from `workers` threads calling one session."""

    def __init__(self, layout: PlainLayout, model_file: Path, inputs: Sequence[str], batch: int,
                 workers: int | None = None) -> None:
        self.layout = layout
        self.model_file = model_file
        self.inputs = list(inputs)
        self.batch = max(1, batch)
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.tokenizer = load_tokenizer(layout, layout.max_seq_length)
        self.session = self._open()  # fail at load, not at the first text

    def _open(self) -> Any:
        # One thread per call, and one call per core at a time (ONNX Runtime runs concurrent calls on one session):
        # each batch's products stay on one core, with no hand-off between threads at every operator.
        return cpu_session(self.model_file, threads=1)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.layout.dimension), dtype=np.float32)
        if not texts:
            return out
        # sentence-transformers strips each text before tokenizing it.
        encodings = self.tokenizer.encode_batch([text.strip() for text in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches: list[list[int]] = [[]]
        for i in order:  # the longest so far is this one: the batch's padded size if it joins
            if batches[-1] and (len(batches[-1]) >= self.batch
                                or (len(batches[-1]) + 1) * len(encodings[i].ids) > BATCH_TOKENS):
                batches.append([])
            batches[-1].append(i)
        work: queue.SimpleQueue[list[int]] = queue.SimpleQueue()
        for batch in batches:
            work.put(batch)
        workers = min(self.workers, len(batches))
        if workers == 1:
            self._run(work, encodings, out)
            return out
        # Each worker takes the next batch when it is free (a core busy elsewhere takes fewer); the session releases
        # the interpreter while it runs.
        errors: list[BaseException] = []
        threads = [threading.Thread(target=self._guarded, args=(work, encodings, out, errors),
                                    name=f"passages-{w}", daemon=True) for w in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return out

    def _guarded(self, work: queue.SimpleQueue[list[int]], encodings: list[Any], out: np.ndarray,
                 errors: list[BaseException]) -> None:
        try:
            self._run(work, encodings, out)
        except BaseException as exc:  # raised by encode() in the calling thread
            errors.append(exc)
            while not work.empty():  # the other workers stop after their batch
                with contextlib.suppress(queue.Empty):
                    work.get_nowait()

    def _run(self, work: queue.SimpleQueue[list[int]], encodings: list[Any], out: np.ndarray) -> None:
        while True:
            try:
                rows = work.get_nowait()
            except queue.Empty:
                return
            width = max(len(encodings[i].ids) for i in rows)
            feed = {name: np.zeros((len(rows), width), dtype=np.int64) for name in self.inputs}
            for row, i in enumerate(rows):
                encoding = encodings[i]
                n = len(encoding.ids)
                given = {"input_ids": encoding.ids, "attention_mask": encoding.attention_mask,
                         "token_type_ids": encoding.type_ids}
                for name in self.inputs:
                    feed[name][row, :n] = given[name]
            hidden = self.session.run(["last_hidden_state"], feed)[0]
            out[rows] = _mean_normalised(hidden, feed["attention_mask"])


def cpu_session(model_file: Path, threads: int) -> Any:
    """An ONNX Runtime session on the CPU, `threads` per call, every graph optimisation on."""
    # Here, not at the top: ONNX Runtime is loaded with the model it runs.
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Spinning threads take a core other processes need on a small shared machine (the same reason e5's engine
    # runs with OMP_WAIT_POLICY=PASSIVE).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])


def _mean_normalised(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling (padding out, the count clamped at 1e-9) and its normalisation (the norm
    clamped at 1e-12), in float32."""
    weights = mask.astype(np.float32)[:, :, None]
    pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
