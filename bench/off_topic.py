"""How close each question sits to a corpus, as the answerer's off-topic test reads it (`core/answer/off_topic.py`),
and the line that test draws for each embedding model, calibrated on tuning sets.

    python -m bench.off_topic --set bench/abstain/hipaa_unanswerable_heldout37.jsonl:hipaa [--set FILE:CORPUS ...]
        [--tune-off FILE:CORPUS ... --tune-on FILE:CORPUS ... [--budget 0.05]] [--out FILE.json]

For each set: every question's closeness (the mean cosine of its nearest units) and the share below its model's
line (`Embedder.far_neighbourhood`), i.e. the share the answerer declines. With tuning sets (`--tune-off`: questions
the corpus does not cover; `--tune-on`: answerable ones), each model's line is calibrated on them alone: the highest
line under which no answerable tuning set has more than `--budget` of its questions. Every `--set` is then read at
both lines, the shipped one and the calibrated one. Reads only the corpus's vector store, so a line for any
embedding model can be read off its sets without running answers.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench import retrieval
from bench.report import print_and_save
from core.answer.off_topic import closeness, far_line
from core.retrieval.reload import open_stores
from core.retrieval.stores import CorpusStores
from core.settings import get_settings

BUDGET = 0.05  # issue 49: at most 5 % of any set's answerable questions declined


def line_for(answerable: list[list[float]], budget: float) -> float:
    """The highest line under which no answerable set has more than `budget` of its questions."""
    return min(sorted(values)[int(budget * len(values))] for values in answerable if values)


def share_below(values: list[float], line: float | None) -> float:
    return round(sum(1 for v in values if line is not None and v < line) / len(values), 4) if values else 0.0


class Reader:
    """Each corpus's stores opened once; a set's questions → their closeness."""

    def __init__(self) -> None:
        self.stores: dict[str, CorpusStores] = {}

    def open(self, corpus: str) -> CorpusStores:
        if corpus not in self.stores:
            self.stores[corpus] = open_stores(get_settings(), corpus)
        return self.stores[corpus]

    def read(self, spec: str) -> dict:
        file, corpus = spec.rsplit(":", 1)
        stores = self.open(corpus)
        questions, _, _ = retrieval.load_questions(Path(file), None, None)
        near = {q.id: closeness(stores, q.question) for q in questions}
        return {"questions_file": Path(file).name, "corpus": corpus, "model": stores.embedder.name,
                "threshold": far_line(stores), "questions": len(near),
                "declined_share": share_below(list(near.values()), far_line(stores)),
                "per_question": [{"id": qid, "closeness": round(v, 4)} for qid, v in near.items()]}


def calibrate(tune_off: list[dict], tune_on: list[dict], budget: float) -> dict[str, dict]:
    """Per embedding model: the line the answerable tuning sets allow, and what it declines of each tuning set."""
    out: dict[str, dict] = {}
    for model in dict.fromkeys(s["model"] for s in tune_on):
        on = [s for s in tune_on if s["model"] == model]
        line = line_for([[q["closeness"] for q in s["per_question"]] for s in on], budget)
        out[model] = {"line": round(line, 4), "budget": budget, "tuning": {
            f"{s['questions_file']}:{s['corpus']}": share_below([q["closeness"] for q in s["per_question"]], line)
            for s in [*on, *(s for s in tune_off if s["model"] == model)]}}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=[], help="FILE:CORPUS to report, repeatable")
    parser.add_argument("--tune-off", action="append", default=[], help="FILE:CORPUS the corpus does not cover")
    parser.add_argument("--tune-on", action="append", default=[], help="FILE:CORPUS of answerable questions")
    parser.add_argument("--budget", type=float, default=BUDGET)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if not args.set and not args.tune_on:
        parser.error("give --set or --tune-on")
    reader = Reader()
    sets = [reader.read(s) for s in args.set]
    result: dict = {"sets": sets}
    if args.tune_on:
        lines = calibrate([reader.read(s) for s in args.tune_off], [reader.read(s) for s in args.tune_on], args.budget)
        for s in sets:
            s["declined_share_calibrated"] = share_below([q["closeness"] for q in s["per_question"]],
                                                         lines.get(s["model"], {}).get("line"))
        result["calibrated"] = lines
    shown = {k: v for k, v in result.items() if k != "sets"} | {
        "sets": [{k: v for k, v in s.items() if k != "per_question"} for s in sets]}
    print_and_save(result, args.out, shown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
