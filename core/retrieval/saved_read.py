"""What opening a corpus read, saved beside its lexical index, so that opening it again is a few mapped files.

The format runs no code when read: `.npy` arrays loaded with `allow_pickle=False` and mapped copy on write (the page
cache's copy is shared by every worker), `read.json` for strings and mappings, and the heading index as
`LexicalIndex.save` writes it. Anything else (a pickle, a truncated file, arrays of the wrong shape) is refused with
an error naming the file, and the corpus is read from its stores and saved again. A saved read is used only for the
same ingest stamp, retrieval configuration, Neo4j address and code digest; a read made without Neo4j is not saved.
"""
from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from core import analyzers, lexical
from core.lexical import LexicalIndex
from core.retrieval import config as retrieval_config
from core.retrieval import edges, stores, unit_table
from core.retrieval.config import RetrievalConfig
from core.retrieval.edges import ChainStarts, HeldEdges
from core.retrieval.stores import ReadCorpus
from core.retrieval.unit_table import CODED, UnitTable
from core.settings import Settings

log = logging.getLogger("citewalk.stores")
SAVED_PREFIX = "read-"
FORMAT = "npy-json-1"
# A read being written beside the index, renamed to a saved read once whole.
WRITING_PREFIX = ".saved-"
# The modules whose code builds what a saved read holds: any change to them reads the corpus again.
HELD_MODULES = (stores, unit_table, edges, retrieval_config, lexical, analyzers)
META = "read.json"
HEADINGS = "context_lexical"
# The arrays of a read, each one `.npy` file: ReadCorpus fields, then the indexes `build_indexes` makes.
ARRAYS = ("window_matrix", "window_unit", "lexical_to_unit")
BUILT_ARRAYS = ("adjacent", "first_windows", "first_rows", "_table_rows")


class DamagedRead(ValueError):
    """A saved read that is not what this code writes."""


def ingest_stamp(settings: Settings, corpus: str) -> int | None:
    """When the corpus's last ingest finished: the lexical index's id list is the last file an ingest writes."""
    try:
        return (settings.lexical_path / corpus / "unit_ids.json").stat().st_mtime_ns
    except OSError:
        return None


@cache
def _code_digest() -> str:
    digest = hashlib.sha1(FORMAT.encode())
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
    return settings.lexical_path / corpus / f"{_current_prefix(stamp)}{hashlib.sha1(key.encode()).hexdigest()[:16]}"


def load_saved(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None) -> ReadCorpus | None:
    """The saved read of the corpus for this ingest, configuration and code; None when there is none, or when what
    is there is not a read this code wrote (logged as an error, removed, and the corpus read from its stores)."""
    if stamp is None:
        return None
    path = saved_path(settings, corpus, config, stamp)
    if not path.exists():
        return None
    try:
        return _load(path, settings, corpus, config)
    except Exception as exc:  # noqa: BLE001 — whatever the file holds, it is refused and the stores are read
        log.error("refused the saved read of corpus %s at %s (%s: %s); reading the corpus from its stores",
                  corpus, path, type(exc).__name__, exc)
        _remove(path)
        return None


def _load(path: Path, settings: Settings, corpus: str, config: RetrievalConfig) -> ReadCorpus:
    meta = json.loads((path / META).read_text(encoding="utf-8"))
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise DamagedRead(f"{path / META} is not a saved read of format {FORMAT}")
    if meta["corpus"] != corpus or not meta["graph_info"]:
        raise DamagedRead(f"{path / META} is not a read of corpus {corpus} with its graph")
    arrays = {name: _array(path, name) for name in (*ARRAYS, *BUILT_ARRAYS, "tiers", "delegates",
                                                    *(f"code_{c}" for c in CODED))}
    table = meta["units"]
    units = UnitTable(list(meta["unit_ids"]), table["texts"], table["parents"],
                      {c: arrays[f"code_{c}"] for c in CODED}, table["values"], arrays["tiers"], arrays["delegates"],
                      corpus)
    if not all(len(column) == len(units.ids) for column in (*table["texts"].values(), table["parents"])):
        raise DamagedRead(f"{path / META}: the unit columns are not as long as the unit ids")
    unit_ids = units.ids
    headings = LexicalIndex.load(path / HEADINGS, mmap=True) if meta["has_headings"] else None
    built: dict[str, Any] = {name: arrays[name] for name in BUILT_ARRAYS}
    built.update(context_lexical=headings, children=meta["children"])
    edges_held = meta["edges"]
    read = ReadCorpus(corpus, config, LexicalIndex.load(settings.lexical_path / corpus), meta["backend"], unit_ids,
                      units, arrays["window_matrix"], arrays["window_unit"], arrays["lexical_to_unit"],
                      {u: i for i, u in enumerate(unit_ids)}, meta["order"], True,
                      None if edges_held is None else HeldEdges({u: tuple(map(tuple, held)) for u, held in edges_held.items()}),
                      None if meta["chain_starts"] is None else ChainStarts(meta["chain_starts"]), built)
    _check_shapes(read, path)
    return read


