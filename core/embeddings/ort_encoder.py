"""The transformer of a sentence-transformers model run by ONNX Runtime, in place of its PyTorch forward pass.

sentence-transformers calls its Transformer module's model with the tokenizer's tensors and reads
`last_hidden_state`: this module answers that call from an ONNX Runtime session over the export
(core.embeddings.onnx_export), so tokenization, pooling, normalisation, `output_value=None` (the token vectors the
answer's in-context reading uses, core.answer.soft_match) and every caller of `model.encode` stay as they were.

Threads follow `torch.get_num_threads()` at call time, as the PyTorch model's did: an ingest runs one thread per
core, and a process that answers sets one (core.retrieval.stores, SentenceTransformerEmbedder.embed_queries). A
session is opened per thread count the process asks for (an int8 MiniLM session is ~25 MB).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import torch

from core.embeddings.ort_passages import cpu_session


class OrtEncoder(torch.nn.Module):
    def __init__(self, model_file: Path, config: Any, inputs: list[str]) -> None:
        super().__init__()
        self.model_file = model_file
        self.config = config  # sentence-transformers reads the model's config (hidden size, hidden-states flag)
        self.inputs = inputs
        self._sessions: dict[int, Any] = {}
        self._lock = threading.Lock()
        self.session(torch.get_num_threads())  # fail at load, not at the first text

    def session(self, threads: int) -> Any:
        with self._lock:
            found = self._sessions.get(threads)
            if found is None:
                found = self._sessions[threads] = cpu_session(self.model_file, threads)
            return found

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **features: Any) -> dict[str, torch.Tensor]:
        """One text at a time, its padding cut off: int8 dynamic quantisation scales each call's activations by
        their range, so in a batch a text's vector would depend on the texts beside it and on the padding (the
        same text differed by up to 0.02 a component). Alone, a text always gets the same vector, the one the
        embedding cache keeps, and no time goes on padding. Padded positions come back as zeros; every reader of
        the token vectors cuts them off by the attention mask."""
        given = {"input_ids": input_ids, "attention_mask": attention_mask, **features}
        arrays = {name: given[name].numpy().astype(np.int64, copy=False) for name in self.inputs}
        mask = attention_mask.numpy().astype(bool)
        session = self.session(max(1, torch.get_num_threads()))
        rows = []
        for row in range(mask.shape[0]):
            feed = {name: np.ascontiguousarray(array[row, mask[row]][None, :]) for name, array in arrays.items()}
            rows.append(session.run(["last_hidden_state"], feed)[0][0])
        hidden = np.zeros((*mask.shape, rows[0].shape[-1]), dtype=np.float32)
        for row, vectors in enumerate(rows):
            hidden[row, mask[row]] = vectors
        return {"last_hidden_state": torch.from_numpy(hidden)}
