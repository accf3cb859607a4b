"""Fit the extractive answerer's second-stage weights (core.answer.selection.READ_WEIGHTS) on several dev sets at once.

    python -m bench.select_fit --set FILE:CORPUS [--set FILE:CORPUS ...] [--limit N] [--l2 0.3] [--out FILE.json]

Each question is run through the extractive answer's own tool calls; every candidate set of the shortlist
(`selection.shortlist`: the best READ_POOL by the first-stage SET_WEIGHTS, their units read in context) gets its
features and its citation F1 against the question's gold, scored at the gold's level exactly as bench.answers
scores it. The model is a conditional logit (softmax over each question's candidates) whose target is the
candidate(s) of best F1, L2-penalised on standardised features and fitted by Newton steps. Every set weighs the
same in the fit, however many questions it has, so no set's shape decides the weights alone.

Reported for every set: P/R of the chosen candidate with the shipped weights, with weights fitted on all sets
(in-sample), and with weights fitted on the other half of every set (even / odd questions, both ways).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.answers import WARMUP_QUESTION, gold_level, load_questions, prf, rolled_up
from bench.report import print_and_save
from core.answer.deps import AnswerDeps
from core.answer.headings import off_units
from core.answer.questions import clean_question
from core.answer.selection import READ_FEATURES as FEATURES
from core.answer.selection import READ_WEIGHTS, Scorer, candidates, shortlist, told_apart
from core.answer.service import run_extractive
from core.answer.signals import signals_for
from core.answer.stores import Stores, open_stores
from core.retrieval.base import DEFAULT_METHOD
from core.settings import Settings, get_settings

NEWTON_STEPS = 60


@dataclass
class Item:
    """One question's candidates: features (candidates × features), precision, recall and F1 of each."""

    features: np.ndarray
    scores: np.ndarray  # (candidates, 3): P, R, F1
    sizes: np.ndarray
    reach: dict[str, float] = field(default_factory=dict)  # share of the gold found in the evidence / top hits


# Where the gold sits in what the run retrieved: all of the evidence, the search hits, the first 5 of them.
REACH = {"evidence": None, "hits": 0, "top5": 5}


def reach(deps: AnswerDeps, gold: set[str], roll: Callable[[list[str]], set[str]]) -> dict[str, float]:
    seeds = [e.unit.id for e in deps.ledger.seeds()]
    pools = {name: deps.ledger.ids() if depth is None else seeds[:depth or None] for name, depth in REACH.items()}
    return {name: len(gold & roll(pool)) / len(gold) if gold else 0.0 for name, pool in pools.items()}


def collect(path: Path, corpus: str, settings: Settings, method: str, limit: int | None) -> list[Item]:
    stores: Stores = open_stores(settings, corpus, method)
    questions = load_questions(path, None, limit)
    members = gold_level(questions, settings, corpus) if any(q.by_label for q in questions) else None
    warm = AnswerDeps(settings, corpus, WARMUP_QUESTION, stores.retriever, stores.graph)
    asyncio.run(run_extractive(warm))
    items: list[Item] = []
    for n, q in enumerate(questions, start=1):
        deps = AnswerDeps(settings, corpus, clean_question(q.text), stores.retriever, stores.graph)
        asyncio.run(run_extractive(deps))
        signals = signals_for(deps)
        # The candidates the answer chooses from: those under a sibling of the named heading set aside first.
        found = shortlist(told_apart(candidates(deps.ledger, Scorer.for_question(deps.question, deps.ledger), signals),
                                     off_units(deps)), deps.ledger, deps.question, signals)
        matrix = np.array([[c.features[k] for k in FEATURES] for c in found], dtype=np.float64)
        def roll(units: list[str], gold: set[str] = q.gold) -> set[str]:
            return rolled_up(units, gold, stores.graph, members)
        scores = np.array([prf(roll(list(c.units)), q.gold) for c in found])
        items.append(Item(matrix.reshape(len(found), len(FEATURES)), scores.reshape(len(found), 3),
                          np.array([len(c.units) for c in found]), reach(deps, q.gold, roll)))
        if n % 200 == 0:
            print(f"{path.name}: {n}/{len(questions)}", file=sys.stderr, flush=True)
    return items


