"""`python -m bench.ingest --reingest-edit --corpora adgm`: a re-ingest after one passage of one file is edited, against
the cold full ingest of the same corpus (issue 52: under 10 % of it).

Both run the ingest command as a user does (`python -m ingest`: start-up, the stores, the saved read), on a copy of
the corpus, into a private data dir and Neo4j, the embedding cache off: what spares the unchanged windows is Chroma's
text hashes, not the cache. The edit adds a word after a run of words that occurs once in the largest document's
file (the most units to rewrite). After the re-ingest the stored corpus is checked against the parse of the edited
copy, which is what a full ingest writes: every unit's text, every edge between units, and the current law of every
unit an edge amends.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core import neo4j_local
from core.current_law import ParsedLaw
from core.domain import EdgeType
from core.settings import REPO_ROOT, Settings
from core.stores import graph_reader, queries
from ingest.graph import CorpusGraph, build_graph
from ingest.pipeline import IngestSummary

# A run of six words or more, letters only (no number a citation is made of), to occur once in a file; the edit adds a
# word after its first.
PASSAGE = re.compile(r"[^\W\d_]+(?: [^\W\d_]+){5,}")
EDIT_WORD = " revised"


def edit_one_passage(graph: CorpusGraph) -> dict[str, str]:
    """Adds a word inside the first run of words of the largest document that occurs once in its file."""
    for document in sorted(graph.documents, key=lambda d: (-len(d.units), d.source_path)):
        path = Path(document.source_path)
        raw = path.read_text(encoding="utf-8")
        for unit in document.units:
            for found in PASSAGE.finditer(unit.text):
                if raw.count(found.group()) == 1:
                    first, rest = found.group().split(" ", 1)
                    path.write_text(raw.replace(found.group(), f"{first}{EDIT_WORD} {rest}"), encoding="utf-8")
                    return {"file": path.name, "document": document.id, "unit": unit.id, "passage": found.group()}
    raise SystemExit("no passage of the corpus occurs once in its file: nothing to edit")


def _ingest(path: Path, corpus: str, env: dict[str, str]) -> dict[str, Any]:
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ingest", str(path), "--corpus", corpus, "--json", "--quiet"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"python -m ingest {path} failed ({done.returncode}): {done.stderr[-2000:]}")
    summary = IngestSummary.model_validate_json(done.stdout)
    stages = {s.name: s.seconds for s in summary.stages}
    # The pipeline's wall time: the graph writes overlap the vectors; what is left is start-up and the saved read.
    pipeline = sum(v for k, v in stages.items() if k not in ("embed + vectors", "write graph"))
    pipeline += max(stages.get("embed + vectors", 0.0), stages.get("write graph", 0.0))
    return {"seconds": round(seconds, 1), "documents_written": summary.documents_written,
            "vectors_embedded": summary.vectors_embedded, "units": sum(summary.units_by_type.values()),
            "outside_pipeline_seconds": round(seconds - pipeline, 1), "stages": stages,
            "warnings": done.stderr.strip().splitlines()[-3:]}


def stored_against_parse(settings: Settings, graph: CorpusGraph) -> dict[str, Any]:
    """Where the stored corpus differs from the parse a full ingest would write (empty lists: nowhere)."""
    driver = graph_reader.write_driver(settings)
    db, corpus = settings.neo4j_database, graph.corpus
    try:
        units = {u.id: u for d in graph.documents for u in d.units}
        stored = {r["id"]: r["text"] or "" for r in queries.corpus_units(driver, db, corpus)}
        texts = [uid for uid in units.keys() | stored.keys() if stored.get(uid) != (units[uid].text if uid in units else None)]
        types = [t.value for t in EdgeType]
        want = {(e.source, EdgeType(e.type).value, e.target) for e in graph.edges
                if e.source in units and e.target in units and e.source != e.target}
        got = {(r["source"], r["type"], r["target"]) for r in queries.corpus_edges(driver, db, corpus, types)}
        law = ParsedLaw(units, graph.edges)
        amended = sorted({e.target for e in graph.edges if EdgeType(e.type) == EdgeType.AMENDS and e.target in units})
        laws = []
        for uid in amended:
            read = queries.current_law(driver, db, uid)
            if read is None or read.model_dump() != law.read(uid).model_dump():
                laws.append(uid)
    finally:
        driver.close()
    return {"units": len(units), "edges": len(want), "amended_units": len(amended),
            "unit_texts_differing": sorted(texts)[:20], "edges_missing": sorted(want - got)[:20],
            "edges_extra": sorted(got - want)[:20], "current_law_differing": laws[:20]}


def run(corpus: str, base: Settings, settings: Settings) -> dict[str, Any]:
    """Cold ingest, edit, re-ingest and check one corpus; `settings` name the private data dir and Neo4j."""
    env = {**os.environ, "CITEWALK_DATA_DIR": str(settings.data_dir),
           "CITEWALK_NEO4J_BOLT_PORT": str(settings.neo4j_bolt_port),
           "CITEWALK_NEO4J_HTTP_PORT": str(settings.neo4j_http_port), "CITEWALK_EMBEDDING_CACHE": "false"}
    env.pop("NEO4J_URI", None)
    env.pop("CITEWALK_NEO4J_URI", None)
    name = corpus.replace("/", "-")
    with tempfile.TemporaryDirectory(prefix="citewalk-reingest-") as tmp:
        copy = Path(tmp) / name
        shutil.copytree(base.shared / "corpora" / corpus, copy)
        neo4j_local.ensure_running(settings)
        cold = _ingest(copy, name, env)
        cold_check = stored_against_parse(settings, build_graph([copy], name))
        edit = edit_one_passage(build_graph([copy], name))
        again = _ingest(copy, name, env)
        check = stored_against_parse(settings, build_graph([copy], name))
    # The stored corpus is read back the way the chat reads it and compared with the parse. Where a full ingest's store
    # already reads differently (cold_check), the re-ingest is held to that, not to the parse.
    added = {k: sorted(set(v) - set(cold_check[k])) for k, v in check.items() if isinstance(v, list)}
    return {"cold": cold, "edit": edit, "reingest": again, "share": round(again["seconds"] / cold["seconds"], 3),
            "cold_check": cold_check, "check": check, "as_a_full_ingest": not any(added.values()),
            "differing_beyond_a_full_ingest": added}


def print_table(results: dict[str, Any]) -> None:
    print(f"{'corpus':<10} {'cold s':>7} {'re-ingest s':>11} {'share':>6} {'docs':>5} {'vectors':>8} {'outside s':>9} "
          f"{'as full':>7}")
    for corpus, r in results.items():
        again = r["reingest"]
        print(f"{corpus:<10} {r['cold']['seconds']:>7} {again['seconds']:>11} {r['share']:>6.1%} "
              f"{again['documents_written']:>5} {again['vectors_embedded']:>8} {again['outside_pipeline_seconds']:>9} "
              f"{r['as_a_full_ingest']!s:>7}")
        for name, seconds in again["stages"].items():
            print(f"    {name:<18} {seconds:>8.2f} s")
