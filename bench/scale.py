"""Graph expansion at scale: a synthetic 1M-unit regulation graph in a separate, throw-away Neo4j.

python -m bench.scale [--units 1000000] [--out bench/results/scale.json]

Shape: documents of ~2,500 units in a containment tree (part › section › paragraph), and citations
with a realistic degree (ADGM: 0.7 REFERENCES per unit, heavy-tailed; 70% inside the document, hubs
cited by many). Loaded with UNWIND batches; then expansion latency via core.stores.queries.expand
(the code retrieval uses: one typed-pattern query per expansion) for 1 and 2 hops with the node cap,
from random seed sets of 5; the graph retriever's per-type-group calls with a Zipf hub among the
seeds; and a bare `RETURN 1` round trip for scale.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.stats import percentile
from core import neo4j_local
from core.domain import CITATION_EDGE_TYPES, EdgeType
from core.settings import get_settings
from core.stores import queries as graph_queries
from core.stores.neo4j_store import connect

BATCH = 20_000


def synthetic_edges(n: int, rng: np.random.Generator, per_doc: int = 2500, refs_per_unit: float = 0.7):
    """(source, target) index pairs: a containment tree per document and heavy-tailed citations."""
    ids = np.arange(n)
    doc_start = (ids // per_doc) * per_doc
    local = ids - doc_start
    # Tree: unit i's parent is at local (i-1)//8 within its document (fan-out 8), root has none.
    has_parent = local > 0
    contains = np.stack([doc_start[has_parent] + (local[has_parent] - 1) // 8, ids[has_parent]], axis=1)
    m = int(n * refs_per_unit)
    sources = rng.integers(0, n, m)
    inside = rng.random(m) < 0.7
    # Zipf-distributed targets give the hubs real corpora have ("Rule 1.1.1 Interpretation").
    hub = np.minimum(rng.zipf(1.6, m) - 1, per_doc - 1)
    targets = np.where(inside, (sources // per_doc) * per_doc + hub % per_doc, (rng.zipf(1.3, m) * 7919) % n)
    keep = sources != targets
    return contains, np.stack([sources[keep], targets[keep]], axis=1)


def load(driver, database: str, n: int, contains: np.ndarray, refs: np.ndarray) -> dict[str, float]:
    timings = {}
    driver.execute_query("CREATE CONSTRAINT unit_id IF NOT EXISTS FOR (u:Unit) REQUIRE u.id IS UNIQUE", database_=database)
    started = time.perf_counter()
    for first in range(0, n, BATCH):
        rows = [{"id": f"u{i}", "doc": f"d{i // 2500}"} for i in range(first, min(n, first + BATCH))]
        driver.execute_query("UNWIND $rows AS row CREATE (:Unit {id: row.id, document_id: row.doc, corpus: 'scale', "
                             "status: 'in_force', tier: 1})", rows=rows, database_=database)
    timings["nodes_s"] = time.perf_counter() - started
    for name, pairs in ((EdgeType.CONTAINS, contains), (EdgeType.REFERENCES, refs)):
        started = time.perf_counter()
        for first in range(0, len(pairs), BATCH):
            rows = [{"s": f"u{a}", "t": f"u{b}"} for a, b in pairs[first : first + BATCH].tolist()]
            driver.execute_query("UNWIND $rows AS row MATCH (s:Unit {id: row.s}), (t:Unit {id: row.t}) "
                                 f"CREATE (s)-[:{EdgeType(name).value}]->(t)", rows=rows, database_=database)
        timings[f"{name.value.lower()}_s"] = time.perf_counter() - started
    return timings


def measure(driver, database: str, n: int, rng: np.random.Generator, hops: int, node_cap: int, trials: int) -> dict:
    latencies, sizes = [], []
    types = [*CITATION_EDGE_TYPES, EdgeType.CONTAINS]
    for _ in range(trials):
        seeds = [f"u{i}" for i in rng.integers(0, n, 5)]
        started = time.perf_counter()
        reached = graph_queries.expand(driver, database, seeds, types, max_hops=hops, node_cap=node_cap)
        latencies.append((time.perf_counter() - started) * 1000)
        sizes.append(len(reached))
    return {**_percentiles(latencies), "mean_reached": round(float(np.mean(sizes)), 1)}


def _percentiles(latencies: list[float]) -> dict:
    return {"p50_ms": round(percentile(latencies, 50), 2), "p95_ms": round(percentile(latencies, 95), 2)}


def measure_groups(
    driver, database: str, n: int, rng: np.random.Generator, node_cap: int, trials: int, hubs: list[str],
) -> dict:
    """The graph retriever's calls (REFERENCES 1 hop, AMENDS|REPLACES 10, CONTAINS 2), one hub among 5 seeds:
    a type-filtered expansion must not read the hub's thousands of other relationships."""
    groups = [([EdgeType.REFERENCES], 1), ([EdgeType.AMENDS, EdgeType.REPLACES], 10), ([EdgeType.CONTAINS], 2)]
    latencies = []
    for trial in range(trials):
        seeds = [f"u{i}" for i in rng.integers(0, n, 4)] + [hubs[trial % len(hubs)]]
        started = time.perf_counter()
        for types, hops in groups:
            graph_queries.expand(driver, database, seeds, types, max_hops=hops, node_cap=node_cap)
        latencies.append((time.perf_counter() - started) * 1000)
    degrees, _, _ = driver.execute_query(
        "UNWIND $ids AS id MATCH (u:Unit {id: id}) RETURN COUNT { (u)--() } AS deg", ids=hubs, database_=database)
    return {**_percentiles(latencies), "hub_degrees": [int(r["deg"]) for r in degrees]}


