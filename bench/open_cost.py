"""What opening a corpus's stores costs a serving process: wall and CPU seconds, by the part that spends them.

    python -m bench.open_cost [--corpus hipaa --corpus adgm] [--repeats 3] [--out bench/results/open_cost.json]

One process, as a chat worker opens a corpus it has not served yet: the embedding model loaded and the Neo4j
driver connected first (a worker has both once it answers anything), then each corpus opened `--repeats` times
afresh (`CorpusStores.open`, then `warm`, as a reload does), its time split by the parts that spend it: Chroma's
windows, Neo4j's unit info, edges and chain starts, and the warm-up's indexes (mostly the heading BM25). The CPU an opening spends is what
the chats answering meanwhile lose (`bench.open_stall`). Parts are timed by wrapping them: a profiler slows the
Neo4j driver's pure-Python decoding far more than the rest, and exaggerates it.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.report import print_and_save
from core.embeddings import get_embedder
from core.retrieval import stores as stores_module
from core.retrieval.stores import CorpusStores
from core.settings import get_settings
from core.stores.graph_reader import reader_for

# The module functions `CorpusStores.open` spends its time in, by what a reader calls them.
PARTS = {"chroma windows": "_all_windows", "neo4j unit info": "_overlay_graph_info", "neo4j edges": "_held_edges",
         "neo4j chain starts": "_chain_starts"}


def _timed(name: str, fn: Callable[..., Any], spent: dict[str, float]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = round(spent.get(name, 0.0) + time.perf_counter() - started, 3)
    return run


def open_once(corpus: str) -> dict[str, object]:
    settings = get_settings()
    spent: dict[str, float] = {}
    originals = {attr: getattr(stores_module, attr) for attr in PARTS.values()}
    for name, attr in PARTS.items():
        setattr(stores_module, attr, _timed(name, originals[attr], spent))
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        stores = CorpusStores.open(settings, corpus)
        opened = time.perf_counter()
        stores.warm()
        spent["warm (heading BM25, neighbours)"] = round(time.perf_counter() - opened, 3)
    finally:
        for attr, fn in originals.items():
            setattr(stores_module, attr, fn)
    return {"wall_s": round(time.perf_counter() - wall, 3), "cpu_s": round(time.process_time() - cpu, 3),
            "units": len(stores.unit_ids), "windows": len(stores.window_unit), "parts_wall_s": spent}


def _median(runs: list[dict[str, object]], key: str) -> float:
    return round(statistics.median(float(r[key]) for r in runs), 3)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    settings = get_settings()
    get_embedder(settings)
    reader_for(settings).driver()  # connected, as in any worker that has answered once
    corpora: dict[str, object] = {}
    for corpus in args.corpus or ["hipaa"]:
        open_once(corpus)  # imports and the server's query plans, paid once per process
        runs = [open_once(corpus) for _ in range(args.repeats)]
        corpora[corpus] = {"median wall s": _median(runs, "wall_s"), "median cpu s": _median(runs, "cpu_s"),
                           "runs": runs}
    print_and_save({"repeats": args.repeats, "corpora": corpora}, args.out)


if __name__ == "__main__":
    main()
