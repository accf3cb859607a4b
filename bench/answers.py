"""Attributed answers against question sets: citation P/R/F1 at the gold's level, verbatim claims, latency.

    python -m bench.answers --questions FILE [--format xrefrag|obliqa|units] [--corpus adgm] [--limit N]
        [--model extractive] [--method citewalk] [--out FILE.json] [--answers-out FILE.jsonl]

Cited ids finer than the gold (a paragraph of a gold passage) are rolled up to the gold unit they sit in.
Every answer is also checked against its own evidence ledger: a cited id outside it is a hard failure.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import print_and_save
from core.answer.deps import open_stores
from core.answer.graph import GraphReader
from core.answer.models import AnswerEnvelope
from core.answer.service import DEFAULT_METHOD, answer_question
from core.settings import Settings, get_settings

WARMUP_QUESTION = "What must a firm notify the regulator about?"


@dataclass
class Question:
    id: str
    text: str
    gold: set[str]
    groups: dict[str, str] = field(default_factory=dict)  # breakdown keys, e.g. xrefrag's method / reference_type

XREF_GROUPS = ("method", "reference_type")


def load_questions(path: Path, fmt: str, limit: int | None) -> list[Question]:
    out: list[Question] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if fmt == "xrefrag":
            gold = {row["source_passage_id"], row["target_passage_id"]}
        elif fmt == "obliqa":
            gold = set(row["gold_passage_ids"])
        else:
            gold = set(row.get("gold_ids") or row.get("evidence_units") or [])
        groups = {k: str(row[k]) for k in XREF_GROUPS if fmt == "xrefrag" and k in row}
        out.append(Question(str(row.get("id", len(out))), row["question"], gold, groups))
        if limit and len(out) >= limit:
            break
    return out


def rolled_up(cited: list[str], gold: set[str], graph: GraphReader | None) -> set[str]:
    """A cited sub-unit of a gold unit counts as that gold unit."""
    out: set[str] = set()
    for unit_id in cited:
        if unit_id in gold or graph is None:
            out.add(unit_id)
            continue
        above = [a.id for a in graph.ancestors(unit_id)]
        out.add(next((a for a in reversed(above) if a in gold), unit_id))
    return out


def prf(cited: set[str], gold: set[str]) -> tuple[float, float, float]:
    hit = len(cited & gold)
    p = hit / len(cited) if cited else 0.0
    r = hit / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def verbatim_counts(envelope: AnswerEnvelope, graph: GraphReader | None) -> tuple[int, int]:
    """Claims whose text is exactly their cited unit's text at the claim's span (or anywhere in it, without span)."""
    if graph is None:
        return 0, sum(len(r.claims) for r in envelope.answer.rules)
    texts = {u: rec.text for u, rec in graph.fetch_units(r.unit_id for r in envelope.answer.rules).items()}
    good = total = 0
    for rule in envelope.answer.rules:
        text = texts.get(rule.unit_id, "")
        for claim in rule.claims:
            total += 1
            good += (text[claim.span[0]:claim.span[1]] == claim.text) if claim.span else (claim.text in text)
    return good, total


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(questions: list[Question], corpus: str, settings: Settings, method: str, model: str,
        answers_out: Path | None) -> dict:
    stores = open_stores(settings, corpus, method)
    graph = stores.graph
    answer_question(WARMUP_QUESTION, corpus, settings, method=method, model=model, stores=stores)  # load models once
    rows: list[dict] = []
    sink = answers_out.open("w") if answers_out else None
    try:
        for q in questions:
            started = time.perf_counter()
            envelope = answer_question(q.text, corpus, settings, method=method, model=model, stores=stores)
            latency = (time.perf_counter() - started) * 1000
            cited = [r.unit_id for r in envelope.answer.rules]
            p, r, f = prf(rolled_up(cited, q.gold, graph), q.gold)
            good, total = verbatim_counts(envelope, graph)
            rows.append({"id": q.id, "precision": p, "recall": r, "f1": f, "rules": len(cited),
                         "claims": total, "verbatim": good, "latency_ms": round(latency, 1), "mode": envelope.mode,
                         "outside_ledger": sum(1 for c in cited if c not in envelope.evidence_ids),
                         "gold": len(q.gold), "gold_in_evidence": len(q.gold & set(envelope.evidence_ids)),
                         "notices": envelope.notices, "groups": q.groups})
            if sink:
                sink.write(json.dumps({"id": q.id, "answer": envelope.answer.model_dump(mode="json")}) + "\n")
    finally:
        if sink:
            sink.close()
    return summarise(rows) | {"breakdowns": breakdowns(rows), "per_question": rows}


def _mean(rows: list[dict], key: str) -> float:
    return round(statistics.fmean(r[key] for r in rows), 4) if rows else 0.0


def citation_scores(rows: list[dict]) -> dict:
    """P/R/F1 means, and how many answers cite all / none of their gold units."""
    return {"n": len(rows), "citation_precision": _mean(rows, "precision"), "citation_recall": _mean(rows, "recall"),
            "citation_f1": _mean(rows, "f1"), "all_gold_cited": sum(1 for r in rows if r["recall"] == 1.0),
            "no_gold_cited": sum(1 for r in rows if r["recall"] == 0.0)}


def breakdowns(rows: list[dict]) -> dict[str, dict[str, dict]]:
    keys = sorted({k for r in rows for k in r.get("groups", {})})
    return {key: {value: citation_scores([r for r in rows if r["groups"].get(key) == value])
                  for value in sorted({r["groups"].get(key, "") for r in rows})} for key in keys}


def summarise(rows: list[dict]) -> dict:
    latencies = [r["latency_ms"] for r in rows]
    claims = sum(r["claims"] for r in rows)
    scores = citation_scores(rows)
    return {"questions": scores.pop("n"), **scores, "rules_per_answer": _mean(rows, "rules"),
            "claims_verbatim_share": round(sum(r["verbatim"] for r in rows) / claims, 4) if claims else 1.0,
            "cited_outside_ledger": sum(r["outside_ledger"] for r in rows),
            "gold_in_evidence_share": round(sum(r["gold_in_evidence"] for r in rows) / max(1, sum(r["gold"] for r in rows)), 4),
            "latency_ms_p50": round(percentile(latencies, 0.5), 1), "latency_ms_p95": round(percentile(latencies, 0.95), 1),
            "fallbacks": sum(1 for r in rows if r["mode"] == "extractive" and r["notices"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.answers", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--format", choices=("xrefrag", "obliqa", "units"), default="xrefrag")
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--model", default="extractive", help="LLM name or 'extractive'")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--answers-out", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    questions = load_questions(args.questions, args.format, args.limit)
    result = {"questions_file": args.questions.name, "format": args.format, "corpus": args.corpus,
              "method": args.method, "model": args.model} | run(questions, args.corpus, settings, args.method,
                                                                args.model, args.answers_out)
    overall = {k: v for k, v in result.items() if k != "per_question"}
    print_and_save(result, args.out, shown=overall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
