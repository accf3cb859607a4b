"""First-stage sweep: how far BM25 variants, score fusion and dense feedback go on a question set.

    python -m bench.first_stage --questions FILE [--format obliqa|xrefrag|units] [--corpus adgm]
        [--out bench/results/first_stage_obliqa_dev.json] [--limit N]

Flat rankings only (no citation expansion), each scored with the same ranx metrics as bench.retrieval,
overall and split by how many gold units a question has. It answers "is the first stage the ceiling?"
before anyone tunes expansion: every variant here reuses the stores `python -m ingest` built and
changes one thing at a time (BM25 k1/b or formula, the lexical share of the fusion, pseudo-relevance
feedback on the question vector).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from bench.report import save_json
from bench.retrieval import Question, evaluate, load_questions
from core.lexical import LexicalIndex
from core.retrieval.fusion import fuse_scores
from core.retrieval.reload import open_stores
from core.retrieval.stores import CorpusStores
from core.settings import get_settings

DEPTH = 100
# Against the stores' own index over text + headings (lucene, k1 1.2, b 0.75).
BM25_VARIANTS = [("lucene", 0.9, 0.4), ("lucene", 1.5, 0.75), ("lucene", 1.2, 0.5), ("lucene", 1.2, 0.9),
                 ("bm25+", 1.2, 0.75)]
FUSION_WEIGHTS = [0.6, 0.7, 0.8, 0.9]
PRF_SEEDS, PRF_BETA = 3, 1.0


def as_run(stores: CorpusStores, questions: list[Question], scores: list[np.ndarray]) -> dict[str, list[tuple[str, float]]]:
    run = {}
    for q, s in zip(questions, scores):
        top = np.argpartition(-s, DEPTH)[:DEPTH]
        top = top[np.argsort(-s[top], kind="stable")]
        run[q.id] = [(stores.unit_ids[i], float(s[i])) for i in top]
    return run


def unit_vectors(stores: CorpusStores) -> np.ndarray:
    """Each unit's first window vector (the one that covers its opening words)."""
    first = stores.first_windows
    out = np.zeros((len(stores.unit_ids), stores.window_matrix.shape[1]), dtype=np.float32)
    out[stores.window_unit[first]] = stores.window_matrix[first]
    return out


def by_gold_count(questions: list[Question], run: dict, k: int) -> dict[str, dict[str, float]]:
    groups: dict[str, list[Question]] = {}
    for q in questions:
        groups.setdefault(str(min(len(q.gold), 3)) + ("+" if len(q.gold) >= 3 else ""), []).append(q)
    return {name: {**evaluate(group, run, k), "n": len(group)} for name, group in sorted(groups.items())}


def sweep(stores: CorpusStores, questions: list[Question], k: int) -> dict[str, dict]:
    started = time.perf_counter()
    vectors = stores.embed([q.question for q in questions])
    dense = [stores.dense_scores(v) for v in vectors]
    plain = [stores.lexical_scores(q.question) for q in questions]
    context = [stores.context_lexical_scores(q.question) for q in questions]
    print(f"scored dense, bm25 and bm25+headings in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    variants: dict[str, list[np.ndarray]] = {"bm25": plain, "bm25+headings": context, "dense": dense}
    for w in FUSION_WEIGHTS:
        variants[f"fused w={w}"] = [fuse_scores(lx, d, w) for lx, d in zip(context, dense)]
    # Pseudo-relevance feedback: the question vector moved towards the top fused hits' vectors.
    units = unit_vectors(stores)
    base = variants["fused w=0.8"]
    moved = []
    for v, s in zip(vectors, base):
        top = np.argpartition(-s, PRF_SEEDS)[:PRF_SEEDS]
        q = v + PRF_BETA * units[top].mean(axis=0)
        moved.append(stores.dense_scores(q / np.linalg.norm(q)))
    variants[f"dense+prf{PRF_SEEDS}"] = moved
    variants[f"fused w=0.8, dense+prf{PRF_SEEDS}"] = [fuse_scores(lx, d, 0.8) for lx, d in zip(context, moved)]
    texts, ids = stores.context_texts(), list(stores.unit_ids)
    for method, k1, b in BM25_VARIANTS:
        index = LexicalIndex.build(ids, texts, k1=k1, b=b, method=method)
        lexical = [index.scores(q.question) for q in questions]
        variants[f"{method} k1={k1} b={b}"] = lexical
        variants[f"fused w=0.8, {method} k1={k1} b={b}"] = [fuse_scores(lx, d, 0.8) for lx, d in zip(lexical, dense)]
    report = {}
    for name, scores in variants.items():
        run = as_run(stores, questions, scores)
        report[name] = {**evaluate(questions, run, k), "by_gold_count": by_gold_count(questions, run, k)}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_stage", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--format", choices=["xrefrag", "obliqa", "units"])
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    questions, fmt, by_label = load_questions(args.questions, args.format, args.limit)
    if by_label:
        parser.error("gold given as labels: this sweep needs gold unit ids")
    report = sweep(open_stores(get_settings(), args.corpus), questions, args.k)
    metrics = [f"Recall@{args.k}", "MAP@10", "nDCG@10", "FullCov@10"]
    print(f"{'variant':40s}" + "".join(f"{m:>12s}" for m in metrics))
    for name, values in report.items():
        print(f"{name:40s}" + "".join(f"{values[m]:12.4f}" for m in metrics))
    save_json(args.out, {"questions": str(args.questions), "format": fmt, "corpus": args.corpus,
                         "n": len(questions), "variants": report})
    return 0


if __name__ == "__main__":
    sys.exit(main())
