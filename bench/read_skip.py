"""How often the first stage's choice is already the answer: the margin below which reading in context is needed.

    python -m bench.read_skip --set FILE:CORPUS [--set FILE:CORPUS ...] [--limit N] [--margins 0.5,1,1.5]
        [--items FILE.pkl] [--out FILE.json]

Each question's shortlist is collected as bench.select_fit collects it (the best READ_POOL candidates by the
first-stage SET_WEIGHTS, their soft features read). For every margin m it reports, per set, the questions whose
first-stage best leads the next candidate by at least m (those an answer would cite without reading), how many of
them the second stage (READ_WEIGHTS) answers otherwise, how many lose the unsure caveat (the second stage's
own lead under UNSURE_MARGIN), and P/R of the chosen candidates with and without the skip.
`--items` keeps what was collected (a pickle), so margins can be re-read without running the answers again.
"""
from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

from bench.report import print_and_save
from bench.select_fit import Item, _sets, collect
from core.answer.selection import READ_FEATURES, READ_WEIGHTS, SET_WEIGHTS, UNSURE_MARGIN
from core.retrieval.base import DEFAULT_METHOD
from core.settings import get_settings

MARGINS = (0.5, 1.0, 1.5, 2.0, 2.25, 2.5, 3.0)


def _scores(item: Item, weights: dict[str, float]) -> np.ndarray:
    w = np.array([weights.get(k, 0.0) for k in READ_FEATURES])
    return np.round(item.features @ w, 9)


def _read_choice(item: Item) -> int:
    z = _scores(item, READ_WEIGHTS)
    return min(range(len(z)), key=lambda c: (-z[c], item.sizes[c], c))


def first_margin(item: Item) -> float:
    """The first stage's lead of its best candidate (the shortlist's first) over the next; inf when alone."""
    z = _scores(item, SET_WEIGHTS)
    return float(z[0] - z[1]) if len(z) > 1 else float("inf")


def read_margin(item: Item, chosen: int) -> float:
    """The second stage's lead of its choice over the next candidate (what the unsure caveat reads)."""
    z = _scores(item, READ_WEIGHTS)
    return float(z[chosen] - max(z[c] for c in range(len(z)) if c != chosen)) if len(z) > 1 else float("inf")


def at_margin(items: list[Item], margin: float) -> dict[str, float]:
    p = r = p_read = r_read = 0.0
    skipped = changed = better = worse = unsure_lost = 0
    for i in items:
        if not len(i.features):
            continue
        read, skip = _read_choice(i), first_margin(i) >= margin
        chosen = 0 if skip else read
        if skip:
            skipped += 1
            unsure_lost += int(read_margin(i, read) < UNSURE_MARGIN)
            if read != 0:
                changed += 1
                delta = i.scores[0, 2] - i.scores[read, 2]
                better, worse = better + int(delta > 1e-9), worse + int(delta < -1e-9)
        p, r = p + i.scores[chosen, 0], r + i.scores[chosen, 1]
        p_read, r_read = p_read + i.scores[read, 0], r_read + i.scores[read, 1]
    n = max(1, len(items))
    return {"margin": margin, "skipped": skipped, "skipped_share": round(skipped / n, 4), "changed": changed,
            "changed_better_f1": better, "changed_worse_f1": worse,
            "unsure_caveat_lost": unsure_lost,
            "precision": round(p / n, 4), "recall": round(r / n, 4),
            "precision_read_all": round(p_read / n, 4), "recall_read_all": round(r_read / n, 4)}


def report(named: dict[str, list[Item]], margins: tuple[float, ...]) -> dict:
    out: dict = {"sets": {}}
    for name, items in named.items():
        moved = sorted(first_margin(i) for i in items if len(i.features) and _read_choice(i) != 0)
        out["sets"][name] = {"questions": len(items), "read_changes_first_stage": len(moved),
                             "largest_margin_read_overturned": round(moved[-1], 4) if moved else None,
                             "by_margin": [at_margin(items, m) for m in margins]}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.read_skip", description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="FILE:CORPUS")
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--limit", type=int, default=None, help="questions per set")
    parser.add_argument("--margins", default=",".join(map(str, MARGINS)))
    parser.add_argument("--items", type=Path, default=None, help="pickle of collected items: read if it exists, "
                        "else written; sets given with --set are collected and added")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    named: dict[str, list[Item]] = {}
    if args.items is not None and args.items.exists():
        named = pickle.loads(args.items.read_bytes())
    settings = get_settings()
    for f, c in _sets(parser, args.set, "--set"):
        named[f.stem] = collect(f, c, settings, args.method, args.limit)
        if args.items is not None:
            args.items.write_bytes(pickle.dumps(named))
    margins = tuple(float(m) for m in args.margins.split(","))
    print_and_save({"method": args.method, "limit": args.limit} | report(named, margins), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
