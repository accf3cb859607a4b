"""Lexical analyzers compared on one ingested corpus, through the real retrievers.

python -m bench.analyzers --questions FILE --corpus NAME --analyzers en,vi-pyvi,vi-underthesea
    --methods bm25,citewalk --out bench/results/lexical_NAME.json

Each analyzer's index is built from the same units the ingest indexed (Neo4j) and swapped into the
opened stores, so only the analyzer differs; the ingested index itself is left as it is.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bench.retrieval import RUN_DEPTH, as_labels, evaluate, label_members, load_questions, run_method
from core.analyzers import get_analyzer
from core.lexical import LexicalIndex, unit_search_text
from core.retrieval.reload import open_stores
from core.settings import get_settings
from core.stores.graph_reader import reader_for
from core.stores.queries import corpus_units


def swap_analyzer(settings, corpus: str, name: str) -> float:
    """Rebuilds the opened stores' lexical indexes with analyzer `name`; returns the build seconds."""
    rows = corpus_units(reader_for(settings).driver(), settings.neo4j_database, corpus)
    started = time.perf_counter()
    index = LexicalIndex.build([r["id"] for r in rows],
                               [unit_search_text(r["label"], r["title"] or "", r["text"] or "") for r in rows],
                               analyzer=get_analyzer(name))
    stores = open_stores(settings, corpus)
    stores.lexical = index
    stores.__dict__.pop("context_lexical", None)
    _ = stores.context_lexical
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.analyzers", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--analyzers", default="en,vi-syllable,vi-pyvi,vi-underthesea")
    parser.add_argument("--methods", default="bm25,citewalk")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    settings = get_settings()
    questions, _, by_label = load_questions(args.questions, None, None)
    members = label_members(settings, args.corpus, {g for q in questions for g in q.gold}) if by_label else {}
    report: dict = {"questions": str(args.questions), "corpus": args.corpus, "n": len(questions), "analyzers": {}}
    for name in [a.strip() for a in args.analyzers.split(",") if a.strip()]:
        build_s = swap_analyzer(settings, args.corpus, name)
        entry: dict = {"build_s": round(build_s, 1), "methods": {}}
        for method in [m.strip() for m in args.methods.split(",") if m.strip()]:
            run, _, _ = run_method(method, questions, args.corpus, settings, RUN_DEPTH)
            if by_label:
                run = {qid: as_labels(ranked, members) for qid, ranked in run.items()}
            entry["methods"][method] = evaluate(questions, run, 10)
            values = entry["methods"][method]
            print(f"{name:18s} {method:10s} R@10 {values['Recall@10']:.4f}  Hit@1 {values['Hit@1']:.4f}  "
                  f"MRR {values['MRR']:.4f}  (index {build_s:.1f} s)", flush=True)
        report["analyzers"][name] = entry
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
