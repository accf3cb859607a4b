"""How close each question sits to a corpus, as the answerer's off-topic test reads it (`core/answer/off_topic.py`).

    python -m bench.off_topic --set bench/abstain/hipaa_unanswerable.jsonl:hipaa \\
        --set bench/results/hipaa_generated.jsonl:hipaa [--set FILE:CORPUS ...] [--out FILE.json]

For each set: every question's closeness (the mean cosine of its nearest units, best over its parts) and the share
below its model's line (`Embedder.far_neighbourhood`), i.e. the share the answerer declines. Reads only the corpus's vector
store, so a threshold for another embedding model (e5 corpora) can be read off its sets without running answers.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench import retrieval
from bench.report import print_and_save
from core.answer.off_topic import closeness, far_line
from core.retrieval.stores import CorpusStores
from core.settings import get_settings


def scored(path: Path, corpus: str) -> dict:
    stores = CorpusStores.open(get_settings(), corpus)
    questions, _, _ = retrieval.load_questions(path, None, None)
    near = {q.id: closeness(stores, q.question) for q in questions}
    rows = [{"id": qid, "closeness": round(value, 4)} for qid, value in near.items()]
    line = far_line(stores)
    below = sum(1 for value in near.values() if line is not None and value < line)
    return {"questions_file": path.name, "corpus": corpus, "backend": stores.embedder.backend, "threshold": line,
            "questions": len(rows),
            "declined_share": round(below / len(rows), 4) if rows else 0.0, "per_question": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", required=True, help="FILE:CORPUS, repeatable")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    sets = [scored(Path(file), corpus) for file, corpus in (s.rsplit(":", 1) for s in args.set)]
    result = {"sets": sets}
    shown = {"sets": [{k: v for k, v in s.items() if k != "per_question"} for s in sets]}
    print_and_save(result, args.out, shown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
