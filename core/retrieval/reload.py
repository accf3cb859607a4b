"""One set of open corpus stores per corpus for the process, reused across questions, opened and swapped for fresh
ones on a background thread.

The warm-up opens every ingested corpus at start-up; one ingested later is opened on its first question, which
waits up to OPEN_WAIT_S and is then told it is still opening. After a re-ingest, or once Neo4j is back, fresh
stores are read in the background and swapped in. Only an ingested corpus gets an entry, and at most MAX_OPEN sets
are held (least recently used first out): no name a user types can grow these registries.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from core.domain import StoreError
from core.retrieval import saved_read
from core.retrieval.config import RetrievalConfig
from core.retrieval.saved_read import ingest_stamp
from core.retrieval.stores import CorpusStores, ReadCorpus, read_corpus
from core.settings import Settings
from core.stores import heap

log = logging.getLogger("citewalk.stores")
# Corpora × the retrieval configurations the methods use; far above what one deployment serves.
MAX_OPEN = 32
# How long a question waits for a corpus opening before it is told to ask again: a corpus of ~14k units opens in
# ~10 s on a quiet machine when nothing was saved, in about a second from its saved read.
OPEN_WAIT_S = 90.0


class CorpusStillOpening(StoreError):
    """The corpus is being opened and was not ready within OPEN_WAIT_S."""


@dataclass
class _Opened:
    stores: CorpusStores
    stamp: int | None
    opened_at: float  # monotonic, taken before opening: a graph read answered after it is news
    reloading: bool = False


@dataclass
class _Opening:
    done: threading.Event = field(default_factory=threading.Event)
    error: Exception | None = None


Key = tuple[object, ...]
_OPEN: OrderedDict[Key, _Opened] = OrderedDict()
_OPENING: dict[Key, _Opening] = {}  # at most one per held key: an entry goes when its opening ends
# Guards the registries only, never an opening: questions on the other corpora go on meanwhile.
_LOCK = threading.Lock()


def open_stores(settings: Settings, corpus: str, config: RetrievalConfig | None = None) -> CorpusStores:
    """Opened once per (data dir, corpus, Neo4j address, retrieval configuration) per process and shared by every
    retriever of that configuration: the stores read it (heading depth, query threads, fusion shares), so a
    retriever's configuration is the one its stores hold, never that of whoever opened them first. Raises
    StoreError for a corpus that was never ingested, CorpusStillOpening past OPEN_WAIT_S."""
    config = config or RetrievalConfig()
    key = (*_where(settings, corpus), config.model_dump_json())
    stamp = ingest_stamp(settings, corpus)
    with _LOCK:
        opened = _OPEN.get(key)
        if opened is not None:
            _OPEN.move_to_end(key)
            if _stale(opened, stamp) and not opened.reloading:
                opened.reloading = True
                _start(_reload, key, settings, corpus, config)
            return opened.stores
        if stamp is None:
            raise StoreError(f"corpus {corpus[:80]!r} is not ingested here: run `python -m ingest` for it first")
        opening = _OPENING.get(key)
        if opening is None:
            opening = _OPENING[key] = _Opening()
            _start(_first_open, key, settings, corpus, config, opening)
    if not opening.done.wait(OPEN_WAIT_S):
        raise CorpusStillOpening(f"corpus {corpus!r} is still opening; ask again in a moment")
    if opening.error is not None:
        raise opening.error
    with _LOCK:
        opened = _OPEN.get(key)
    if opened is None:  # opened, then pushed out by MAX_OPEN others at once: open it again
        return open_stores(settings, corpus, config)
    return opened.stores


def _where(settings: Settings, corpus: str) -> Key:
    """The corpus and the stores it is read from: the registry's key, less the retrieval configuration."""
    return str(settings.data_dir), corpus, settings.neo4j_uri, settings.neo4j_bolt_port, settings.chroma_host


