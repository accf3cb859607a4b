"""Embedding backends side by side on one ingested corpus: MiniLM, e5 and BM25 alone.

python -m bench.backends --questions FILE --corpus NAME --out FILE.json [--backends sentence-transformers,e5,bm25]
    [--limit N] [--sample 64]
python -m bench.backends --table bench/results/backends_*.json   # the Markdown table of every result file

Each backend reads the corpus's units as its ingest would (ingest/reading.py: MiniLM every unit in windows, e5
each article once, cut), through the shared embedding cache; questions are embedded as the retriever embeds them.
Reported per backend: retrieval alone (the bench.retrieval metrics, label-level gold as there), the vectors an
ingest makes, ingest throughput (articles or windows per second, measured on `--sample` texts without the cache,
on the threads the backend uses), question-embedding p50/p95, and resident memory the model adds.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import psutil

from bench.retrieval import as_labels, evaluate, label_members, load_questions
from bench.stats import percentile
from core.domain import Document, LegalUnit, UnitType
from core.embeddings import Embedder, get_embedder
from core.retrieval.stores import CorpusStores
from core.settings import get_settings
from ingest.reading import vector_plan

DEPTH = 100


def documents_of(stores: CorpusStores) -> list[Document]:
    """The corpus's units as documents, in document order, rebuilt from the stores (as an ingest would read them)."""
    by_doc: dict[str, list[LegalUnit]] = defaultdict(list)
    for uid in sorted(stores.unit_ids, key=lambda u: (stores.units[u].document_id, stores.order.get(u, 0))):
        info = stores.units[uid]
        kind = info.type if info.type in UnitType._value2member_map_ else UnitType.PASSAGE.value
        by_doc[info.document_id].append(LegalUnit(
            id=uid, corpus=stores.corpus, document_id=info.document_id, type=UnitType(kind), label=info.label,
            title=info.title, text=info.text, parent_id=info.parent_id))
    return [Document(id=d, corpus=stores.corpus, title=d, source_path=d, units=u) for d, u in by_doc.items()]


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def dense_run(embedder: Embedder, documents: list[Document], stores: CorpusStores, questions, sample: int,
              settings) -> tuple[dict, dict]:
    plan = [(unit.id, window.text) for d in documents for unit, window in vector_plan(d, embedder)]
    distinct = list(dict.fromkeys(text for _, text in plan))
    probe = distinct[:: max(1, len(distinct) // sample)][:sample]
    started = time.perf_counter()
    embedder.embed(probe)  # no cache: the throughput of a first ingest
    rate = len(probe) / (time.perf_counter() - started)
    started = time.perf_counter()
    vectors = embedder.embed([text for _, text in plan], cache=embedder.cache_for(settings))
    print(f"{embedder.backend}: {len(plan)} vectors ({len(distinct)} texts) in {time.perf_counter() - started:.0f} s",
          file=sys.stderr, flush=True)
    unit_rows = np.array([stores.index[uid] for uid, _ in plan])
    latencies, run = [], {}
    for q in questions:
        started = time.perf_counter()
        vector = embedder.embed_queries([q.question], 1)[0]
        latencies.append((time.perf_counter() - started) * 1000)
        scores = np.full(len(stores.unit_ids), -1.0, dtype=np.float32)
        np.maximum.at(scores, unit_rows, vectors @ vector)
        top = np.argsort(-scores)[:DEPTH]
        run[q.id] = [(stores.unit_ids[i], float(scores[i])) for i in top]
    cost = {"vectors": len(plan), "texts_embedded": len(distinct), "ingest_texts_per_s": round(rate, 2),
            "ingest_embed_s_estimate": round(len(distinct) / rate, 1),
            "query_embed_ms": {"p50": round(percentile(latencies, 50), 1), "p95": round(percentile(latencies, 95), 1)}}
    return run, cost


def table(paths: list[Path]) -> str:
    rows = ["| dev set (corpus) | backend | Recall@10 | Hit@1 | MRR | vectors | texts embedded | ingest texts/s | "
            "ingest embed (est.) | query embed p50 / p95 ms | model RSS MB |", "|" + "---|" * 11]
    for path in paths:
        report = json.loads(path.read_text())
        name = f"{Path(report['questions']).stem} ({report['corpus']}, {report['units']} units)"
        for backend, v in report["backends"].items():
            timing = v.get("query_embed_ms") or v.get("query_ms") or {}
            rate = v.get("ingest_texts_per_s")
            rows.append(f"| {name} | {backend} | {v['Recall@10']:.3f} | {v['Hit@1']:.3f} | {v['MRR']:.3f} | "
                        f"{v['vectors']} | {v.get('texts_embedded', 0)} | {rate if rate else '–'} | "
                        f"{str(v['ingest_embed_s_estimate']) + ' s' if rate else '–'} | "
                        f"{timing.get('p50', '–')} / {timing.get('p95', '–')} | {v.get('model_rss_mb', '–')} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.backends", description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, nargs="+", help="print the Markdown table of these result files")
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--corpus")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--backends", default="bm25,e5,sentence-transformers")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample", type=int, default=64, help="texts embedded without the cache for throughput")
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.table))
        return 0
    if not (args.questions and args.corpus and args.out):
        parser.error("--questions, --corpus and --out are needed to measure")
    settings = get_settings()
    questions, _, by_label = load_questions(args.questions, None, args.limit)
    stores = CorpusStores.open(settings, args.corpus)
    members = label_members(settings, args.corpus, {g for q in questions for g in q.gold}) if by_label else {}
    documents = documents_of(stores)
    report: dict = {"questions": str(args.questions), "corpus": args.corpus, "n": len(questions),
                    "units": len(stores.unit_ids), "corpus_backend": stores.embedder.backend, "backends": {}}
    for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
        before = rss_mb()
        if backend == "bm25":
            latencies, run = [], {}
            for q in questions:
                started = time.perf_counter()
                scores = stores.lexical_scores(q.question)
                latencies.append((time.perf_counter() - started) * 1000)
                top = np.argsort(-scores)[:DEPTH]
                run[q.id] = [(stores.unit_ids[i], float(scores[i])) for i in top if scores[i] > 0]
            cost: dict = {"vectors": 0, "query_ms": {"p50": round(percentile(latencies, 50), 1),
                                                     "p95": round(percentile(latencies, 95), 1)}}
        else:
            embedder = get_embedder(settings, backend)
            loaded = rss_mb()
            run, cost = dense_run(embedder, documents, stores, questions, args.sample, settings)
            cost["model_rss_mb"] = round(loaded - before, 1)
        cost["rss_after_mb"] = round(rss_mb(), 1)
        if by_label:
            run = {qid: as_labels(ranked, members) for qid, ranked in run.items()}
        report["backends"][backend] = {**evaluate(questions, run, 10), **cost}
        print(f"{backend}: {json.dumps(report['backends'][backend])}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
