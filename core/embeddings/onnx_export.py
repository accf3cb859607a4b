"""A sentence-transformers model's transformer exported once to ONNX (and quantised to int8), kept beside the venv.

Why not sentence-transformers' own `backend="onnx"`: it loads through optimum-onnx, whose only release (0.1.0)
requires transformers < 4.58, while sentence-transformers 6.2 requires transformers 5 — the two cannot be installed
together. So the export is done here with the libraries already installed: `torch.onnx.export` of the model's
transformer (eager attention, so ONNX Runtime's optimiser can fuse it), ONNX Runtime's transformer fusions, then
ONNX Runtime's dynamic int8 quantisation (`quantize_dynamic`, what optimum's quantiser calls underneath). The
tokenizer, pooling and normalisation stay sentence-transformers' own (core.embeddings.ort_encoder swaps only the
transformer's forward pass).

The export is made at first use, offline, into `<cache_dir>/onnx/<key>/` under a lock (several test workers or
chat workers may load at once), built in a scratch folder and renamed into place, so a killed export leaves nothing
half-written. The key is made of the source model's files (core.stores.embedding_cache.model_identity), the runtime,
the quantisation settings and the versions of the exporting libraries: a changed model, or a new torch or onnxruntime,
gets a new export, and the embedding cache, keyed by the export's own files, never mixes their vectors.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import logging
import os
import shutil
import time
import warnings
from importlib.metadata import version
from pathlib import Path
from typing import Any

from core.embeddings.base import EmbeddingModelError, cpu_flags
from core.stores.embedding_cache import model_identity
from core.stores.file_lock import exclusive

log = logging.getLogger("citewalk.onnx_export")

ONNX_FP32 = "onnx"
ONNX_INT8 = "onnx-int8"
TORCH = "torch"
MODEL_FILE = "model.onnx"
META_FILE = "export.json"
OPSET = 17
# ONNX Runtime's fusions know these transformer families by name (onnxruntime.transformers.optimizer); any other
# model is exported unfused and gets only the session's generic graph optimisations.
FUSED_MODEL_TYPES = frozenset({"bert"})


def _vnni() -> bool:
    """Whether the CPU multiplies int8 by int8 in one instruction (VNNI). Without it, x86 int8 kernels can saturate
    and ONNX Runtime's guidance is to quantise weights to 7 bits (reduce_range)."""
    return bool({"avx512_vnni", "avx_vnni"} & cpu_flags())


def quantisation(runtime: str) -> dict[str, Any]:
    """The quantize_dynamic settings of a runtime (empty: not quantised)."""
    if runtime != ONNX_INT8:
        return {}
    # Per output channel: MiniLM's weight rows differ in scale, and one scale per matrix cost 0.09 of top-10
    # neighbour agreement against fp32 on HIPAA paragraphs where per-channel cost 0.02 (measured at export design).
    return {"per_channel": True, "reduce_range": not _vnni()}


def export_key(model_path: str, runtime: str) -> str:
    parts = [model_identity(model_path), runtime, json.dumps(quantisation(runtime), sort_keys=True),
             f"torch {_torch_version()}", f"onnxruntime {version('onnxruntime')}", f"opset {OPSET}"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _torch_version() -> str:
    """torch.__version__ without importing torch (seconds an ingest otherwise never spends on it: core.embeddings.
    ort_passages): the constant its version.py assigns, which carries the build ("2.15.0+cu132") that the package
    metadata lacks, so exports keyed before keep their key."""
    spec = importlib.util.find_spec("torch")
    file = Path(spec.origin).parent / "version.py" if spec is not None and spec.origin else None
    if file is not None and file.is_file():
        for node in ast.parse(file.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == "__version__"):
                return str(ast.literal_eval(node.value))
    return version("torch")


def exported_model(model_path: str, runtime: str, cache_dir: Path) -> Path:
    """The folder holding the model's ONNX export for `runtime` (exported now if missing)."""
    folder = cache_dir / "onnx" / f"{Path(model_path).name}-{runtime}-{export_key(model_path, runtime)}"
    if (folder / MODEL_FILE).is_file():
        return folder
    with exclusive(cache_dir / "onnx" / ".export.lock"):
        if (folder / MODEL_FILE).is_file():  # another process exported it while this one waited
            return folder
        scratch = folder.with_name(f".{folder.name}.partial-{os.getpid()}")
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(parents=True)
        try:
            started = time.perf_counter()
            meta = _export(model_path, runtime, scratch)
            meta["export_seconds"] = round(time.perf_counter() - started, 1)
            (scratch / META_FILE).write_text(json.dumps(meta, indent=2))
            shutil.rmtree(folder, ignore_errors=True)
            scratch.rename(folder)
        except Exception as exc:
            shutil.rmtree(scratch, ignore_errors=True)
            raise EmbeddingModelError(f"cannot export the embedding model {model_path!r} to ONNX ({exc}); set "
                                      "CITEWALK_EMBEDDING_RUNTIME=torch to run it through PyTorch") from exc
        log.info("exported %s to %s in %.1f s", model_path, folder, meta["export_seconds"])
    return folder


def _export(model_path: str, runtime: str, out: Path) -> dict[str, Any]:
    # The tracer warns about every Python branch on a shape it records, and the quantiser (through the root logger)
    # suggests a pre-processing pass meant for convolutional models: neither is the user's concern.
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _export_quietly(model_path, runtime, out)
    finally:
        root.setLevel(level)


def _export_quietly(model_path: str, runtime: str, out: Path) -> dict[str, Any]:
    import torch
    from sentence_transformers import SentenceTransformer

    # Eager attention exports as plain MatMul/Softmax, which ONNX Runtime fuses into one Attention node.
    model = SentenceTransformer(model_path, device="cpu", model_kwargs={"attn_implementation": "eager"})
    transformer: Any = model[0]  # a sentence_transformers Transformer module (indexing types it as a tensor)
    sample = model.tokenizer(["a covered entity may disclose", "x"], padding=True, return_tensors="pt")
    names = list(sample.keys())
    hf_model = transformer.auto_model.eval()

    class LastHidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = hf_model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(names, inputs, strict=True)), return_dict=True).last_hidden_state

    plain = out / "plain.onnx"
    axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "last_hidden_state"]}
    with torch.inference_mode():
        # The TorchScript exporter: the dynamo one needs onnxscript, which nothing else here uses.
        torch.onnx.export(LastHidden(), tuple(sample[n] for n in names), str(plain), input_names=names,
                          output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=OPSET, dynamo=False)
    config = hf_model.config
    fused = plain
    if config.model_type in FUSED_MODEL_TYPES:
        from onnxruntime.transformers.optimizer import optimize_model

        fused = out / "fused.onnx"
        optimize_model(str(plain), model_type=config.model_type, num_heads=config.num_attention_heads,
                       hidden_size=config.hidden_size).save_model_to_file(str(fused))
    settings = quantisation(runtime)
    if settings:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        # DefaultTensorType: the fused nodes are in ONNX Runtime's own domain, whose outputs shape inference
        # cannot type; they are float.
        quantize_dynamic(str(fused), str(out / MODEL_FILE), weight_type=QuantType.QInt8,
                         extra_options={"DefaultTensorType": 1}, **settings)
    else:
        fused.rename(out / MODEL_FILE)
    for scratch in (plain, out / "fused.onnx"):
        scratch.unlink(missing_ok=True)
    return {"source": model_path, "runtime": runtime, "inputs": names, "quantisation": settings,
            "fused": config.model_type in FUSED_MODEL_TYPES}


def read_meta(folder: Path) -> dict[str, Any]:
    return json.loads((folder / META_FILE).read_text())
