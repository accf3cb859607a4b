"""Retrieval benchmark: every method in one process on the same index, metrics by ranx.

python -m bench.retrieval --questions FILE [--format xrefrag|obliqa|units] --methods bm25,dense,...
    --k 10 --corpus NAME --out FILE.json [--run-out FILE.trec] [--limit N]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from bench.stats import percentile
from core.retrieval.base import RetrievalRequest
from core.retrieval.registry import DEFAULT_METHOD, RETRIEVERS, get_retriever
from core.settings import Settings, get_settings
from core.stores import queries
from core.stores.graph_reader import reader_for

Format = Literal["xrefrag", "obliqa", "units"]
RUN_DEPTH = 100


class Question(BaseModel):
    id: str
    question: str
    gold: list[str] = Field(description="unit ids, or labels for label-level gold")
    groups: dict[str, str] = Field(default_factory=dict, description="breakdown keys, e.g. method, reference_type")
    source: str | None = None
    target: str | None = None


def detect_format(row: dict) -> Format:
    if "source_passage_id" in row:
        return "xrefrag"
    if "gold_passage_ids" in row:
        return "obliqa"
    return "units"


def load_questions(path: Path, fmt: Format | None, limit: int | None) -> tuple[list[Question], Format, bool]:
    """Rows → questions; the bool says whether gold is given as labels (matched at that level or below)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if limit:
        rows = rows[:limit]
    fmt = fmt or (detect_format(rows[0]) if rows else "units")
    out, by_label = [], False
    for row in rows:
        if fmt == "xrefrag":
            src, tgt = row["source_passage_id"], row["target_passage_id"]
            out.append(Question(id=str(row["id"]), question=row["question"], gold=[src, tgt], source=src, target=tgt,
                                groups={"method": row.get("method", ""), "reference_type": row.get("reference_type", "")}))
        elif fmt == "obliqa":
            out.append(Question(id=str(row["id"]), question=row["question"], gold=list(row["gold_passage_ids"])))
        else:
            by_label = by_label or ("gold_labels" in row and "gold_unit_ids" not in row)
            gold = row.get("gold_unit_ids") or row.get("gold_labels") or []
            groups = {"answer_type": row["answer_type"]} if row.get("answer_type") else {}
            if "level" in row:  # ko_dev: L1–L3
                groups["level"] = str(row["level"])
            out.append(Question(id=str(row["id"]), question=row["question"], gold=list(gold), groups=groups))
    return out, fmt, by_label


def label_members(settings: Settings, corpus: str, labels: set[str]) -> dict[str, str]:
    """unit id → gold label for every unit at or below a labelled unit (CONTAINS), one query."""
    return queries.label_members(reader_for(settings).driver(), settings.neo4j_database, corpus, labels)


def run_method(name: str, questions: list[Question], corpus: str, settings: Settings, depth: int
               ) -> tuple[dict[str, list[tuple[str, float]]], list[float], list[str]]:
    retriever = get_retriever(name, settings)
    if questions:  # warm-up: opening the stores and loading the model are not retrieval latency
        retriever.retrieve(RetrievalRequest(question=questions[0].question, corpus=corpus, k=depth))
    run, latencies, notices = {}, [], set()
    for q in questions:
        started = time.perf_counter()
        result = retriever.retrieve(RetrievalRequest(question=q.question, corpus=corpus, k=depth))
        latencies.append((time.perf_counter() - started) * 1000)
        run[q.id] = [(h.unit_id, h.score) for h in result.hits]
        notices.update(result.degraded)
    return run, latencies, sorted(notices)


def as_labels(ranked: list[tuple[str, float]], members: dict[str, str]) -> list[tuple[str, float]]:
    """A hit counts for the gold label it falls under; each label once, at its best rank."""
    seen, out = set(), []
    for unit_id, score in ranked:
        key = members.get(unit_id, unit_id)
        if key not in seen:
            seen.add(key)
            out.append((key, score))
    return out


def evaluate(questions: list[Question], run: dict[str, list[tuple[str, float]]], k: int) -> dict[str, float]:
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    qrels = Qrels({q.id: {g: 1 for g in q.gold} for q in questions if q.gold})
    # ranx orders by score; rank-derived scores keep each method's own order exactly (ties included).
    ranx_run = Run({q.id: {u: float(len(run[q.id]) - i) for i, (u, _) in enumerate(run[q.id])} or {"_none_": 0.0}
                    for q in questions if q.gold})
    names = {f"recall@{k}": f"Recall@{k}", "ndcg@10": "nDCG@10", "map@10": "MAP@10", "mrr": "MRR", "hit_rate@1": "Hit@1"}
    scores = ranx_evaluate(qrels, ranx_run, list(names), make_comparable=True)
    out = {names[m]: round(float(v), 4) for m, v in scores.items()}
    out["FullCov@10"] = round(float(np.mean([set(q.gold) <= {u for u, _ in run[q.id][:10]}
                                             for q in questions if q.gold])), 4)
    return out


