"""Knob sweep of the default method over several question sets at once, one process, stores opened once per setting.

python -m bench.sweep --set ../shared/bench/ko_dev.jsonl:kodev --set ../shared/bench/alqac2023_train.jsonl:alqac2023
    --try "" --try "e5_lexical_weight=0.85" --try "closure_bonus=0.2,closure_seeds=4" --out bench/results/sweep_x.json

Each --try is a comma-separated list of RetrievalConfig fields (values as JSON: numbers, lists) over the defaults;
"" is the defaults. A knob is chosen on every set at once: the table shows each setting on each set side by side.
Metrics and gold matching are bench.retrieval's (label gold at that level or below, top 10).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench.retrieval import as_labels, breakdowns, evaluate, label_members, load_questions
from core.retrieval.base import RetrievalRequest
from core.retrieval.config import RetrievalConfig
from core.retrieval.registry import DEFAULT_METHOD, get_retriever
from core.settings import get_settings

DEPTH = 100


def parse_try(spec: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, value = part.partition("=")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    unknown = set(out) - set(RetrievalConfig.model_fields)
    if unknown:
        raise SystemExit(f"--try {spec!r}: no such retrieval setting {sorted(unknown)}")
    RetrievalConfig(**out)  # type: ignore[arg-type]  # an invalid value fails here, before any run
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", required=True, help="QUESTIONS_FILE:CORPUS (repeatable)")
    parser.add_argument("--try", dest="tries", action="append", required=True, help="knob=value,... ('' = defaults)")
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    settings = get_settings()
    sets = []
    for item in args.set:
        path, _, corpus = item.rpartition(":")
        if not path or not Path(path).exists():
            parser.error(f"--set {item!r}: give an existing questions file and a corpus, FILE:CORPUS")
        questions, _, by_label = load_questions(Path(path), None, None)
        members = label_members(settings, corpus, {g for q in questions for g in q.gold}) if by_label else {}
        sets.append((Path(path).stem, corpus, questions, members))
    rows = []
    for spec in args.tries:
        knobs = parse_try(spec)
        retriever = get_retriever(args.method, settings, RetrievalConfig(**knobs))  # type: ignore[arg-type]
        for name, corpus, questions, members in sets:
            run = {}
            for q in questions:
                hits = retriever.retrieve(RetrievalRequest(question=q.question, corpus=corpus, k=DEPTH)).hits
                ranked = [(h.unit_id, h.score) for h in hits]
                run[q.id] = as_labels(ranked, members) if members else ranked
            values = evaluate(questions, run, 10)
            levels = breakdowns(questions, run, 10).get("level", {})
            rows.append({"try": spec or "(defaults)", "set": name, "corpus": corpus, **values,
                         "levels": {k: {m: v[m] for m in ("FullCov@10", "Recall@10", "Hit@1", "n")}
                                    for k, v in levels.items()}})
            cells = " ".join(f"{k} {v['FullCov@10']:.3f}/{v['Recall@10']:.3f}" for k, v in rows[-1]["levels"].items())
            print(f"{rows[-1]['try']:44s} {name:22s} FullCov@10 {values['FullCov@10']:.3f} Recall@10 "
                  f"{values['Recall@10']:.3f} Hit@1 {values['Hit@1']:.3f} MRR {values['MRR']:.3f} {cells}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"method": args.method, "defaults": RetrievalConfig().model_dump(mode="json"),
                                    "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
