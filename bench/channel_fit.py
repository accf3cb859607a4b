"""Fits the default method's per-question channel weights (core/retrieval/channels.py) on every dev set together.

    python -m bench.channel_fit [--sets gdpr_user,hipaa_generated,...] [--out bench/results/channel_fit.json]

A set is read in the data dir that holds its corpus, so the command runs once per data dir (the English sets, then
CITEWALK_DATA_DIR at the Korean and at the Vietnamese one): the rows of the sets measured before are kept in the
out file, and each run fits on all the rows the file then holds and writes the coefficients to
core/retrieval/channel_weights.json.

Per question, through the registered default retriever's stores and its own first-stage scores: the features
(`channels.question_features`) and, for each BM25 share on a grid, the fused first stage's recall at 5, 10 and
POOL (the hits the answerer's search reads), in its first SEEDS (the answerer's seeds), and in its searched pool
(the seeds, plus each channel's first MEANING_RANKS). The
model is a logistic curve of the features fitted, weighted by how much the choice matters for the question, to
the middle of the shares that rank its gold best; it is reported on held-out halves (fitted on one half of every
set, read on the other, and the other way round) beside today's fixed share and the best share per question.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np

from bench import retrieval
from bench.regress import POOL, SETS
from core import neo4j_local
from core.answer.deps import AnswerDeps
from core.answer.tools import MEANING_RANKS
from core.retrieval.base import RetrievalRequest
from core.retrieval.channels import (
    FEATURES,
    WEIGHTS_FILE,
    ChannelModel,
    ChannelWeights,
    channel_weights,
    question_features,
)
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.fusion import fuse_scores, top_indices
from core.retrieval.language import embedder_reads
from core.retrieval.query import Query
from core.retrieval.registry import DEFAULT_METHOD, get_retriever
from core.settings import REPO_ROOT, Settings, get_settings
from core.stores.corpora import answerable_corpora

FIT_SETS = ("gdpr_user", "hipaa_generated", "obliqa150", "xrefrag150", "ko_user", "ko_dev", "vi_user", "alqac")
GRID = np.round(np.linspace(0.0, 1.0, 21), 2)
SEEDS = AnswerDeps.search_k
DEPTH = retrieval.RUN_DEPTH
METRICS = ("r5", "r10", "hits", "seeds", "searched")
# The ridge on the standardised coefficients, as a share of the questions' total weight.
RIDGE = 0.01
# The backends whose fitted model is shipped; a corpus indexed by another keeps the fixed shares (RetrievalConfig).
# e5's is fitted and reported, not shipped: with it, Vietnamese user dev's R@10 rose (0.655 -> 0.707) and its answers
# fell (P/R 0.690/0.672 -> 0.552/0.534; ALQAC 0.947 -> 0.921), each fall a question whose gold had ranked first
# and fell to 2nd-9th, and the Korean sets' first stage fell on held-out halves (ko_user R@10 0.667 -> 0.617).
SHIPPED = ("sentence-transformers",)
OUT = REPO_ROOT / "bench" / "results" / "channel_fit.json"


def _recall(keys: list[str], gold: set[str]) -> float:
    return len(gold & set(keys)) / len(gold)


def _keys(indices: np.ndarray, ids: list[str], members: dict[str, str]) -> list[str]:
    """Units as the gold names them (a label for label gold), each once, at its best rank."""
    return list(dict.fromkeys(members.get(ids[i], ids[i]) for i in indices))


def _ranks(indices: np.ndarray, ids: list[str], members: dict[str, str], gold: set[str]) -> list[int | None]:
    """Per gold key (sorted): the place of the first unit in `indices` that counts for it (None: not there)."""
    first: dict[str, int] = {}
    for place, i in enumerate(indices, start=1):
        first.setdefault(members.get(ids[i], ids[i]), place)
    return [first.get(g) for g in sorted(gold)]


def question_row(query: Query, lexical: np.ndarray, gold: set[str], members: dict[str, str]) -> dict:
    stores, mask = query.stores, query.mask
    dense = np.where(mask, query.dense, -1.0)
    features = question_features(stores, query.request.question, np.where(mask, lexical, -np.inf),
                                 np.where(mask, dense, -np.inf))
    ids = stores.unit_ids
    tops = [i for i in top_indices(query.lexical, MEANING_RANKS, mask) if query.lexical[i] > 0]
    tops += list(top_indices(dense, MEANING_RANKS, mask))
    grid: dict[str, list[float]] = {m: [] for m in METRICS}
    for share in GRID:
        order = top_indices(fuse_scores(lexical, dense, float(share)), DEPTH, mask)
        keys = _keys(order, ids, members)
        for name, cut in (("r5", 5), ("r10", 10), ("hits", POOL)):
            grid[name].append(round(_recall(keys[:cut], gold), 4))
        grid["seeds"].append(round(_recall(_keys(order[:SEEDS], ids, members), gold), 4))
        grid["searched"].append(round(_recall(_keys(np.array([*order[:SEEDS], *tops], dtype=np.int64), ids, members),
                                          gold), 4))
    fixed = query.lexical_share(query.stores.config.lexical_weight, lexical, dense)
    plain = np.where(query.lexical > 0, query.lexical, -np.inf)
    ranks = {"dense": _ranks(top_indices(dense, DEPTH, mask), ids, members, gold),
             "lexical": _ranks(top_indices(plain, DEPTH, mask), ids, members, gold),
             "fused": [_ranks(top_indices(fuse_scores(lexical, dense, float(share)), DEPTH, mask), ids, members, gold)
                       for share in GRID]}
    return {"x": [round(float(v), 5) for v in features], "fixed": round(fixed, 4), "grid": grid, "ranks": ranks}


def collect(name: str, settings: Settings) -> list[dict]:
    dev = SETS[name]
    if dev.corpus not in answerable_corpora(settings):
        raise SystemExit(f"{name}: corpus {dev.corpus!r} is not ingested in {settings.data_dir}; run this set with "
                         "CITEWALK_DATA_DIR at a data dir that holds it")
    retriever = get_retriever(DEFAULT_METHOD, settings)
    if not isinstance(retriever, CitewalkRetriever):
        raise SystemExit(f"the default method {DEFAULT_METHOD!r} has no fused first stage to fit")
    stores = retriever.stores(dev.corpus)
    if not embedder_reads(settings, stores.lexical.analyzer.name, stores.embedder.backend):
        raise SystemExit(f"{name}: the embedder cannot read corpus {dev.corpus!r}; its first stage is BM25 alone")
    questions, _, by_label = retrieval.load_questions(dev.file(settings), None, dev.limit)
    questions = [q for q in questions if q.gold]
    members = retrieval.label_members(settings, dev.corpus, {g for q in questions for g in q.gold}) if by_label else {}
    rows = []
    for n, q in enumerate(questions):
        query = Query(stores, RetrievalRequest(question=q.question, corpus=dev.corpus, k=DEPTH))
        row = question_row(query, retriever.first_stage_lexical(query), set(q.gold), members)
        rows.append({"set": name, "id": q.id, "half": n % 2, "backend": stores.embedder.backend, **row})
    return rows


# --- the fit -----------------------------------------------------------------------------------------------------

def objective(row: dict) -> np.ndarray:
    """Per grid share: the gold ranked first, among the first 5, 10 and POOL (the cuts the answerer and the bench
    read; the answer's choice leans on the first hit most)."""
    first = np.array([np.mean([rank == 1 for rank in ranks]) for ranks in row["ranks"]["fused"]])
    return first + np.asarray(row["grid"]["r5"]) + np.asarray(row["grid"]["r10"]) + np.asarray(row["grid"]["hits"])


def fit(rows: list[dict]) -> ChannelModel:
    """The logistic curve of the features nearest, weighted by how much the share matters, to each question's best
    share (the middle of the grid shares that reach its best objective); every set weighs the same."""
    from scipy.optimize import minimize

    x = np.array([r["x"] for r in rows], dtype=np.float64)
    objectives = np.array([objective(r) for r in rows])
    best = objectives.max(axis=1, keepdims=True)
    target = np.array([GRID[o == b].mean() for o, b in zip(objectives, best[:, 0])])
    # Each set weighs as much as any other, whatever its size: the user-style sets are the smaller ones.
    sizes = {name: sum(r["set"] == name for r in rows) for name in {r["set"] for r in rows}}
    balance = np.array([len(rows) / (len(sizes) * sizes[r["set"]]) for r in rows])
    weight = (best[:, 0] - objectives.mean(axis=1)) * balance
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    ridge = RIDGE * weight.sum()

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        share = 1.0 / (1.0 + np.exp(-(theta[0] + z @ theta[1:])))
        err = share - target
        grad_share = 2 * weight * err * share * (1 - share)
        grad = np.concatenate([[grad_share.sum()], z.T @ grad_share + 2 * ridge * theta[1:]])
        return float((weight * err ** 2).sum() + ridge * (theta[1:] ** 2).sum()), grad

    theta = minimize(loss, np.zeros(1 + x.shape[1]), jac=True, method="L-BFGS-B").x
    coefficients = theta[1:] / scale
    intercept = theta[0] - float((theta[1:] * mean / scale).sum())
    return ChannelModel(features=list(FEATURES), intercept=round(float(intercept), 6),
                        coefficients=[round(float(c), 6) for c in coefficients])


def fit_all(rows: list[dict]) -> ChannelWeights:
    """One model per embedding backend, each on every set whose corpus that backend indexed."""
    return ChannelWeights(models={b: fit([r for r in rows if r["backend"] == b])
                                  for b in sorted({r["backend"] for r in rows})})


def _at(row: dict, share: float) -> dict[str, float]:
    g = int(round(share * (len(GRID) - 1)))
    return {m: row["grid"][m][g] for m in METRICS}


def _means(values: list[dict[str, float]]) -> dict[str, float]:
    return {m: round(float(np.mean([v[m] for v in values])), 4) for m in METRICS} if values else {}


def report(rows: list[dict], shipped: ChannelWeights) -> dict[str, dict]:
    """Per set: today's fixed share, the models fitted on the other half of every set, the shipped ones (fitted on
    all) and the best share per question."""
    halves = {h: fit_all([r for r in rows if r["half"] != h]) for h in (0, 1)}
    out: dict[str, dict] = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        held = [_at(r, halves[r["half"]].models[r["backend"]].share(np.asarray(r["x"]))) for r in mine]
        shares = [shipped.models[r["backend"]].share(np.asarray(r["x"])) for r in mine]
        out[name] = {
            "n": len(mine), "shipped": mine[0]["backend"] in SHIPPED, "fixed": _means([_at(r, r["fixed"]) for r in mine]), "held_out": _means(held),
            "fitted": _means([_at(r, s) for r, s in zip(mine, shares)]),
            "best": _means([{m: r["grid"][m][int(np.argmax(objective(r)))] for m in METRICS} for r in mine]),
            "share": {"mean": round(float(np.mean(shares)), 3), "min": round(float(np.min(shares)), 3),
                      "max": round(float(np.max(shares)), 3)},
        }
    return out


def print_table(sets: dict[str, dict]) -> None:
    print(f"{'set':16s}{'n':>4s}  " + "  ".join(f"{'R@10 ' + c:>14s}" for c in ("fixed", "held-out", "best"))
          + "  " + "  ".join(f"{'R@48 ' + c:>14s}" for c in ("fixed", "held-out")) + f"{'share':>16s}")
    for name, s in sets.items():
        print(f"{name:16s}{s['n']:4d}  " + "  ".join(f"{s[c]['r10']:14.4f}" for c in ("fixed", "held_out", "best"))
              + "  " + "  ".join(f"{s[c]['hits']:14.4f}" for c in ("fixed", "held_out"))
              + f"{s['share']['min']:6.2f}–{s['share']['max']:.2f} ({s['share']['mean']:.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.channel_fit", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help=f"comma-separated, default those this data dir holds of: {', '.join(FIT_SETS)}")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--weights", type=Path, default=WEIGHTS_FILE, help="where the fitted coefficients go")
    parser.add_argument("--fit-only", action="store_true", help="read no set: refit on the rows the out file holds")
    args = parser.parse_args(argv)
    kept = json.loads(args.out.read_text()).get("rows", []) if args.out.exists() else []
    names: list[str] = []
    if not args.fit_only:
        settings = get_settings()
        neo4j_local.ensure_running(settings)
        held = answerable_corpora(settings)
        names = [s.strip() for s in args.sets.split(",")] if args.sets else [s for s in FIT_SETS
                                                                              if SETS[s].corpus in held]
        unknown = [n for n in names if n not in SETS]
        if unknown:
            raise SystemExit(f"unknown sets {unknown}; choose from {', '.join(FIT_SETS)}")
    rows = [r for r in kept if r["set"] not in names]
    for name in names:
        print(f"reading {name}", file=sys.stderr, flush=True)
        rows += collect(name, settings)
    if not rows:
        raise SystemExit(f"no rows to fit on: {args.out} holds none and no set was read")
    weights = fit_all(rows)
    weights.fitted = (f"python -m bench.channel_fit, {datetime.date.today()}: {len(rows)} questions of "
                      f"{', '.join(sorted({r['set'] for r in rows}))}; held-out halves in {args.out.name}")
    shipped = ChannelWeights(models={b: m for b, m in weights.models.items() if b in SHIPPED}, fitted=weights.fitted)
    args.weights.write_text(shipped.model_dump_json(indent=1) + "\n")
    channel_weights.cache_clear()
    sets = report(rows, weights)
    print_table(sets)
    head = {"grid": GRID.tolist(), "features": list(FEATURES), "weights": weights.model_dump(),
            "shipped": list(shipped.models), "sets": sets}
    # One line per question: the rows are most of the file (under the 2 MB a result file may weigh).
    lines = ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
    args.out.write_text(json.dumps(head, indent=1)[:-2] + ',\n "rows": [\n' + lines + "\n ]\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
