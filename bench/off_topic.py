"""How close each question sits to a corpus, as the answerer's off-topic test reads it (`core/answer/off_topic.py`),
the line that test draws for each embedding model, calibrated on tuning sets, and how other closeness signals
would have drawn it.

    python -m bench.off_topic --set bench/abstain/hipaa_unanswerable_heldout37.jsonl:hipaa [--set FILE:CORPUS ...]
        [--tune-off FILE:CORPUS ... --tune-on FILE:CORPUS ... [--budget 0.05]] [--out FILE.json]
    python -m bench.off_topic --combine RUN.json [RUN.json ...] [--out FILE.json]

For each set: every question's closeness (the mean cosine of its nearest units) and the share below its model's
line (`Embedder.far_neighbourhood`), i.e. the share the answerer declines. With tuning sets (`--tune-off`: questions
the corpus does not cover; `--tune-on`: answerable ones), each model's line is calibrated on them alone: the highest
line under which no answerable tuning set has more than `--budget` of its questions. Every `--set` is then read at
both lines, the shipped one and the calibrated one. Reads only the corpus's vector store, so a line for any
embedding model can be read off its sets without running answers.

Each question is also read by the other closeness signals in SIGNALS, and each signal is calibrated the same way:
on all tuning corpora of its model, and leaving each corpus out (its line from the other corpora of the model, as an
unseen corpus would get it), and on the corpus's own answerable sets (the best any line for that corpus could do).
A data dir holds the corpora of one run; `--combine` calibrates over runs made on several data dirs (English,
Korean, Vietnamese), from their saved JSON.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bench import retrieval
from bench.report import print_and_save
from core.answer.off_topic import closeness, far_line, nearest_mean, neighbourhood, parts
from core.retrieval.reload import open_stores
from core.retrieval.stores import CorpusStores
from core.settings import get_settings

BUDGET = 0.05  # issue 49: at most 5 % of any set's answerable questions declined
OFF, ON, REPORT = "off", "on", "report"  # a set's role: off-topic tuning, answerable tuning, only reported


# Closeness signals compared with the shipped one (`neighbourhood`, as `closeness` reads it): name → (whether the
# question's sentences and clauses are read too and the best taken, how one question's cosines per unit are read).
SIGNALS: dict[str, tuple[bool, Callable[[np.ndarray], float]]] = {
    "neighbourhood": (True, neighbourhood),
    "neighbourhood_whole": (False, neighbourhood),
    "nearest": (True, lambda c: float(c.max()) if len(c) else 0.0),  # issue 49's largest cosine to any unit
    "nearest_whole": (False, lambda c: float(c.max()) if len(c) else 0.0),
    "nearest_5": (True, lambda c: nearest_mean(c, 5)),
}


def signals(stores: CorpusStores, question: str) -> dict[str, float]:
    """Every signal of SIGNALS for one question."""
    texts = [question, *parts(question)]
    rows = [stores.dense_scores(v) for v in stores.embed(texts)]
    return {name: max(read(r) for r in (rows if by_parts else rows[:1])) for name, (by_parts, read) in SIGNALS.items()}


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

    def read(self, spec: str, role: str = REPORT) -> dict:
        """`spec`: FILE:CORPUS, or FILE:CORPUS:N for the file's first N questions (as bench.regress reads a set)."""
        file, corpus, *limit = spec.split(":")
        stores = self.open(corpus)
        questions, _, _ = retrieval.load_questions(Path(file), None, int(limit[0]) if limit else None)
        near = {q.id: closeness(stores, q.question) for q in questions}
        return {"questions_file": Path(file).name + (f"[:{limit[0]}]" if limit else ""), "corpus": corpus, "model": stores.embedder.name, "role": role,
                "threshold": far_line(stores), "questions": len(near),
                "declined_share": share_below(list(near.values()), far_line(stores)),
                "per_question": [{"id": q.id, "closeness": round(near[q.id], 4),
                                  **{k: round(v, 4) for k, v in signals(stores, q.question).items()}}
                                 for q in questions]}


def _values(s: dict, signal: str = "closeness") -> list[float]:
    return [q[signal] for q in s["per_question"]]