def round_trip(driver, database: str, trials: int = 200) -> dict:
    latencies = []
    for _ in range(trials):
        started = time.perf_counter()
        driver.execute_query("RETURN 1", database_=database)
        latencies.append((time.perf_counter() - started) * 1000)
    return _percentiles(latencies)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--node-cap", type=int, default=20)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("bench/results/scale.json"))
    args = parser.parse_args(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="citewalk-scale-"))
    settings = get_settings().model_copy(update={
        "data_dir": data_dir, "neo4j_uri": None, "neo4j_bolt_port": free_port(), "neo4j_http_port": free_port(),
        "neo4j_heap": "2g", "neo4j_pagecache": "2g"})
    rng = np.random.default_rng(7)
    report: dict = {"units": args.units, "node_cap": args.node_cap}
    try:
        neo4j_local.start(settings)
        driver = connect(settings)
        database = settings.neo4j_database
        contains, refs = synthetic_edges(args.units, rng)
        report["edges"] = {"CONTAINS": int(len(contains)), "REFERENCES": int(len(refs))}
        started = time.perf_counter()
        report["load"] = {k: round(v, 1) for k, v in load(driver, database, args.units, contains, refs).items()}
        report["load"]["total_s"] = round(time.perf_counter() - started, 1)
        for hops in (1, 2):  # warm the plans (each hop count is its own query) and the JIT on other seeds
            measure(driver, database, args.units, rng, hops, args.node_cap, 20)
        report["round_trip"] = round_trip(driver, database)
        report["expand_1_hop"] = measure(driver, database, args.units, rng, 1, args.node_cap, args.trials)
        report["expand_2_hops"] = measure(driver, database, args.units, rng, 2, args.node_cap, args.trials)
        hubs = [f"u{7919 * k}" for k in (1, 2, 3, 4)]  # the Zipf heads of the cross-document citations
        report["retriever_groups_with_hub"] = measure_groups(driver, database, args.units, rng, args.node_cap, 50, hubs)
        driver.close()
        report["store_mb"] = round(sum(p.stat().st_size for p in (data_dir / "neo4j").rglob("*") if p.is_file()) / 2**20, 1)
    finally:
        neo4j_local.stop(settings)
        shutil.rmtree(data_dir, ignore_errors=True)
    print(json.dumps(report, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