def fit(sets: list[list[Item]], l2: float) -> np.ndarray:
    """Raw-scale weights maximising Σ_sets (1/n_set) Σ_q Σ_c t_qc log softmax_c − l2/2·|w|² (t: the best-F1 candidates)."""
    rows = [i.features for items in sets for i in items if len(i.features)]
    scale = (np.vstack(rows).std(axis=0) if rows else np.ones(len(FEATURES))) + 1e-9
    train = []
    for items in sets:
        usable = [i for i in items if len(i.features) and i.scores[:, 2].sum() > 0]
        for i in usable:
            best = i.scores[:, 2] >= i.scores[:, 2].max() - 1e-9
            target = best / best.sum()
            train.append((i.features / scale, target, 1.0 / max(1, len(usable))))
    w = np.zeros(len(FEATURES))
    for _ in range(NEWTON_STEPS):
        grad, hess = -l2 * w, -l2 * np.eye(len(w))
        for x, target, weight in train:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += weight * (target @ x - mean)
            hess -= weight * ((x * p[:, None]).T @ x - np.outer(mean, mean))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w / scale


def evaluate(items: list[Item], weights: np.ndarray) -> dict[str, float]:
    """Mean P/R of the candidate each question would cite (ties: the smaller set, then the earlier one)."""
    p = r = two = 0.0
    for i in items:
        if not len(i.features):
            continue
        z = np.round(i.features @ weights, 9)
        best = min(range(len(z)), key=lambda c: (-z[c], i.sizes[c], c))
        p, r, two = p + i.scores[best, 0], r + i.scores[best, 1], two + (i.sizes[best] > 1)
    n = max(1, len(items))
    return {"questions": len(items), "precision": round(p / n, 4), "recall": round(r / n, 4),
            "two_units_share": round(two / n, 4)}


def ceiling(items: list[Item]) -> dict[str, float | dict[str, float]]:
    """What a perfect chooser over the same candidates would score (best F1, then best P), and where the gold is."""
    p = r = 0.0
    for i in items:
        if len(i.features):
            best = max(range(len(i.scores)), key=lambda c: (i.scores[c, 2], i.scores[c, 0]))
            p, r = p + i.scores[best, 0], r + i.scores[best, 1]
    n = max(1, len(items))
    gold_in = {k: round(sum(i.reach.get(k, 0.0) for i in items) / n, 4) for k in REACH}
    return {"precision": round(p / n, 4), "recall": round(r / n, 4), "gold_share_in": gold_in}


def report(named: dict[str, list[Item]], l2: float, held_out: dict[str, list[Item]] | None = None) -> dict:
    sets = list(named.values())
    fitted = fit(sets, l2)
    even = fit([s[0::2] for s in sets], l2)
    odd = fit([s[1::2] for s in sets], l2)
    shipped = np.array([READ_WEIGHTS[k] for k in FEATURES])
    out: dict = {"features": list(FEATURES), "l2": l2, "sets": {}}
    for name, items in named.items():
        out["sets"][name] = {
            "shipped_weights": evaluate(items, shipped),
            "fitted_all": evaluate(items, fitted),
            "fit_even_check_odd": evaluate(items[1::2], even),
            "fit_odd_check_even": evaluate(items[0::2], odd),
            "ceiling": ceiling(items),
        }
    out["held_out"] = {name: {"shipped_weights": evaluate(items, shipped), "fitted_all": evaluate(items, fitted),
                              "ceiling": ceiling(items)} for name, items in (held_out or {}).items()}
    out["weights"] = {k: round(float(w), 3) for k, w in zip(FEATURES, fitted)}
    return out


def _sets(parser: argparse.ArgumentParser, specs: list[str], option: str) -> list[tuple[Path, str]]:
    out = []
    for spec in specs:
        file, sep, corpus = spec.rpartition(":")
        if not sep or not Path(file).exists():
            parser.error(f"{option} {spec!r}: expected an existing FILE:CORPUS")
        out.append((Path(file), corpus))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.select_fit", description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", required=True, metavar="FILE:CORPUS",
                        help="a question file and the corpus it asks about; repeat for every dev set")
    parser.add_argument("--check", action="append", default=[], metavar="FILE:CORPUS",
                        help="a held-out set: scored with the fitted weights, never fitted on")
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--limit", type=int, default=None, help="questions per set")
    parser.add_argument("--l2", type=float, default=0.3, help="penalty on the standardised weights")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    fitted_on, checked_on = _sets(parser, args.set, "--set"), _sets(parser, args.check, "--check")  # all checked first
    named = {f.stem: collect(f, c, settings, args.method, args.limit) for f, c in fitted_on}
    held = {f.stem: collect(f, c, settings, args.method, None) for f, c in checked_on}
    print_and_save({"method": args.method, "limit": args.limit} | report(named, args.l2, held), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
