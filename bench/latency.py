"""Latency of the default method and of the extractive answer on one corpus, with the machine's load beside it.

python -m bench.latency --questions ../shared/bench/ko_dev.jsonl --corpus kodev --out bench/results/latency_ko_dev.json

Warm figures (the stores and the model are loaded by a first question that is not counted), the same code path as
the chat: `retrieve` with the answerer's k, then `answer_question` with the extractive model. The load average before
and after is written with them: on a shared machine the figures are what that load left; re-run on a quiet one to
check a target (issue 25: query p95 <= 150 ms, extractive answer p95 <= 1 s on the Korean dev corpus, 2 cores).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from bench.retrieval import load_questions, percentiles
from core.answer.deps import AnswerDeps
from core.answer.service import answer_question
from core.answer.stores import open_stores
from core.retrieval.base import DEFAULT_METHOD, RetrievalRequest
from core.settings import get_settings


def spread(values: list[float]) -> dict[str, float]:
    return {**percentiles(values), "max": round(max(values), 1) if values else 0.0}


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.latency", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not args.questions.exists():
        parser.error(f"no such file: {args.questions}")
    settings = get_settings()
    questions, _, _ = load_questions(args.questions, None, args.limit)
    if not questions:
        parser.error(f"{args.questions} holds no questions")
    stores = open_stores(settings, args.corpus, args.method)
    k = AnswerDeps.search_k  # the k the answerer searches with
    started_load = load_average()
    stores.retriever.retrieve(RetrievalRequest(question=questions[0].question, corpus=args.corpus, k=k))  # warm-up
    query_ms: list[float] = []
    stages: dict[str, list[float]] = defaultdict(list)
    for q in questions:
        started = time.perf_counter()
        result = stores.retriever.retrieve(RetrievalRequest(question=q.question, corpus=args.corpus, k=k))
        query_ms.append((time.perf_counter() - started) * 1000)
        for stage, ms in result.timings_ms.items():
            stages[stage].append(ms)
    answer_question(questions[0].question, args.corpus, settings, method=args.method, model="extractive", stores=stores)
    answer_ms: list[float] = []
    for q in questions:
        started = time.perf_counter()
        answer_question(q.question, args.corpus, settings, method=args.method, model="extractive", stores=stores)
        answer_ms.append((time.perf_counter() - started) * 1000)
    report = {
        "questions": str(args.questions), "corpus": args.corpus, "method": args.method, "n": len(questions), "k": k,
        "cpus": len(os.sched_getaffinity(0)), "load_average_before": started_load, "load_average_after": load_average(),
        "query_ms": spread(query_ms), "query_stages_ms": {s: spread(v) for s, v in sorted(stages.items())},
        "answer_ms": spread(answer_ms),
    }
    print(f"{args.corpus}: {len(questions)} questions on {report['cpus']} CPUs, load {started_load} -> "
          f"{report['load_average_after']}")
    print(f"{'what':28s}{'p50 ms':>10s}{'p95 ms':>10s}{'max ms':>10s}")
    rows = [("query (" + args.method + ")", report["query_ms"])] + \
        [("  stage: " + s, v) for s, v in report["query_stages_ms"].items()] + [("extractive answer", report["answer_ms"])]
    for name, v in rows:
        print(f"{name:28s}{v['p50']:10.1f}{v['p95']:10.1f}{v['max']:10.1f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