def _array(path: Path, name: str) -> np.ndarray:
    file = path / f"{name}.npy"
    try:  # allow_pickle=False: an object array (a pickle inside the .npy) is refused, never unpickled
        array: np.ndarray = np.load(file, mmap_mode="c", allow_pickle=False)
    except ValueError as exc:
        raise DamagedRead(f"{file}: {exc}") from None
    return array


def _check_shapes(read: ReadCorpus, path: Path) -> None:
    units, windows = len(read.unit_ids), len(read.window_unit)
    columns = read.units.columns()
    wrong = [name for name, ok in (
        ("window_matrix", read.window_matrix.ndim == 2 and len(read.window_matrix) == windows),
        ("window_unit", windows == 0 or (read.window_unit.min() >= 0 and read.window_unit.max() < units)),
        ("lexical_to_unit", len(read.lexical_to_unit) == len(read.lexical.unit_ids)),
        ("adjacent", read.built["adjacent"].shape == (units, 2)),
        ("first_windows", len(read.built["first_windows"]) == windows),
        ("first_rows", len(read.built["first_rows"]) == units),
        ("_table_rows", len(read.built["_table_rows"]) == units),
        *((name, len(column) == units) for name, column in (("tiers", columns["tiers"]),
                                                            ("delegates", columns["delegates"]),
                                                            *columns["codes"].items())),
    ) if not ok]
    if wrong:
        raise DamagedRead(f"arrays of the wrong shape in {path}: {', '.join(wrong)}")


def save(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None, read: ReadCorpus) -> None:
    """Saves `read` (its indexes built) as the corpus's read for this ingest, written aside and renamed into place:
    whole or not at all for another worker loading it. The saved reads of earlier ingests and other code go. Not
    saved: a read without an ingest stamp or without its graph."""
    if stamp is None or not read.graph_info:
        return
    path = saved_path(settings, corpus, config, stamp)
    try:
        writing = Path(tempfile.mkdtemp(dir=path.parent, prefix=WRITING_PREFIX))
    except OSError as exc:
        log.warning("could not save the read of corpus %s in %s (%s); the next opening reads it again",
                    corpus, path.parent, exc)
        return
    try:
        _write(writing, read)
        writing.rename(path)
    except OSError as exc:  # another worker saved it first, or the folder is read-only
        log.info("the read of corpus %s was not saved in %s (%s)", corpus, path, exc)
        _remove(writing)
        return
    for old in path.parent.glob(f"{SAVED_PREFIX}*"):
        if not old.name.startswith(_current_prefix(stamp)):
            _remove(old)


def _write(folder: Path, read: ReadCorpus) -> None:
    built = read.built
    units = read.units.columns()
    arrays = {"window_matrix": read.window_matrix, "window_unit": read.window_unit,
              "lexical_to_unit": read.lexical_to_unit, "tiers": units["tiers"], "delegates": units["delegates"],
              **{f"code_{c}": units["codes"][c] for c in CODED}, **{name: built[name] for name in BUILT_ARRAYS}}
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.asarray(array), allow_pickle=False)
    headings: LexicalIndex | None = built["context_lexical"]
    if headings is not None:
        headings.save(folder / HEADINGS)
    meta = {"format": FORMAT, "corpus": read.corpus, "backend": read.backend, "graph_info": read.graph_info,
            "unit_ids": read.unit_ids, "order": read.order, "has_headings": headings is not None,
            "units": {"texts": units["texts"], "parents": units["parents"], "values": units["values"]},
            "children": built["children"],
            "edges": None if read.edges is None else read.edges.by_unit,
            "chain_starts": None if read.chain_starts is None else dict(read.chain_starts.typed_by_unit)}
    (folder / META).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
