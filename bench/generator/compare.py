"""`python -m bench.generator.compare --prefix bench/results/hipaa_generated`: Citewalk beside the flat
baselines on a generated set: one Markdown table and one chart from the harnesses' own JSON outputs
(PREFIX_retrieval.json, PREFIX_answers_METHOD.json, and PREFIX_retrieval.trec for the per-type recall)."""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

METHODS = ("bm25", "dense", "hybrid", "citewalk")
RETRIEVAL_KEYS = ("Recall@10", "nDCG@10", "MRR", "FullCov@10")
ANSWER_KEYS = ("citation_precision", "citation_recall", "citation_f1")


def recall_by_type(questions: Path, run: Path, k: int = 10) -> dict[str, dict[str, float]]:
    """Recall@k per reasoning type and method, from the TREC run the retrieval harness wrote."""
    items = {r["id"]: r for r in map(json.loads, questions.read_text().splitlines()) if r}
    ranked: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for line in run.read_text().splitlines():
        qid, _, doc, rank, _, method = line.split()[:6]
        ranked[(method, qid)].append((int(rank), doc))
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (method, qid), docs in ranked.items():
        if qid not in items:
            continue
        top = {d for _, d in sorted(docs)[:k]}
        gold = set(items[qid]["gold_unit_ids"])
        sums[items[qid]["reasoning_type"]][method].append(len(top & gold) / len(gold))
    return {t: {m: round(sum(v) / len(v), 4) for m, v in by.items()} for t, by in sorted(sums.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.generator.compare")
    parser.add_argument("--prefix", type=Path, required=True)
    args = parser.parse_args(argv)
    prefix = args.prefix
    retrieval = json.loads(Path(f"{prefix}_retrieval.json").read_text())["methods"]
    answers = {m: json.loads(p.read_text()) for m in METHODS if (p := Path(f"{prefix}_answers_{m}.json")).exists()}
    # TREC runs are too big to commit: they live in the gitignored runs/ folder beside the summaries.
    run = next((r for r in (prefix.parent / "runs" / f"{prefix.name}_retrieval.trec", Path(f"{prefix}_retrieval.trec"))
                if r.exists()), None)
    by_type = recall_by_type(Path(f"{prefix}.jsonl"), run) if run else {}

    header = ["method", *RETRIEVAL_KEYS, *(f"answer {k.split('_')[1]}" for k in ANSWER_KEYS)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for m in METHODS:
        row = [m, *(f"{retrieval.get(m, {}).get(k, float('nan')):.3f}" for k in RETRIEVAL_KEYS),
               *(f"{answers[m][k]:.3f}" if m in answers else "–" for k in ANSWER_KEYS)]
        lines.append("| " + " | ".join(row) + " |")
    if by_type:
        lines += ["", "Recall@10 by reasoning type:", "", "| type | " + " | ".join(METHODS) + " |",
                  "|" + "---|" * (len(METHODS) + 1)]
        lines += [f"| {t} | " + " | ".join(f"{v.get(m, float('nan')):.3f}" for m in METHODS) + " |"
                  for t, v in by_type.items()]
    table = "\n".join(lines) + "\n"
    Path(f"{prefix}_comparison.md").write_text(table)
    Path(f"{prefix}_comparison.json").write_text(json.dumps(
        {"retrieval": {m: retrieval.get(m) for m in METHODS}, "answers": {m: {k: a[k] for k in ANSWER_KEYS}
         for m, a in answers.items()}, "recall_by_type": by_type}, indent=2) + "\n")
    _chart(Path(f"{prefix}_comparison.png"), retrieval, answers)
    print(table)
    return 0


def _chart(path: Path, retrieval: dict, answers: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [*RETRIEVAL_KEYS, *(k for k in ("citation_f1",) if answers)]
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / len(METHODS)
    for i, m in enumerate(METHODS):
        values = [retrieval.get(m, {}).get(k, 0) if k in RETRIEVAL_KEYS else answers.get(m, {}).get(k, 0) for k in keys]
        ax.bar([x + i * width for x in range(len(keys))], values, width, label=m)
    ax.set_xticks([x + width * (len(METHODS) - 1) / 2 for x in range(len(keys))], [k.replace("citation_", "answer ") for k in keys])
    ax.set_ylim(0, 1)
    ax.set_title(f"Generated multihop questions ({path.stem.replace('_comparison', '')})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
