"""`python -m bench.ingest [--out FILE.json] [--corpora hipaa,adgm]`: end-to-end ingest time and peak
memory per stage, each corpus into fresh, empty stores (a private data dir and Neo4j instance)."""
from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import tempfile
import time
from pathlib import Path

from core import neo4j_local
from core.settings import get_settings
from ingest.pipeline import run_ingest

TARGET_SECONDS = {"hipaa": 60, "adgm": 240}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest")
    parser.add_argument("--out", type=Path, default=Path("bench/results/ingest.json"))
    parser.add_argument("--corpora", default="hipaa,adgm")
    args = parser.parse_args(argv)

    base = get_settings()
    results: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "corpora": {}}
    with tempfile.TemporaryDirectory(prefix="citewalk-bench-") as tmp:
        # The embedding cache off: this bench measures a first ingest, every text embedded.
        settings = base.model_copy(update={"data_dir": Path(tmp), "neo4j_bolt_port": _free_port(),
                                           "neo4j_http_port": _free_port(), "neo4j_uri": None,
                                           "embedding_cache": False})
        started = time.perf_counter()
        neo4j_local.ensure_running(settings)
        results["neo4j_start_seconds"] = round(time.perf_counter() - started, 1)
        try:
            for corpus in args.corpora.split(","):
                path = base.shared / "corpora" / corpus
                began = time.perf_counter()
                summary = run_ingest([path], corpus, settings, quiet=True)
                total = time.perf_counter() - began
                stages = [s.model_dump() for s in summary.stages]
                embed = sum(s["seconds"] for s in stages if s["name"] == "embed + vectors")
                results["corpora"][corpus] = {
                    "total_seconds": round(total, 1),
                    "embedding_seconds": round(embed, 1),
                    "without_embedding_seconds": round(total - embed, 1),
                    "target_seconds": TARGET_SECONDS.get(corpus),
                    "peak_rss_mb": max(s["peak_rss_mb"] for s in stages),
                    "units": sum(summary.units_by_type.values()),
                    "edges": sum(summary.edges_by_type.values()),
                    "vectors": summary.vectors_embedded,
                    "stages": stages,
                }
        finally:
            neo4j_local.stop(settings)

    print(f"{'corpus':<8} {'total s':>8} {'embed s':>8} {'target s':>9} {'peak MB':>8} {'units':>7} {'edges':>7}")
    for corpus, r in results["corpora"].items():
        print(f"{corpus:<8} {r['total_seconds']:>8} {r['embedding_seconds']:>8} {r['target_seconds']:>9} "
              f"{r['peak_rss_mb']:>8.0f} {r['units']:>7} {r['edges']:>7}")
        for s in r["stages"]:
            print(f"    {s['name']:<18} {s['seconds']:>8.2f} s {s['peak_rss_mb']:>8.0f} MB {s['items']:>7} items")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
