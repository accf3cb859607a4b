"""What each question-kind pattern gains: `python -m bench.patterns`.

    python -m bench.patterns [--sets gdpr_user,ko_user] [--out bench/results/patterns.json]

`core.answer.asked` reads what a question asks for, and what a provision carries, by patterns; asked.py states
beside each the gain measured here. Every `make answers` set (`bench.regress`'s) goes once through the extractive
answerer (the chat's and the API's `answer_question`), noting which strings each pattern was searched with for
each question. Then each alternative of each pattern is taken out in turn: the questions on which it matched
differently are answered again without it, and each set's change is summed over its questions (citation P + R;
on an off-topic set, 2 for each question declined; on the answerable-only set, -2 for each declined), and how
many short answers read otherwise: one asking for a deadline or an amount opens with the words that state it
("Up to 20 000 000 EUR …: Article 83(5). Under …"), which these patterns find. A negative change is the
alternative's gain; it is also summed over the held-out halves (the odd-numbered questions of every
set, as TRIED.md reads the rules switched off one by one). The others stay in while one is out, so two
alternatives that match the same questions each show none: the table is read one alternative at a time.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

from bench import answers, regress
from bench.report import save_json
from core import neo4j_local
from core.answer import asked, sanctions
from core.retrieval.base import DEFAULT_METHOD
from core.settings import REPO_ROOT, Settings, get_settings

OUT = REPO_ROOT / "bench" / "results" / "patterns.json"
QuestionKey = tuple[str, str]  # (set, question id)


@dataclass(frozen=True)
class Reading:
    score: float  # citation P + R (declined, on the off-topic sets)
    said: str  # the short answer's digest (bench.answers' "said")


@dataclass
class Slot:
    """One pattern of asked.py, swapped for a copy that notes what it reads and can leave an alternative out."""
    name: str
    alternatives: tuple[str, ...]
    compiled: re.Pattern[str]
    pattern: str = ""
    reads: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # question -> strings searched
    question: list[str] = field(default_factory=lambda: [""])  # the question being answered, shared by all slots

    def __post_init__(self) -> None:
        self.pattern = self.compiled.pattern

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        self.reads[self.question[0]].add(text)
        return self.compiled.search(text, *args)

    def without(self, alternative: str | None) -> re.Pattern[str]:
        kept = [a for a in self.alternatives if a != alternative]
        return re.compile("|".join(f"(?:{p})" for p in kept) if kept else r"(?!)", re.I)


def install(question: list[str]) -> list[Slot]:
    """Every pattern of asked.py (and sanctions.py's copy of SANCTION_STATED) as a slot."""
    slots: list[Slot] = []

    def slot(name: str, pattern: re.Pattern[str]) -> Slot:
        made = Slot(name, asked.parts(pattern), pattern, question=question)
        slots.append(made)
        return made

    for kind in list(asked.ASKS):
        asked.ASKS[kind] = slot(f"ASKS.{kind}", asked.ASKS[kind])  # type: ignore[assignment]
    for kind in list(asked.CARRIES):
        asked.CARRIES[kind] = slot(f"CARRIES.{kind}", asked.CARRIES[kind])  # type: ignore[assignment]
    asked.ELEMENTS = slot("ELEMENTS", asked.ELEMENTS)  # type: ignore[assignment]
    asked.SANCTION_ASKED = slot("SANCTION_ASKED", asked.SANCTION_ASKED)  # type: ignore[assignment]
    stated = slot("SANCTION_STATED", asked.SANCTION_STATED)
    asked.SANCTION_STATED = sanctions.SANCTION_STATED = stated  # type: ignore[assignment,attr-defined]
    return slots


def _span(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    found = pattern.search(text)
    return found.span() if found else None


def touched(slot: Slot, alternative: str, texts: set[str]) -> bool:
    """Whether leaving the alternative out changes where the pattern first matches any of the texts."""
    without = slot.without(alternative)
    return any(_span(slot.compiled, t) != _span(without, t) for t in texts)


def score(name: str, row: dict) -> float:
    if regress.SETS[name].off_topic:
        return 2.0 * row["abstained"]
    if not row["gold"]:
        return -2.0 * row["abstained"]  # answerable, no gold: declining is the loss
    return row["precision"] + row["recall"]


def answer(keys: list[QuestionKey], questions: dict[QuestionKey, answers.Question], settings: Settings,
           current: list[str]) -> dict[QuestionKey, Reading]:
    """Each question's reading, set by set, noting the question being answered for the slots."""
    def noted(text: str, *args, **kwargs):
        current[0] = text
        return original(text, *args, **kwargs)

    original = answers.answer_question
    readings: dict[QuestionKey, Reading] = {}
    by_set: dict[str, list[QuestionKey]] = defaultdict(list)
    for key in keys:
        by_set[key[0]].append(key)
    with mock.patch.object(answers, "answer_question", noted):
        for name, group in by_set.items():
            result = answers.run([questions[k] for k in group], regress.SETS[name].corpus, settings, DEFAULT_METHOD,
                                 "extractive", None)
            for key, row in zip(group, result["per_question"]):
                readings[key] = Reading(score(name, row), row["said"])
    return readings


def per_set(change: dict[QuestionKey, float]) -> dict[str, float]:
    """Each set's summed change (sets that did not move left out)."""
    sums: dict[str, float] = defaultdict(float)
    for (name, _), value in change.items():
        sums[name] += value
    return {n: round(v, 3) for n, v in sums.items() if v}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.patterns", description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help=f"comma-separated, default all: {', '.join(regress.SETS)}")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    settings = get_settings()
    neo4j_local.ensure_running(settings)
    questions: dict[QuestionKey, answers.Question] = {}
    position: dict[QuestionKey, int] = {}  # 1-based within its set: the odd ones are the held-out halves
    for name in regress.parse_sets(args.sets):
        dev = regress.SETS[name]
        regress.ensure_corpus(dev.corpus, settings)
        for number, q in enumerate(answers.load_questions(dev.file(settings), None, dev.limit), start=1):
            questions[(name, q.id)] = q
            position[(name, q.id)] = number
    of_text = {q.text: key for key, q in questions.items()}
    current = [""]
    slots = install(current)
    base = answer(list(questions), questions, settings, current)
    rows = []
    for slot in slots:
        reads = {of_text[q]: texts for q, texts in slot.reads.items() if q in of_text}
        for alternative in slot.alternatives:
            affected = [k for k, texts in reads.items() if touched(slot, alternative, texts)]
            change: dict[QuestionKey, float] = {}
            reworded: dict[QuestionKey, float] = {}
            if affected:
                slot.compiled = slot.without(alternative)
                try:
                    for k, v in answer(affected, questions, settings, current).items():
                        change[k] = v.score - base[k].score
                        reworded[k] = float(v.said != base[k].said)
                finally:
                    slot.compiled = slot.without(None)
            change = {k: v for k, v in change.items() if v}
            moved = per_set(change)
            reworded_sets = per_set(reworded)
            held_out = round(sum(v for k, v in change.items() if position[k] % 2), 3)
            rows.append({"pattern": slot.name, "alternative": alternative, "questions_read_differently": len(affected),
                         "change_without_it": moved, "held_out_halves": held_out,
                         "answers_reworded_without_it": reworded_sets,
                         "questions_moved": {f"{k[0]}/{k[1]}": round(v, 3) for k, v in change.items()}})
            print(f"{slot.name:18} {len(affected):4}  {moved or '-'}  held-out {held_out:+}  reworded {reworded_sets or '-'}  "
                  f"{alternative[:50]}", flush=True)
    save_json(args.out, {"sets": regress.parse_sets(args.sets), "questions": len(questions), "alternatives": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
