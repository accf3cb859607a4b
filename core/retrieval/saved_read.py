"""What reading a large corpus gave, saved beside its lexical index, so that opening it again is one file read.

The reading child (child_open.py) scans every window in Chroma, reads every unit and edge from Neo4j and builds
the heading index: seconds of a core, and ~1 s of the Neo4j server's time, which the other users' graph reads
wait behind (`bench.open_stall`). What it read changes only with an ingest of the corpus, so it is saved, and
every later opening of the corpus under the same ingest (a second worker, a restart, a user picking a corpus
this worker has not opened) loads it instead: no child, no Chroma scan, no Neo4j reads.

A saved read is used only where it is the same read: the same ingest (the ingest stamp, taken before reading, so
an ingest that finishes meanwhile is not hidden), the same retrieval configuration and Neo4j address, and the
same code (a digest of the modules whose objects it holds: a Citewalk upgrade reads the corpus again rather than
unpickling objects of an older shape). A read made without Neo4j is not saved: Neo4j back, the corpus is read
again with its graph. The data dir is the app's own, as trusted as its Chroma and BM25 files.
"""
from __future__ import annotations

import hashlib
import logging
import os
import time
from functools import cache
from pathlib import Path
from types import ModuleType

from core import analyzers, domain, lexical
from core.retrieval import config as retrieval_config
from core.retrieval import edges, packed, stores, unit_table
from core.retrieval.config import RetrievalConfig
from core.retrieval.packed import read_packed
from core.retrieval.stores import ReadCorpus
from core.settings import Settings
from core.stores import queries

log = logging.getLogger("citewalk.stores")
SAVED_PREFIX = "read-"
# A read being written beside the index, renamed to a saved read once whole.
WRITING_PREFIX = ".saved-"
# The modules whose classes a ReadCorpus pickles (and the analyzers its lexical indexes carry).
HELD_MODULES = (stores, packed, unit_table, edges, retrieval_config, lexical, analyzers, queries, domain)


# Between two pieces of a read taken back (`ReadCorpus.from_parts`), the thread taking it sleeps this long: a sleep
# lets go of the interpreter, and the answers waiting for it run.
PIECE_PAUSE_S = 0.001


def between_pieces() -> None:
    time.sleep(PIECE_PAUSE_S)


def ingest_stamp(settings: Settings, corpus: str) -> int | None:
    """When the corpus's last ingest finished: the lexical index's id list is the last file an ingest writes."""
    try:
        return (settings.lexical_path / corpus / "unit_ids.json").stat().st_mtime_ns
    except OSError:
        return None


@cache
def _code_digest() -> str:
    digest = hashlib.sha1()
    for module in HELD_MODULES:
        for path in sorted(_module_files(module)):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _module_files(module: ModuleType) -> list[Path]:
    file = Path(module.__file__ or "")
    if file.name == "__init__.py":  # a package: every module in it
        return list(file.parent.rglob("*.py"))
    return [file] if file.is_file() else []


def _current_prefix(stamp: int) -> str:
    """What the names of the saved reads this code can load under this ingest start with: the ingest stamp, then
    the code's digest (reads of other code, left by an upgrade, are of no use to anyone and go)."""
    return f"{SAVED_PREFIX}{stamp}-{_code_digest()[:12]}-"


def saved_path(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int) -> Path:
    # One per retrieval configuration and Neo4j address: the chat's methods each read the corpus with their own.
    key = "\n".join((config.model_dump_json(), settings.neo4j_uri or "", str(settings.neo4j_bolt_port)))
    return settings.lexical_path / corpus / f"{_current_prefix(stamp)}{hashlib.sha1(key.encode()).hexdigest()[:16]}.pickle"


def load_saved(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None) -> ReadCorpus | None:
    """The saved read of the corpus for this ingest, configuration and code; None when there is none (or it cannot
    be read: logged, and the corpus is read as if none were saved)."""
    if stamp is None:
        return None
    path = saved_path(settings, corpus, config, stamp)
    try:
        data = read_packed(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("the saved read of corpus %s (%s) cannot be read (%s); reading the corpus", corpus, path, exc)
        return None
    try:
        read = ReadCorpus.from_parts(data, between_pieces)
    except Exception as exc:  # noqa: BLE001 — a damaged file of ours: the corpus is read again and the file replaced
        log.warning("the saved read of corpus %s (%s) is damaged (%s); reading the corpus", corpus, path, exc)
        return None
    if read.corpus != corpus or not read.graph_info:
        log.warning("the saved read %s is not a read of corpus %s with its graph; reading the corpus", path, corpus)
        return None
    return read


def keep_written(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None, read: ReadCorpus,
                 written: Path) -> None:
    """Makes `written` (a file of the corpus's folder holding `read` packed) the corpus's saved read for this ingest,
    by a rename: whole or not at all for another worker loading it, and a mapping of the file stays the saved read's
    pages. The saved reads of earlier ingests and of other code go. Not kept (the caller removes the file): a read
    without an ingest stamp or without its graph."""
    if stamp is None or not read.graph_info:
        return
    path = saved_path(settings, corpus, config, stamp)
    try:
        os.replace(written, path)
    except OSError as exc:
        log.warning("could not save the read of corpus %s in %s (%s); the next opening reads it again",
                    corpus, path.parent, exc)
        return
    for old in path.parent.glob(f"{SAVED_PREFIX}*.pickle"):
        if not old.name.startswith(_current_prefix(stamp)):
            old.unlink(missing_ok=True)
