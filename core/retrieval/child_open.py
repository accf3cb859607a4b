"""A large corpus is read in a child process, so that opening it does not slow the answers this process serves.

Opening reads every window from Chroma, every unit and edge from Neo4j, and builds the heading index: for a corpus
of ~14k units some 3 s of Python work that holds the interpreter lock, shared with every answer running in the
process meanwhile (`bench.open_stall`). A child process does that work on a core of its own, at the lowest
priority, and sends the result back as plain data (`ReadCorpus`: units and edges as columns, not records); the
serving process only unpickles it and attaches its own handles. A small corpus opens faster than a child starts,
so it is read here, unless other users' answers are running here then (core.retrieval.busy): they would each wait
for its reading.

The child is `python -m core.retrieval.child_open`, fed its request on stdin and writing its outcome to a file the
parent names, rather than a multiprocessing child: that one would first re-import the parent's main module
(Chainlit's command line, a bench's script), which costs seconds and cannot be done at all when the parent's main
is not a file.
"""
from __future__ import annotations

import json
import logging
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.retrieval.busy import other_answers_in_flight
from core.retrieval.config import RetrievalConfig
from core.retrieval.packed import is_packed, read_packed
from core.retrieval.saved_read import WRITING_PREFIX, between_pieces, ingest_stamp, keep_written, load_saved
from core.retrieval.stores import CorpusStores, ReadCorpus, read_corpus
from core.settings import REPO_ROOT, Settings

log = logging.getLogger("citewalk.stores")
# The child yields the cores to the answers in flight: on a busy machine the cold corpus opens later, and the
# questions on warm ones are not slowed; on an idle one it opens as fast.
CHILD_NICENESS = 19
# At niceness 19 a child gets almost no CPU while both cores stay saturated, so the cold user's wait is bounded
# here: well beyond the 5-16 s a 14k-unit corpus takes under 20 busy chats, the child is killed and the corpus read
# in this process, slowing the others for a few seconds rather than leaving one user waiting without end.
CHILD_TIMEOUT_S = 60.0


def open_corpus(settings: Settings, corpus: str, config: RetrievalConfig, *, warm: bool = False) -> CorpusStores:
    """The corpus's stores: from the read a child saved under the same ingest when there is one (saved_read.py),
    else read in a child process when the corpus is large (`Settings.stores_child_min_units`),
    or while other users' answers run in this process (`read_apart`). `warm`: the lazy indexes built now, as a
    reload wants them. A child that cannot be started, dies or hangs leaves the reading to this process,
    logged; an error of the corpus itself (not ingested, unreadable) is raised as when read here."""
    stamp = ingest_stamp(settings, corpus)  # before reading: an ingest finished meanwhile is not hidden
    read = load_saved(settings, corpus, config, stamp)
    if read is None and read_apart(settings, corpus):
        read = read_in_child(settings, corpus, config, stamp)
    stores = CorpusStores.open(settings, corpus, config) if read is None else CorpusStores.from_read(settings, read)
    return stores.warm() if warm else stores


def read_in_child(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None = None) -> ReadCorpus | None:
    """What a child process read of the corpus, saved for later openings under the ingest `stamp`
    (saved_read.py); None when no child could read it (the caller reads it)."""
    with child_output(settings, corpus) as out:
        try:
            done = run_child(settings, corpus, config, out)
            written = read_packed(out) if done.returncode == 0 else memoryview(b"")
            packed = done.returncode == 0 and is_packed(written)
            outcome = pickle.loads(written) if done.returncode == 0 and not packed else None
            read = ReadCorpus.from_parts(written, between_pieces) if packed else None
        except (OSError, ValueError, subprocess.TimeoutExpired, pickle.UnpicklingError, EOFError) as exc:
            log.warning("could not read corpus %s in a child process (%s); reading it in this one", corpus, exc)
            return None
        if isinstance(outcome, Exception):
            raise outcome  # the corpus's own error, as reading it here would raise it
        if read is None:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            log.warning("could not read corpus %s in a child process (exit %s: %s); reading it in this one",
                        corpus, done.returncode, tail[0])
            return None
        keep_written(settings, corpus, config, stamp, read, out)
        return read


@contextmanager
def child_output(settings: Settings, corpus: str) -> Iterator[Path]:
    """The file the child writes its outcome to, removed afterwards unless kept as the saved read. It lies beside
    the corpus's index, so that the file this process maps its read from becomes the saved read by a rename: one
    copy of the read in the page cache, shared with every later opening, instead of the mapped temporary file and
    a saved copy of it. A system temporary file where that folder takes no file (not ingested, read-only)."""
    try:
        handle, name = tempfile.mkstemp(dir=settings.lexical_path / corpus, prefix=WRITING_PREFIX)
    except OSError:
        handle, name = tempfile.mkstemp(prefix="citewalk-read-")
    os.close(handle)
    path = Path(name)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)  # a mapping of it stays whole


def run_child(settings: Settings, corpus: str, config: RetrievalConfig, out: Path) -> subprocess.CompletedProcess[bytes]:
    """The reading child run to its end, bounded by CHILD_TIMEOUT_S, having written its outcome to `out` (when it
    exited without an error): the read packed in pieces (`ReadCorpus.to_parts`), or the corpus's error pickled. The
    outcome goes to a file rather than to its stdout: through a pipe this process would read some 40 MB 32 KiB at a
    time, taking the interpreter back from its answering threads at every piece, while the child waited on the full
    pipe."""
    request = pickle.dumps((settings, corpus, config, str(out)))
    return subprocess.run([*child_python(), "-m", "core.retrieval.child_open"], input=request, capture_output=True,
                          cwd=REPO_ROOT, env=child_env(), timeout=CHILD_TIMEOUT_S, check=False)


def child_python() -> list[str]:
    """This Python, started at CHILD_NICENESS: set by the child itself it would hold for its calling thread only
    (Linux's niceness is per thread), and the threads its imports start (a BLAS pool) would run at normal
    priority beside the answers."""
    nice = shutil.which("nice")
    return [nice, "-n", str(CHILD_NICENESS), sys.executable] if nice else [sys.executable]


# A reader needs no thread pools: sized at import to every core, they would spread the child over both.
ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")


def child_env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **dict.fromkeys(ONE_THREAD, "1")}


def read_apart(settings: Settings, corpus: str) -> bool:
    """Whether the corpus is read in a child: always when large; a small one only while other users' answers run
    here, since a child costs seconds of start-up."""
    units = units_stored(settings, corpus)
    return units >= settings.stores_child_min_units or (units > 0 and other_answers_in_flight() > 0)


def units_stored(settings: Settings, corpus: str) -> int:
    """How many units the corpus's last ingest indexed (0 when it has no index yet: opening will say so)."""
    try:
        return len(json.loads((settings.lexical_path / corpus / "unit_ids.json").read_text()))
    except (OSError, ValueError):
        return 0


def _child() -> None:
    os.nice(max(0, CHILD_NICENESS - os.nice(0)))  # where no `nice` command started it there
    settings, corpus, config, out = pickle.loads(sys.stdin.buffer.read())
    try:
        outcome = read_corpus(settings, corpus, config).build_indexes().to_parts()
    except Exception as exc:  # noqa: BLE001 — sent to the parent, which raises it where opening was asked for
        outcome = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
    Path(out).write_bytes(outcome)
    sys.stdout.flush()
    sys.stderr.flush()
    # Done: tearing down the interpreter (the Chroma client, the Neo4j driver, every module's finalizers) takes
    # 0.5-1 s, all of it time the serving process's user waits for the corpus.
    os._exit(0)


if __name__ == "__main__":
    _child()
