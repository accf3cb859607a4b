"""A corpus's stores held in memory, and the scoring over them; core.retrieval.reload keeps one set per corpus.

Vectors, unit metadata and citation edges are held in memory (~25 MB for ~15k windows) so that any candidate,
including one reached over the graph, is scored without a store round trip; Neo4j is read for longer walks and
current law, and may be down.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from core.analyzers import term_groups
from core.domain import Edge
from core.embeddings import SENTENCE_TRANSFORMERS, Embedder, get_embedder
from core.lexical import LexicalIndex, unit_search_text
from core.retrieval.config import RetrievalConfig
from core.retrieval.edges import HELD_TYPES, ChainStarts, HeldEdges
from core.retrieval.filters import Filters
from core.retrieval.unit_table import UnitTable
from core.settings import Settings
from core.stores import chroma_store
from core.stores.graph_reader import Neo4jReader, reader_for
from core.stores.queries import UnitRecord, chain_starts, corpus_edges, unit_graph_info

INACTIVE_STATUSES = frozenset({"repealed", "expired", "revoked", "superseded"})
# What the stores remember between questions, bounded whatever the traffic: filter masks (a few KiB per 1,000
# units each), question vectors (the search, then the answer's signals, embed the same question) and question
# terms (the default method scores two BM25 indexes and the answer's signals a third with the same terms, and a
# Korean or Vietnamese segmenter takes milliseconds per cut), and hubs' edges read from Neo4j (edges.py).
MAX_MASKS = 64
MAX_QUERY_VECTORS = 256
MAX_QUESTION_TERMS = 256
MAX_HUB_READS = 1024
# The search and then the answer's signals score the same question over the whole corpus; a few answers at
# once per process, each scored once. (One corpus-long float32 row per entry.)
MAX_QUESTION_SCORES = 16
# How long a question waits for another answer making the same value (a question vector, a corpus scoring)
# before making it itself: far beyond the ~0.1 s one takes.
MAKING_WAIT_S = 5.0
T = TypeVar("T")


@dataclass
class CorpusStores:
    settings: Settings
    corpus: str
    config: RetrievalConfig
    lexical: LexicalIndex
    embedder: Embedder
    collection: object
    graph: Neo4jReader  # the process's shared reader: closing these stores leaves it open
    unit_ids: list[str]
    units: UnitTable
    window_matrix: np.ndarray  # (windows, dim), normalised
    window_unit: np.ndarray  # window row → unit index
    lexical_to_unit: np.ndarray  # lexical doc index → unit index (-1: unknown)
    index: dict[str, int] = field(default_factory=dict)
    _masks: OrderedDict[Hashable, np.ndarray] = field(default_factory=OrderedDict)
    _query_vectors: OrderedDict[Hashable, np.ndarray] = field(default_factory=OrderedDict)
    _question_terms: OrderedDict[Hashable, tuple[str, ...]] = field(default_factory=OrderedDict)
    _hub_reads: OrderedDict[Hashable, tuple[Edge, ...]] = field(default_factory=OrderedDict)
    _dense_scores: OrderedDict[Hashable, np.ndarray] = field(default_factory=OrderedDict)
    _lexical_scores: OrderedDict[Hashable, np.ndarray] = field(default_factory=OrderedDict)
    _remember_lock: threading.Lock = field(default_factory=threading.Lock)
    _making: dict[tuple[int, Hashable], threading.Event] = field(default_factory=dict)  # values being made now
    order: dict[str, int] = field(default_factory=dict)  # document order (Neo4j `order`), for adjacency
    graph_info: bool = True  # False: opened while Neo4j was down (no labels, headings or order yet)
    edges: HeldEdges | None = None  # the citation edges, read when the stores opened (None: Neo4j was down then)
    chain_starts: ChainStarts | None = None  # where amendment chains start, read with them (None: ask every time)
    # Whether ingest marked which of the corpus's provisions leave a detail to a lower tier (UnitRecord.delegates):
    # the Korean parser reads "대통령령으로 정하는 …"; where nothing is marked, no unit can be told not to delegate.
    marks_delegation: bool = False

    @classmethod
    def from_read(cls, settings: Settings, read: ReadCorpus) -> CorpusStores:
        """The stores over what `read_corpus` read (now, or saved: core.retrieval.saved_read), with this process's
        own handles: the Chroma collection (the client is the process's one per folder), the shared Neo4j reader
        and the embedding model."""
        collection = chroma_store.collection(chroma_store.client(settings), read.corpus, create=False)
        stores = cls(settings, read.corpus, read.config, read.lexical, get_embedder(settings, read.backend),
                     collection, reader_for(settings), read.unit_ids, read.units, read.window_matrix,
                     read.window_unit, read.lexical_to_unit, read.index, order=read.order,
                     graph_info=read.graph_info, edges=read.edges, chain_starts=read.chain_starts,
                     marks_delegation=read.units.any_delegates())
        stores.__dict__.update(read.built)  # cached_property finds an index the reader built and keeps it
        return stores

    # Scoring over the whole corpus: one vector per call, aligned with unit_ids.
    def embed(self, texts: list[str]) -> np.ndarray:
        """Question vectors by the model that made this corpus's vectors (the same texts: the vectors made before)."""
        return self._remember(self._query_vectors, tuple(texts), MAX_QUERY_VECTORS,
                              lambda: self.embedder.embed_queries(texts, self.config.query_threads))

    def terms(self, text: str) -> tuple[tuple[str, ...], ...]:
        """The corpus analyzer's terms of a question, word by word (`core.analyzers.term_groups`; every BM25 index
        of the stores was cut by that analyzer)."""
        return self._remember(self._question_terms, text, MAX_QUESTION_TERMS,
                              lambda: tuple(term_groups(self.lexical.analyzer, text)))

    def hub_edges(self, key: Hashable, read: Callable[[], tuple[Edge, ...] | None]) -> tuple[Edge, ...] | None:
        """A hub's edges as Neo4j returned them for this key (unit, types, limit, within), read once: the held edges
        leave a hub to Neo4j (its first edges in storage order), and a definitions article is the hub of question
        after question. The graph changes only with an ingest, which reopens the stores. A failed read (None) is
        not kept."""
        return self._remember(self._hub_reads, key, MAX_HUB_READS, read)

    def _remember(self, cache: OrderedDict[Hashable, Any], key: Hashable, limit: int, make: Callable[[], T]) -> T:
        """The value kept under key, else made (outside the lock: answers in other threads go on) and kept; the
        least recently used goes past `limit`; a None made (a read that failed) is returned and not kept. Kept
        arrays are read-only, since every caller shares them. Users asking one new question at once make its
        value once: the others wait for that (at most MAKING_WAIT_S, then make it themselves)."""
        making_key = (id(cache), key)
        with self._remember_lock:
            if key in cache:
                kept: T = self._kept(cache, key)
                return kept
            making = self._making.get(making_key)
            if making is None:
                self._making[making_key] = threading.Event()
        if making is not None:
            making.wait(MAKING_WAIT_S)
            with self._remember_lock:
                if key in cache:
                    made: T = self._kept(cache, key)
                    return made
            return self._make_and_keep(cache, key, limit, make)  # theirs failed or is slow: made here
        try:
            return self._make_and_keep(cache, key, limit, make)
        finally:
            with self._remember_lock:
                self._making.pop(making_key).set()

    @staticmethod
    def _kept(cache: OrderedDict[Hashable, Any], key: Hashable) -> Any:
        """The value kept under key, now the most recently used (the caller holds the lock)."""
        cache.move_to_end(key)
        return cache[key]

    def _make_and_keep(self, cache: OrderedDict[Hashable, Any], key: Hashable, limit: int, make: Callable[[], T]) -> T:
        value = make()
        if value is None:
            return value
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        with self._remember_lock:
            cache[key] = value
            while len(cache) > limit:
                cache.popitem(last=False)
        return value

    def use_query_threads(self) -> None:
        """The embedder sets one thread per core for batch ingest; a question's small batch is faster alone."""
        if self.embedder.token_model is not None:
            import torch  # only a sentence-transformers corpus has torch threads to set

            if torch.get_num_threads() != self.config.query_threads:
                torch.set_num_threads(self.config.query_threads)

    def dense_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine per unit = best of its windows (long units are split; one matching window is enough)."""
        vector = query_vector.astype(np.float32)
        return self._remember(self._dense_scores, vector.tobytes(), MAX_QUESTION_SCORES,
                              lambda: self._dense_scores_of(vector))

    def _dense_scores_of(self, vector: np.ndarray) -> np.ndarray:
        sims = self.window_matrix @ vector
        out = np.full(len(self.unit_ids), -1.0, dtype=np.float32)
        out[self.window_unit[self.first_windows]] = sims[self.first_windows]
        # ufunc.at is slow; only the few extra windows of long units need it.
        np.maximum.at(out, self.window_unit[~self.first_windows], sims[~self.first_windows])
        return out

    @cached_property
    def first_windows(self) -> np.ndarray:
        return first_window_mask(self.window_unit)

    @cached_property
    def first_rows(self) -> np.ndarray:
        """Unit index → row of its first window (the unit's own vector), -1 for a unit without one. Kept on the
        stores themselves: a cache beside them would keep every set a reload replaced alive."""
        return first_window_rows(self.window_unit, len(self.unit_ids))

    def lexical_scores(self, text: str) -> np.ndarray:
        return self._remember(self._lexical_scores, text, MAX_QUESTION_SCORES, lambda: self._lexical_scores_of(text))

    def _lexical_scores_of(self, text: str) -> np.ndarray:
        out = np.zeros(len(self.unit_ids), dtype=np.float32)
        raw = self.lexical.group_scores(self.terms(text))
        known = self.lexical_to_unit >= 0
        out[self.lexical_to_unit[known]] = raw[known]
        return out

    @cached_property
    def context_lexical(self) -> LexicalIndex | None:
        """BM25 over each unit's text plus its ancestors' headings (`heading_index`), built at first use unless
        the stores were read with it. Used by the default method only; the BM25 baseline keeps the plain index."""
        return heading_index(self.units, self.unit_ids, self.lexical, self.config.context_depth, self.graph_info)

    def context_lexical_scores(self, text: str) -> np.ndarray:
        index = self.context_lexical
        return self.lexical_scores(text) if index is None else index.group_scores(self.terms(text))  # over unit_ids

    @cached_property
    def children(self) -> dict[str, list[str]]:
        """Unit id → the ids of the units directly under it (from the graph's parents)."""
        return children_of(self.units, self.unit_ids)

    @cached_property
    def adjacent(self) -> np.ndarray:
        """(units, 2): previous and next unit index in document order under the same parent, -1 if none."""
        return adjacent_units(self.units, self.unit_ids, self.order)

    def allowed_mask(self, filters: Filters) -> np.ndarray:
        """`allowed` for every unit id, in `unit_ids` order, read off the table's columns."""
        return self._remember(self._masks, filters.model_dump_json(), MAX_MASKS, lambda: self._allowed_rows(filters))

    def _allowed_rows(self, filters: Filters) -> np.ndarray:
        table = self.units
        allowed = np.ones(len(table), dtype=bool)
        if filters.document_ids:
            allowed &= table.coded_in("document_id", filters.document_ids)
        if filters.unit_types:
            allowed &= table.coded_in("type", filters.unit_types)
        if not filters.include_repealed:
            allowed &= ~table.coded_in("status", INACTIVE_STATUSES)
        # Row -1 (a unit id not in the table) reads the False appended.
        return np.asarray(np.append(allowed, False)[self._table_rows], dtype=bool)

    @cached_property
    def _table_rows(self) -> np.ndarray:
        """Unit index → its row in the table (-1: not in it)."""
        return table_rows(self.units, self.unit_ids)

    def allowed(self, unit_id: str, filters: Filters) -> bool:
        info = self.units.get(unit_id)
        if info is None:
            return False
        if filters.document_ids and info.document_id not in filters.document_ids:
            return False
        if filters.unit_types and info.type not in filters.unit_types:
            return False
        return filters.include_repealed or info.status not in INACTIVE_STATUSES

    def context(self, unit_id: str, depth: int = 6) -> list[str]:
        """Parent headings, top down, from the cached containment tree (no query per hit)."""
        out: list[str] = []
        parent = self.units[unit_id].parent_id if unit_id in self.units else None
        while parent and parent in self.units and len(out) < depth:
            info = self.units[parent]
            out.append(" ".join(x for x in (info.label, info.title) if x))
            parent = info.parent_id
        return out[::-1]


@dataclass
class ReadCorpus:
    """What opening a corpus reads from its stores, as plain data (no handle of a process): read from the stores,
    or loaded from the read saved beside the index (core.retrieval.saved_read)."""

    corpus: str
    config: RetrievalConfig
    lexical: LexicalIndex
    backend: str  # the embedding backend that made the corpus's vectors
    unit_ids: list[str]
    units: UnitTable
    window_matrix: np.ndarray
    window_unit: np.ndarray
    lexical_to_unit: np.ndarray
    index: dict[str, int]
    order: dict[str, int]
    graph_info: bool
    edges: HeldEdges | None
    chain_starts: ChainStarts | None
    built: dict[str, Any] = field(default_factory=dict)  # CorpusStores' lazy indexes built by the reader, by name

    def build_indexes(self) -> ReadCorpus:
        """The stores' lazy indexes built now, by whoever read the corpus, and saved with the read: the heading BM25
        (`CorpusStores.context_lexical`, ~1 s) and the small ones a first question would otherwise build."""
        self.built.update(
            context_lexical=heading_index(self.units, self.unit_ids, self.lexical, self.config.context_depth,
                                          self.graph_info),
            adjacent=adjacent_units(self.units, self.unit_ids, self.order), children=children_of(self.units, self.unit_ids),
            first_windows=first_window_mask(self.window_unit),
            first_rows=first_window_rows(self.window_unit, len(self.unit_ids)),
            _table_rows=table_rows(self.units, self.unit_ids))
        return self


def read_corpus(settings: Settings, corpus: str, config: RetrievalConfig) -> ReadCorpus:
    # The lexical index first: a corpus never ingested is told so ("run python -m ingest"), not by Chroma.
    lexical = LexicalIndex.load(settings.lexical_path / corpus)
    collection = chroma_store.collection(chroma_store.client(settings), corpus, create=False)
    got = _all_windows(collection)
    units: dict[str, UnitRecord] = {}
    for meta, doc in zip(got["metadatas"], got["documents"]):
        meta = meta or {}
        uid = meta.get("unit_id")
        if uid and (uid not in units or meta.get("window", 0) == 0):
            units[uid] = UnitRecord(id=uid, document_id=meta.get("document_id", ""), type=meta.get("type", ""),
                                    status=meta.get("status", "in_force"), text=doc or "", corpus=corpus)
    graph = reader_for(settings)
    order, graph_info = _overlay_graph_info(graph, corpus, units)
    edges = _held_edges(graph, corpus, units) if graph_info else None
    starts = _chain_starts(graph, corpus) if graph_info else None
    unit_ids = sorted(units)
    index = {u: i for i, u in enumerate(unit_ids)}
    table = UnitTable.from_records({u: units[u] for u in unit_ids}, corpus)
    window_unit = np.array([index[str((m or {}).get("unit_id"))] for m in got["metadatas"]], dtype=np.int64)
    matrix = np.asarray(got["embeddings"], dtype=np.float32).reshape(len(window_unit), -1)
    lex_map = np.array([index.get(u, -1) for u in lexical.unit_ids], dtype=np.int64)
    return ReadCorpus(corpus, config, lexical, stored_backend(got["metadatas"]), unit_ids, table, matrix, window_unit,
                      lex_map, index, order, graph_info, edges, starts)


def heading_index(units: Mapping[str, UnitRecord], unit_ids: list[str], lexical: LexicalIndex, depth: int,
                  graph_info: bool) -> LexicalIndex | None:
    """BM25 over each unit's text plus the titles of its ancestors (rule/section/chapter/document), ~1 s for 14k
    units: a clause "(a) …" is found by the words of the rule it belongs to. None when `depth` is 0."""
    if depth <= 0:
        return None
    analyzer = lexical.analyzer
    # A segmenter is slow (~30 s for 18 statutes): reuse the terms the ingest saved for each unit.
    saved = lexical.tokens_of() if graph_info else None
    if saved is None or any(uid not in saved for uid in unit_ids):
        return LexicalIndex.build(list(unit_ids), context_texts(units, unit_ids, depth), analyzer=analyzer)
    tokens = [saved[uid] + analyzer.tokenize(heading_text(units, uid, depth)) for uid in unit_ids]
    return LexicalIndex.from_tokens(list(unit_ids), tokens, analyzer=analyzer)


def heading_text(units: Mapping[str, UnitRecord], uid: str, depth: int) -> str:
    """The titles of up to `depth` ancestors of a unit."""
    heads: list[str] = []
    parent = units[uid].parent_id
    while parent and parent in units and len(heads) < depth:
        heads.append(units[parent].title)
        parent = units[parent].parent_id
    return " ".join(h for h in heads if h)


def context_texts(units: Mapping[str, UnitRecord], unit_ids: list[str], depth: int) -> list[str]:
    """Each unit's searchable text followed by the titles of up to `depth` ancestors, in unit order."""
    return [unit_search_text(units[uid].label, units[uid].title, units[uid].text) + "\n"
            + heading_text(units, uid, depth) for uid in unit_ids]


def first_window_mask(window_unit: np.ndarray) -> np.ndarray:
    """Per window row, whether it is its unit's first."""
    _, first = np.unique(window_unit, return_index=True)
    mask = np.zeros(len(window_unit), dtype=bool)
    mask[first] = True
    return mask


def first_window_rows(window_unit: np.ndarray, units: int) -> np.ndarray:
    """Unit index → row of its first window, -1 for a unit without one."""
    indexes, rows = np.unique(window_unit, return_index=True)
    first = np.full(units, -1, dtype=np.int64)
    first[indexes] = rows
    return first


def table_rows(units: UnitTable, unit_ids: list[str]) -> np.ndarray:
    """Unit index → the unit's row in the table, -1 for one not in it."""
    return np.array([units.row(u) for u in unit_ids], dtype=np.int64)


def children_of(units: UnitTable, unit_ids: list[str]) -> dict[str, list[str]]:
    """Unit id → the ids of the units directly under it, in `unit_ids` order."""
    out: dict[str, list[str]] = {}
    for uid in unit_ids:
        parent = units.parent_id(uid) if uid in units else None
        if parent:
            out.setdefault(parent, []).append(uid)
    return out


def adjacent_units(units: UnitTable, unit_ids: list[str], order: Mapping[str, int]) -> np.ndarray:
    """(units, 2): previous and next unit index in document order under the same parent, -1 if none."""
    out = np.full((len(unit_ids), 2), -1, dtype=np.int64)
    index = {u: i for i, u in enumerate(unit_ids)}
    ranked = sorted((u for u in unit_ids if u in order and u in units),
                    key=lambda u: (units.value(u, "document_id"), order[u]))
    for a, b in zip(ranked, ranked[1:]):
        if units.value(a, "document_id") == units.value(b, "document_id") and units.parent_id(a) == units.parent_id(b):
            out[index[a], 1] = index[b]
            out[index[b], 0] = index[a]
    return out


def stored_backend(metadatas: list[Any]) -> str:
    """The backend that made a corpus's vectors (kept with each vector since there is more than one; older
    corpora were all made by sentence-transformers)."""
    # The most common: an ingest killed while re-indexing with another backend leaves a few of the old ones.
    backends = Counter((m or {}).get("backend", SENTENCE_TRANSFORMERS) for m in metadatas)
    return backends.most_common(1)[0][0] if backends else SENTENCE_TRANSFORMERS


# Windows read per Chroma call when stores open. One call for a whole corpus holds the GIL for over a second
# (Chroma converts the records in one go), and the chat worker's event loop, which opened them in a worker
# thread, stands still for as long; a page at a time lets it run between pages.
WINDOWS_PER_READ = 500


def _all_windows(collection: Any) -> dict[str, list[Any]]:
    """Every window's embedding, metadata and text, aligned, read a page of ids at a time."""
    ids = collection.get(include=[])["ids"]
    got: dict[str, list[Any]] = {"embeddings": [], "metadatas": [], "documents": []}
    for start in range(0, len(ids), WINDOWS_PER_READ):
        page = collection.get(ids=ids[start:start + WINDOWS_PER_READ], include=["embeddings", "metadatas", "documents"])
        for name, values in got.items():
            values.extend(page[name])
    return got


def _overlay_graph_info(graph: Neo4jReader, corpus: str, units: dict[str, UnitRecord]) -> tuple[dict[str, int], bool]:
    """Labels, parents, tiers and full text come from Neo4j when it answers; vectors alone still work.
    Returns each unit's document order (empty when Neo4j is down) and whether Neo4j answered."""

    no_rows: list[dict[str, Any]] = []
    rows, problem = graph.call(lambda driver, database: unit_graph_info(driver, database, corpus), no_rows)
    order: dict[str, int] = {}
    for row in rows:
        info = units.get(row["id"])
        if info is None:
            continue
        info.label = row["label"] or ""
        info.title = row["title"] or ""
        info.text = row["text"] or info.text
        info.parent_id = row["parent_id"]
        info.tier = int(row["tier"] or 1)
        info.status = row["status"] or info.status
        info.delegates = bool(row.get("delegates"))
        if row.get("order") is not None:
            order[row["id"]] = int(row["order"])
    return order, problem is None


def _held_edges(graph: Neo4jReader, corpus: str, units: dict[str, UnitRecord]) -> HeldEdges | None:
    """The corpus's citation edges (edges.py), or None when Neo4j did not answer: expansion then reads it per question."""
    no_rows: list[dict[str, Any]] = []
    rows, problem = graph.call(lambda driver, database: corpus_edges(driver, database, corpus, HELD_TYPES), no_rows)
    return None if problem else HeldEdges.from_rows(rows, units)


def _chain_starts(graph: Neo4jReader, corpus: str) -> ChainStarts | None:
    """Where the corpus's amendment chains start (edges.py), or None when Neo4j did not answer."""
    no_rows: dict[str, bool] = {}
    starts, problem = graph.call(lambda driver, database: chain_starts(driver, database, corpus), no_rows)
    return None if problem else ChainStarts(starts)
