"""Fit the extractive answerer's pair weights (core.answer.selection.PAIR_WEIGHTS) on cross-reference questions.

    python -m bench.pair_fit --questions FILE [--corpus adgm] [--method citewalk] [--split 200] [--l2 1.0]
        [--limit N] [--out FILE.json]

Each question (xrefrag format: one source and one target passage) is run through the same tool calls as the
extractive answer; every candidate pair in its evidence ledger gets the features of `scored_pairs`, and the
gold pair is the one whose two ends are the question's two passages. The model is a conditional logit: a
softmax over each question's candidates, L2-penalised on standardised features, fitted by Newton steps.
Questions whose gold pair is not among their candidates carry no signal for the choice and are left out
of the fit (they still count in the reported P/R).

Reported: fit on the first --split questions and checked on the rest, and the other way round (P/R of the
chosen pair, gold pair picked / gold pair among candidates); then the weights fitted on all questions, in
the form PAIR_WEIGHTS takes. P/R here compare unit ids directly (no roll-up of sub-units), so they can differ
slightly from bench.answers.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.answers import WARMUP_QUESTION, Question, load_questions, prf
from bench.report import print_and_save
from core.answer.deps import AnswerDeps, Stores, open_stores
from core.answer.questions import clean_question
from core.answer.selection import PAIR_WEIGHTS, scored_pairs
from core.answer.service import DEFAULT_METHOD, run_extractive
from core.answer.signals import signals_for
from core.settings import Settings, get_settings

NAMES = list(PAIR_WEIGHTS)
NEWTON_STEPS = 50


@dataclass
class Candidates:
    """One question's candidate pairs: features (pairs × features), which row is gold (-1: none), the fallback."""

    features: np.ndarray
    pairs: list[tuple[str, str]]
    gold_row: int
    gold: set[str]
    top_seed: str | None


def collect_one(q: Question, corpus: str, settings: Settings, stores: Stores) -> Candidates:
    deps = AnswerDeps(settings, corpus, clean_question(q.text), stores.retriever, stores.graph)
    asyncio.run(run_extractive(deps))
    scored = scored_pairs(deps.ledger, deps.question, signals_for(deps))
    pairs = [(e.source, e.target) for e, _ in scored]
    matrix = np.array([[f[k] for k in NAMES] for _, f in scored], dtype=np.float64).reshape(len(scored), len(NAMES))
    gold_row = next((i for i, p in enumerate(pairs) if set(p) == q.gold), -1)
    seeds = deps.ledger.seeds()
    return Candidates(matrix, pairs, gold_row, q.gold, seeds[0].unit.id if seeds else None)


def fit(items: list[Candidates], l2: float) -> np.ndarray:
    """Raw-scale weights maximising Σ log softmax(gold) − l2/2·|w|² on features divided by their spread."""
    rows = [c.features for c in items if len(c.features)]
    scale = (np.vstack(rows).std(axis=0) if rows else np.ones(len(NAMES))) + 1e-9
    train = [(c.features / scale, c.gold_row) for c in items if c.gold_row >= 0]
    w = np.zeros(len(NAMES))
    for _ in range(NEWTON_STEPS):
        grad, hess = -l2 * w, -l2 * np.eye(len(w))
        for x, gold in train:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[gold] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w / scale


def evaluate(items: list[Candidates], weights: np.ndarray) -> dict[str, float]:
    """P/R of the pair each question would cite (the top seed alone when it has no candidate)."""
    precision = recall = 0.0
    picked_gold = 0
    for c in items:
        if len(c.features):
            row = int(np.argmax(c.features @ weights))
            cited = set(c.pairs[row])
            picked_gold += row == c.gold_row
        else:
            cited = {c.top_seed} if c.top_seed else set()
        p, r, _ = prf(cited, c.gold)
        precision, recall = precision + p, recall + r
    n = max(1, len(items))
    return {"questions": len(items), "precision": round(precision / n, 4), "recall": round(recall / n, 4),
            "gold_pair_picked": picked_gold, "gold_pair_in_candidates": sum(c.gold_row >= 0 for c in items)}


def report(items: list[Candidates], split: int, l2: float) -> dict:
    first, rest = items[:split], items[split:]
    weights = fit(items, l2)
    out: dict = {"features": NAMES, "l2": l2}
    if first and rest:
        out["fit_first_check_rest"] = evaluate(rest, fit(first, l2))
        out["fit_rest_check_first"] = evaluate(first, fit(rest, l2))
    out["current_weights_all"] = evaluate(items, np.array([PAIR_WEIGHTS[k] for k in NAMES]))
    out["fitted_all"] = evaluate(items, weights)
    out["weights"] = {k: round(float(w), 2) for k, w in zip(NAMES, weights)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pair_fit", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--split", type=int, default=200, help="questions in the first half (fit/check both ways)")
    parser.add_argument("--l2", type=float, default=1.0, help="penalty on the standardised weights")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    stores = open_stores(settings, args.corpus, args.method)
    collect_one(Question("warmup", WARMUP_QUESTION, set()), args.corpus, settings, stores)  # load models once
    items = [collect_one(q, args.corpus, settings, stores)
             for q in load_questions(args.questions, "xrefrag", args.limit)]
    result = {"questions_file": args.questions.name, "corpus": args.corpus, "method": args.method} | \
        report(items, args.split, args.l2)
    print_and_save(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
