"""How long a full garbage collection stops a serving process, before and after its long-lived objects are settled.

    python -m bench.gc_pause [--corpus adgm] [--answers 40] [--late-corpus hipaa] [--out bench/results/gc_pause.json]

One process as one app worker has it after its warm-up: the corpus's stores opened and the load bench's questions
answered once (extractive, the chat's path). It then times `gc.collect()` (a full pass: every thread of the
process waits for it) three times, settles the heap as the app does after warming up (`core.stores.heap.settle`),
times it three times again, and answers `--answers` questions counting the collections of each generation and
their time (`gc.callbacks`), so the young ones the answers cause are seen too. With `--late-corpus`, a further
corpus is then opened by its first question, as one ingested while the app runs is, and the full passes are timed
once more: what that corpus's objects add to every later pass.
"""
from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from pathlib import Path

from bench.load import QUESTIONS
from bench.report import print_and_save
from core.answer.service import answer_question
from core.settings import get_settings
from core.stores import heap

FULL_PASSES = 3


def _full_passes() -> list[float]:
    out = []
    for _ in range(FULL_PASSES):
        started = time.perf_counter()
        gc.collect()
        out.append(round((time.perf_counter() - started) * 1000, 1))
    return out


def _answers(questions: list[str], corpus: str, n: int) -> dict[str, object]:
    counts: Counter[int] = Counter()
    spent: dict[int, float] = dict.fromkeys((0, 1, 2), 0.0)
    began: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            generation = info["generation"]
            counts[generation] += 1
            spent[generation] += time.perf_counter() - began.pop()

    settings = get_settings()
    gc.callbacks.append(timed)
    try:
        for i in range(n):
            answer_question(questions[i % len(questions)], corpus, settings, model="extractive")
    finally:
        gc.callbacks.remove(timed)
    return {f"generation {g}": {"collections": counts[g], "ms": round(spent[g] * 1000, 1)} for g in (0, 1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--answers", type=int, default=40)
    parser.add_argument("--late-corpus", default=None, help="a corpus opened after the heap settled")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    questions = QUESTIONS.get(args.corpus, QUESTIONS["adgm"])
    settings = get_settings()
    for question in questions:  # the warm-up and the first round of questions, as a worker has them
        answer_question(question, args.corpus, settings, model="extractive")
    tracked = len(gc.get_objects())
    before = _full_passes()
    heap.settle()
    frozen = gc.get_freeze_count()
    after = _full_passes()
    result = {
        "corpus": args.corpus,
        "objects tracked once warm": tracked,
        "full collection ms, unsettled": before,
        "objects settled (exempt)": frozen,
        "objects tracked after settling": len(gc.get_objects()),
        "full collection ms, settled": after,
        f"collections during {args.answers} answers, settled": _answers(questions, args.corpus, args.answers),
    }
    if args.late_corpus:
        answer_question(QUESTIONS.get(args.late_corpus, questions)[0], args.late_corpus, settings, model="extractive")
        result[f"full collection ms, after {args.late_corpus} opened by its first question"] = _full_passes()
        result["objects tracked then"] = len(gc.get_objects())
    print_and_save(result, args.out)


if __name__ == "__main__":
    main()