def xref_scores(questions: list[Question], run: dict[str, list[tuple[str, float]]]) -> dict[str, float]:
    def rate(pred) -> float:
        return round(float(np.mean([pred(q, {u for u, _ in run[q.id][:10]}) for q in questions])), 4) if questions else 0.0

    return {
        "Both@10": rate(lambda q, top: q.source in top and q.target in top),
        "SRC@10": rate(lambda q, top: q.source in top),
        "TGT@10": rate(lambda q, top: q.target in top),
    }


def breakdowns(questions: list[Question], run, k: int) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    keys = sorted({key for q in questions for key in q.groups})
    for key in keys:
        for value in sorted({q.groups.get(key, "") for q in questions}):
            subset = [q for q in questions if q.groups.get(key, "") == value]
            out[key][value] = {**evaluate(subset, run, k), **xref_scores(subset, run), "n": len(subset)}
    return dict(out)


def percentiles(latencies: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(latencies, 50), 1), "p95": round(percentile(latencies, 95), 1)}


def write_trec(path: Path, runs: dict[str, dict[str, list[tuple[str, float]]]]) -> None:
    with path.open("w") as out:
        for method, run in runs.items():
            for qid, ranked in run.items():
                for rank, (unit_id, score) in enumerate(ranked[:RUN_DEPTH], start=1):
                    out.write(f"{qid} Q0 {unit_id} {rank} {score:.6f} {method}\n")


def draw_chart(path: Path, report: dict, metrics: list[str]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = list(report["methods"])
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(metrics)), 4))
    width = 0.8 / max(1, len(methods))
    for n, method in enumerate(methods):
        values = [report["methods"][method].get(m, 0.0) for m in metrics]
        ax.bar(np.arange(len(metrics)) + n * width, values, width, label=method)
    ax.set_xticks(np.arange(len(metrics)) + width * (len(methods) - 1) / 2, metrics)
    ax.set_ylim(0, 1)
    ax.set_title(report.get("questions", ""))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def print_table(report: dict, metrics: list[str]) -> None:
    header = f"{'method':16s}" + "".join(f"{m:>12s}" for m in metrics) + f"{'p50 ms':>9s}{'p95 ms':>9s}"
    print(header)
    for method, values in report["methods"].items():
        cells = "".join(f"{values.get(m, float('nan')):12.4f}" for m in metrics)
        print(f"{method:16s}{cells}{values['latency_ms']['p50']:9.1f}{values['latency_ms']['p95']:9.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.retrieval", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--format", choices=["xrefrag", "obliqa", "units"])
    parser.add_argument("--methods", default=f"bm25,dense,hybrid,graph,refwalk,{DEFAULT_METHOD}")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--corpus", default=None)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--run-out", type=Path)
    parser.add_argument("--limit", type=int)
    args = parser.parse_args(argv)
    settings = get_settings()
    corpus = args.corpus or settings.default_corpus
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in RETRIEVERS]
    if unknown:
        parser.error(f"unknown methods {unknown}; choose from {', '.join(RETRIEVERS)}")
    if not args.questions.exists():
        parser.error(f"no such file: {args.questions}")
    questions, fmt, by_label = load_questions(args.questions, args.format, args.limit)
    members = label_members(settings, corpus, {g for q in questions for g in q.gold}) if by_label else {}
    depth = max(args.k, RUN_DEPTH)
    report: dict = {"questions": str(args.questions), "format": fmt, "corpus": corpus, "n": len(questions),
                    "k": args.k, "methods": {}, "breakdowns": {}, "degraded": {}}
    runs = {}
    for method in methods:
        run, latencies, notices = run_method(method, questions, corpus, settings, depth)
        runs[method] = run  # the TREC file keeps unit ids; label gold is scored on the mapped run
        if by_label:
            run = {qid: as_labels(ranked, members) for qid, ranked in run.items()}
        values: dict[str, float | dict[str, float]] = dict(evaluate(questions, run, args.k))
        if fmt == "xrefrag":
            values.update(xref_scores(questions, run))
        if any(q.groups for q in questions):
            report["breakdowns"][method] = breakdowns(questions, run, args.k)
        values["latency_ms"] = percentiles(latencies)
        report["methods"][method] = values
        if notices:
            report["degraded"][method] = notices
        print(f"{method}: done ({len(questions)} questions)", file=sys.stderr, flush=True)
    metrics = [f"Recall@{args.k}", "nDCG@10", "MAP@10", "MRR", "Hit@1", "FullCov@10"] + (
        ["Both@10", "SRC@10", "TGT@10"] if fmt == "xrefrag" else [])
    print_table(report, metrics)
    for method, groups in report["breakdowns"].items():
        for key, values in groups.get("level", {}).items():
            print(f"{method:16s} {key} (n={values['n']}): FullCov@10 {values['FullCov@10']:.3f}  "
                  f"Recall@{args.k} {values[f'Recall@{args.k}']:.3f}  Hit@1 {values['Hit@1']:.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    draw_chart(args.out.with_suffix(".png"), report, metrics)
    if args.run_out:
        write_trec(args.run_out, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
