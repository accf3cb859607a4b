"""One set of open corpus stores per corpus for the process, reused across questions (warm latency is what users
feel), and swapped for fresh ones in the background after a re-ingest or once Neo4j is back."""
from __future__ import annotations

import logging
import threading
import time
import weakref
from dataclasses import dataclass

from core.retrieval.busy import other_answers_in_flight
from core.retrieval.child_open import open_corpus
from core.retrieval.config import RetrievalConfig
from core.retrieval.saved_read import ingest_stamp
from core.retrieval.stores import CorpusStores
from core.settings import Settings
from core.stores import heap

# After a re-ingest a running app swaps in fresh stores without a restart; in-flight questions finish with
# the old set, which holds nothing to close (the graph driver is the process's) and goes when unreferenced.


@dataclass
class _Opened:
    stores: CorpusStores
    stamp: int | None
    opened_at: float  # monotonic, taken before opening: a graph read answered after it is news
    reloading: bool = False


_OPEN: dict[tuple[object, ...], _Opened] = {}
log = logging.getLogger("citewalk.stores")
# Guards the registry only, never an opening: a cold corpus takes ~10 s to open and questions on the others go on.
_OPEN_LOCK = threading.Lock()
# One opener per corpus: questions that arrive while it opens wait for that opening instead of starting theirs.
_OPENERS: dict[tuple[object, ...], threading.Lock] = {}
# After a reload the heap is settled again once nothing uses the replaced stores: as soon as no answer runs, or
# they are gone. Under load that never pauses this long, it stays thawed (full passes slower, nothing pinned).
RESETTLE_WAIT_S = 120.0


def open_stores(settings: Settings, corpus: str, config: RetrievalConfig | None = None) -> CorpusStores:
    """Opened once per (data dir, corpus, Neo4j address, retrieval configuration) per process and shared by every
    retriever of that configuration: the stores read it (heading depth, query threads, fusion shares), so a
    retriever's configuration is the one its stores hold, never that of whoever opened them first.

    A finished re-ingest (new ingest stamp), or Neo4j back after stores were opened without it, starts a
    reload in the background; questions keep using the current stores until the new ones are ready, so
    nobody waits the ~10 s a large corpus takes to open.
    """
    config = config or RetrievalConfig()
    key = (*_where(settings, corpus), config.model_dump_json())
    stamp = ingest_stamp(settings, corpus)
    with _OPEN_LOCK:
        opened = _OPEN.get(key)
        if opened is not None:
            if _stale(opened, stamp) and not opened.reloading:
                opened.reloading = True
                threading.Thread(target=_reload, args=(key, settings, corpus, config, stamp), daemon=True,
                                 name=f"reload-{corpus}").start()
            return opened.stores
        opener = _OPENERS.setdefault(key, threading.Lock())
    with opener:
        with _OPEN_LOCK:
            opened = _OPEN.get(key)
        if opened is None:  # first here: open (an exception leaves it to the next question to try again)
            started = time.monotonic()
            stores = open_corpus(settings, corpus, config)
            with _OPEN_LOCK:
                opened = _OPEN[key] = _Opened(stores, stamp, started)
            heap.settle_if_settled()
        return opened.stores


def _where(settings: Settings, corpus: str) -> tuple[object, ...]:
    """The corpus and the stores it is read from: the registry's key, less the retrieval configuration."""
    return str(settings.data_dir), corpus, settings.neo4j_uri, settings.neo4j_bolt_port, settings.chroma_host


def is_open(settings: Settings, corpus: str) -> bool:
    """Whether this process holds the corpus's stores (under any retrieval configuration)."""
    where = _where(settings, corpus)
    with _OPEN_LOCK:
        return any(key[:-1] == where for key in _OPEN)


def _stale(opened: _Opened, stamp: int | None) -> bool:
    # The reader is shared by the process: any read it answered since these stores were opened without Neo4j
    # (a question's expansion, another corpus) means Neo4j is back. Cheap to check on every question.
    return stamp != opened.stamp or (not opened.stores.graph_info and opened.stores.graph.answered_since(opened.opened_at))


def _reload(key: tuple[object, ...], settings: Settings, corpus: str, config: RetrievalConfig | None, stamp: int | None) -> None:
    started = time.monotonic()
    try:
        fresh = open_corpus(settings, corpus, config or RetrievalConfig(), warm=True)
    except Exception as exc:  # noqa: BLE001 — a half-written corpus: keep serving the old stores, retry next call
        log.warning("reloading %s failed (%s); still serving the previous stores", corpus, exc)
        with _OPEN_LOCK:
            _OPEN[key].reloading = False
        return
    was_settled = heap.is_settled()
    with _OPEN_LOCK:
        replaced = weakref.ref(_OPEN[key].stores)
        _OPEN[key] = _Opened(fresh, stamp, started)
    heap.thaw()
    log.info("%s reloaded (new ingest or Neo4j back): now serving %d units", corpus, len(fresh.unit_ids))
    if was_settled:
        _settle_once_released(replaced)


def _settle_once_released(replaced: weakref.ref[CorpusStores]) -> None:
    """Settles the heap again (the thaw let the replaced stores' cycles be freed) once no question can still be
    using them; settling earlier would exempt them from collection for the process's life."""
    deadline = time.monotonic() + RESETTLE_WAIT_S
    while time.monotonic() < deadline:
        if replaced() is None or other_answers_in_flight() == 0:
            heap.settle()
            return
        time.sleep(0.5)
    log.info("the heap stays unsettled after a reload: answers ran throughout the %.0f s waited", RESETTLE_WAIT_S)