def wait_opened(settings: Settings, corpus: str) -> bool:
    """Waits, without bound, for the corpus's openings in progress (the warm-up: the app answers nobody before it
    is done, and a large corpus on a busy machine may take longer than a question waits). Whether there were any."""
    where = _where(settings, corpus)
    with _LOCK:
        openings = [opening for key, opening in _OPENING.items() if key[:-1] == where]
    for opening in openings:
        opening.done.wait()
    return bool(openings)


def held() -> int:
    """How many sets of stores the process holds (bounded by MAX_OPEN)."""
    with _LOCK:
        return len(_OPEN) + len(_OPENING)


def _start(target: Callable[..., None], key: Key, *args: object) -> None:
    threading.Thread(target=target, args=(key, *args), daemon=True, name=f"open-{key[1]}").start()


def _keep(key: Key, opened: _Opened) -> None:
    """Holds the set (the caller holds the lock), the least recently used going past MAX_OPEN."""
    _OPEN[key] = opened
    _OPEN.move_to_end(key)
    while len(_OPEN) > MAX_OPEN:
        _OPEN.popitem(last=False)


def saved_or_read(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None) -> ReadCorpus:
    """The corpus's saved read for the ingest `stamp` (taken before reading, so that an ingest finished meanwhile is
    not hidden) when there is one, else read from Chroma and Neo4j, its indexes built, and saved for the next opening
    (core.retrieval.saved_read)."""
    read = saved_read.load_saved(settings, corpus, config, stamp)
    if read is None:
        read = read_corpus(settings, corpus, config).build_indexes()
        saved_read.save(settings, corpus, config, stamp, read)
    return read


def open_corpus(settings: Settings, corpus: str, config: RetrievalConfig, stamp: int | None) -> CorpusStores:
    """The corpus's stores over its saved read (`saved_or_read`), with this process's handles and model."""
    return CorpusStores.from_read(settings, saved_or_read(settings, corpus, config, stamp))


def _first_open(key: Key, settings: Settings, corpus: str, config: RetrievalConfig, opening: _Opening) -> None:
    started, stamp = time.monotonic(), ingest_stamp(settings, corpus)
    try:
        stores = open_corpus(settings, corpus, config, stamp)
    except Exception as exc:  # noqa: BLE001 — given to the questions waiting; the next one tries again
        opening.error = exc
    else:
        with _LOCK:
            _keep(key, _Opened(stores, stamp, started))
        log.info("%s opened in %.1f s: %d units", corpus, time.monotonic() - started, len(stores.unit_ids))
    finally:
        with _LOCK:
            _OPENING.pop(key, None)
        opening.done.set()


def _stale(opened: _Opened, stamp: int | None) -> bool:
    # The reader is shared by the process: any read it answered since these stores were opened without Neo4j
    # (a question's expansion, another corpus) means Neo4j is back. Cheap to check on every question.
    return stamp != opened.stamp or (not opened.stores.graph_info and opened.stores.graph.answered_at > opened.opened_at)


def _reload(key: Key, settings: Settings, corpus: str, config: RetrievalConfig) -> None:
    started, stamp = time.monotonic(), ingest_stamp(settings, corpus)
    try:
        fresh = open_corpus(settings, corpus, config, stamp)
    except Exception as exc:  # noqa: BLE001 — a half-written corpus: keep serving the old stores, retry next call
        log.warning("reloading %s failed (%s); still serving the previous stores", corpus, exc)
        with _LOCK:
            if key in _OPEN:
                _OPEN[key].reloading = False
        return
    with _LOCK:
        _keep(key, _Opened(fresh, stamp, started))
    # The replaced stores may be exempt from full collections (the warm-up settled the heap): given back, so that
    # they are freed, cycles and all, once their last question ends.
    heap.thaw()
    log.info("%s reloaded (new ingest or Neo4j back): now serving %d units", corpus, len(fresh.unit_ids))