def _name(s: dict) -> str:
    return f"{s['questions_file']}:{s['corpus']}"


def calibrate(tune_off: list[dict], tune_on: list[dict], budget: float, signal: str = "closeness") -> dict[str, dict]:
    """Per embedding model: the line the answerable tuning sets allow, and what it declines of each tuning set."""
    out: dict[str, dict] = {}
    for model in dict.fromkeys(s["model"] for s in tune_on):
        on = [s for s in tune_on if s["model"] == model]
        line = line_for([_values(s, signal) for s in on], budget)
        out[model] = {"line": round(line, 4), "budget": budget, "tuning": {
            _name(s): share_below(_values(s, signal), line) for s in [*on, *(s for s in tune_off if s["model"] == model)]}}
    return out


def compare(sets: list[dict], budget: float) -> dict[str, dict]:
    """Per signal: what each off-topic and answerable tuning set loses at the line its model's tuning sets give, at
    the line the model's other corpora give (leave one corpus out: the corpus as an unseen one), and at the line the
    corpus's own answerable sets give."""
    tuning = [s for s in sets if s["role"] in (OFF, ON)]
    out: dict[str, dict] = {}
    for signal in SIGNALS:
        def line(on: list[dict], signal: str = signal) -> float | None:
            return line_for([_values(s, signal) for s in on], budget) if on else None

        rows = {}
        for s in tuning:
            same = [o for o in tuning if o["role"] == ON and o["model"] == s["model"]]
            lines = {"all": line(same), "other_corpora": line([o for o in same if o["corpus"] != s["corpus"]]),
                     "own_corpus": line([o for o in same if o["corpus"] == s["corpus"]])}
            rows[_name(s)] = {"role": s["role"], **{k: share_below(_values(s, signal), v) for k, v in lines.items()}}
        out[signal] = rows
    return out


def report(sets: list[dict], budget: float) -> dict:
    """The shipped line's reading of every set, each model's calibrated line, and the signals compared."""
    tune_off = [s for s in sets if s["role"] == OFF]
    tune_on = [s for s in sets if s["role"] == ON]
    result: dict = {"sets": sets}
    if tune_on:
        lines = calibrate(tune_off, tune_on, budget)
        for s in sets:
            s["declined_share_calibrated"] = share_below(_values(s), lines.get(s["model"], {}).get("line"))
        result["calibrated"] = lines
        result["signals"] = compare(sets, budget)
    return result


def table(compared: dict[str, dict]) -> str:
    """Declined share per signal and tuning set, at its model's line / the other corpora's / the corpus's own."""
    names = list(next(iter(compared.values()))) if compared else []
    lines = ["set (role) | " + " | ".join(compared)]
    for name in names:
        cells = [f"{r['all']:.2f}/{r['other_corpora']:.2f}/{r['own_corpus']:.2f}" for r in (c[name] for c in compared.values())]
        lines.append(f"{name} ({compared[next(iter(compared))][name]['role']}) | " + " | ".join(cells))
    return "\n".join(lines)


def _summary(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "sets"} | {
        "sets": [{k: v for k, v in s.items() if k != "per_question"} for s in result["sets"]]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=[], help="FILE:CORPUS[:N] to report, repeatable")
    parser.add_argument("--tune-off", action="append", default=[], help="FILE:CORPUS the corpus does not cover")
    parser.add_argument("--tune-on", action="append", default=[], help="FILE:CORPUS of answerable questions")
    parser.add_argument("--combine", nargs="+", type=Path, default=[], help="runs' JSON to calibrate over together")
    parser.add_argument("--budget", type=float, default=BUDGET)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.combine:
        sets = [s for run in args.combine for s in json.loads(run.read_text())["sets"]]
    elif args.set or args.tune_on:
        reader = Reader()
        sets = ([reader.read(s, OFF) for s in args.tune_off] + [reader.read(s, ON) for s in args.tune_on]
                + [reader.read(s) for s in args.set])
    else:
        parser.error("give --set, --tune-on or --combine")
    result = report(sets, args.budget)
    print_and_save(result, args.out, _summary(result))
    if "signals" in result:
        print("declined at the line from all tuning corpora of the model / the other corpora / the corpus's own")
        print(table(result["signals"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
