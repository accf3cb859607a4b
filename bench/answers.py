"""Attributed answers against question sets: citation P/R/F1 at the gold's level, verbatim claims, latency.

    python -m bench.answers --questions FILE [--format xrefrag|obliqa|units] [--corpus adgm] [--limit N]
        [--model extractive] [--method citewalk] [--out FILE.json] [--answers-out FILE.jsonl]

Cited ids finer than the gold (a paragraph of a gold passage) are rolled up to the gold unit they sit in.
Gold given as labels (a units file with `gold_labels`, read as bench.retrieval reads it) is matched at that
level or below: a cited paragraph of "Law X Article 5" counts as that article.
Every answer is also checked against its own evidence ledger: a cited id outside it is a hard failure.
With label gold, citation P/R is also given at the article level (labels without their paragraph/point marks),
and every set reports how often the answerer said no provision answers (`abstained_share`).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import retrieval
from bench.report import print_and_save
from bench.stats import percentile
from core.answer.graph import GraphReader
from core.answer.models import AnswerEnvelope
from core.answer.service import answer_question
from core.answer.stores import open_stores
from core.domain.labels import KOREAN_SUB_UNIT, without_marks
from core.retrieval.base import DEFAULT_METHOD
from core.settings import Settings, get_settings

WARMUP_QUESTION = "What must a firm notify the regulator about?"


@dataclass
class Question:
    id: str
    text: str
    gold: set[str]
    groups: dict[str, str] = field(default_factory=dict)  # breakdown keys, e.g. xrefrag's method / reference_type
    by_label: bool = False  # gold given as labels, matched at that level or below (bench.retrieval's rule)


def load_questions(path: Path, fmt: retrieval.Format | None, limit: int | None) -> list[Question]:
    """The question files bench.retrieval reads (xrefrag, obliqa, units with unit ids or labels), read its way."""
    rows, _, by_label = retrieval.load_questions(path, fmt, limit)
    return [Question(q.id, q.question, set(q.gold), dict(q.groups), by_label) for q in rows]


def gold_level(questions: list[Question], settings: Settings, corpus: str) -> dict[str, str]:
    """unit id → gold label for every unit at or below a gold label; {} when the gold is given as unit ids."""
    labels = {g for q in questions if q.by_label for g in q.gold}
    return retrieval.label_members(settings, corpus, labels) if labels else {}


def rolled_up(cited: list[str], gold: set[str], graph: GraphReader | None, members: dict[str, str] | None = None
              ) -> set[str]:
    """A cited sub-unit of a gold unit counts as that gold unit; with label gold, as the label it falls under."""
    out: set[str] = set()
    for unit_id in cited:
        if members is not None:
            out.add(members.get(unit_id, unit_id))
            continue
        if unit_id in gold or graph is None:
            out.add(unit_id)
            continue
        above = [a.id for a in graph.ancestors(unit_id)]
        out.add(next((a for a in reversed(above) if a in gold), unit_id))
    return out


# Korean sub-units run on from their article without a space ("의료법 제15조제1항제2호가목"); Vietnamese ones follow
# it as words ("… Điều 27 khoản 1 điểm a").
_KO_SUB = re.compile(rf"(조(?:의\d+)?)(?:{KOREAN_SUB_UNIT})+$")
_VI_SUB = re.compile(r"(Điều \d+\w*)(?: khoản \d+\w*)?(?: điểm \w+)?$", re.I)


def article_of(label: str) -> str:
    """A label at article level: "…, Article 33(1)(b)" → "…, Article 33", "의료법 제15조제1항" → "의료법 제15조",
    "… Điều 27 khoản 1" → "… Điều 27" (its paragraph and point marks dropped)."""
    return _VI_SUB.sub(r"\1", _KO_SUB.sub(r"\1", without_marks(label)))


def prf(cited: set[str], gold: set[str]) -> tuple[float, float, float]:
    hit = len(cited & gold)
    p = hit / len(cited) if cited else 0.0
    r = hit / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def verbatim_counts(envelope: AnswerEnvelope, graph: GraphReader | None) -> tuple[int, int]:
    """Claims whose text is exactly their unit's text at the claim's span (or anywhere in it, without span).

    A claim quoting an item under its rule names the item's unit id; its span is in that unit's text.
    """
    if graph is None:
        return 0, sum(len(r.claims) for r in envelope.answer.rules)
    quoted = {c.unit_id or r.unit_id for r in envelope.answer.rules for c in r.claims}
    texts = {u: rec.text for u, rec in graph.fetch_units(quoted).items()}
    good = total = 0
    for rule in envelope.answer.rules:
        for claim in rule.claims:
            text = texts.get(claim.unit_id or rule.unit_id, "")
            total += 1
            good += (text[claim.span[0]:claim.span[1]] == claim.text) if claim.span else (claim.text in text)
    return good, total


def outside_ledger(envelope: AnswerEnvelope) -> list[str]:
    """Cited ids (rules and the items their claims quote) that the run's evidence ledger does not hold."""
    held = set(envelope.evidence_ids)
    cited = [r.unit_id for r in envelope.answer.rules] + \
        [c.unit_id for r in envelope.answer.rules for c in r.claims if c.unit_id]
    return [u for u in cited if u not in held]


def run(questions: list[Question], corpus: str, settings: Settings, method: str, model: str,
        answers_out: Path | None) -> dict:
    stores = open_stores(settings, corpus, method)
    graph = stores.graph
    members = gold_level(questions, settings, corpus) if any(q.by_label for q in questions) else None
    answer_question(WARMUP_QUESTION, corpus, settings, method=method, model=model, stores=stores)  # load models once
    rows: list[dict] = []
    sink = answers_out.open("w") if answers_out else None
    try:
        for q in questions:
            started = time.perf_counter()
            envelope = answer_question(q.text, corpus, settings, method=method, model=model, stores=stores)
            latency = (time.perf_counter() - started) * 1000
            cited = [r.unit_id for r in envelope.answer.rules]
            p, r, f = prf(rolled_up(cited, q.gold, graph, members), q.gold)
            good, total = verbatim_counts(envelope, graph)
            article = prf({article_of(r.label).casefold() for r in envelope.answer.rules},
                          {article_of(g).casefold() for g in q.gold}) \
                if q.by_label else (p, r, f)
            rows.append({"id": q.id, "precision": p, "recall": r, "f1": f, "rules": len(cited),
                         # What the user reads first, as a digest: bench.regress tells a reworded answer apart.
                         "said": hashlib.sha1(envelope.answer.answer.encode()).hexdigest()[:10],
                         "article_precision": article[0], "article_recall": article[1],
                         "abstained": envelope.answer.abstained,
                         "margin": None if envelope.answer.choice_margin is None
                         else round(envelope.answer.choice_margin, 4),
                         "may_be_about": len(envelope.answer.may_be_about),
                         "claims": total, "verbatim": good, "latency_ms": round(latency, 1), "steps_ms": envelope.timings_ms, "mode": envelope.mode,
                         "outside_ledger": len(outside_ledger(envelope)),
                         "gold": len(q.gold), "gold_in_evidence": len(q.gold & _as_gold(envelope.evidence_ids, members)),
                         # The search's own pool (seeds and each channel's first hits), before any expansion.
                         "gold_in_search": len(q.gold & _as_gold(envelope.seed_ids, members)),
                         "notices": envelope.notices, "groups": q.groups})
            if sink:
                sink.write(json.dumps({"id": q.id, "answer": envelope.answer.model_dump(mode="json")}) + "\n")
    finally:
        if sink:
            sink.close()
    return summarise(rows) | {"breakdowns": breakdowns(rows), "per_question": rows}


def _as_gold(unit_ids: list[str], members: dict[str, str] | None) -> set[str]:
    """Unit ids as the gold names them (the label a unit falls under, for label gold)."""
    return {members.get(u, u) for u in unit_ids} if members is not None else set(unit_ids)


def _mean(rows: list[dict], key: str) -> float:
    return round(statistics.fmean(r[key] for r in rows), 4) if rows else 0.0


def citation_scores(rows: list[dict]) -> dict:
    """P/R/F1 means, and how many answers cite all / none of their gold units."""
    return {"n": len(rows), "citation_precision": _mean(rows, "precision"), "citation_recall": _mean(rows, "recall"),
            "citation_f1": _mean(rows, "f1"), "all_gold_cited": sum(1 for r in rows if r["recall"] == 1.0),
            "no_gold_cited": sum(1 for r in rows if r["recall"] == 0.0),
            "article_precision": _mean(rows, "article_precision"), "article_recall": _mean(rows, "article_recall"),
            "abstained_share": round(sum(1 for r in rows if r["abstained"]) / len(rows), 4) if rows else 0.0}


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
            "gold_in_search_share": round(sum(r.get("gold_in_search", 0) for r in rows)
                                          / max(1, sum(r["gold"] for r in rows)), 4),
            "latency_ms_p50": round(percentile(latencies, 50), 1), "latency_ms_p95": round(percentile(latencies, 95), 1),
            "fallbacks": sum(1 for r in rows if r["mode"] == "extractive" and r["notices"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.answers", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--format", choices=("xrefrag", "obliqa", "units"), default=None,
                        help="default: detected from the first row, as bench.retrieval does")
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--skip", type=int, default=0,
                        help="leave out the first N of the (limited) questions: --skip 150 --limit 390 reads 151-390")
    parser.add_argument("--method", default=DEFAULT_METHOD)
    parser.add_argument("--model", default="extractive", help="LLM name or 'extractive'")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--answers-out", type=Path, default=None)
    args = parser.parse_args(argv)
    settings = get_settings()
    if not args.questions.exists():
        parser.error(f"no such file: {args.questions}")
    questions = load_questions(args.questions, args.format, args.limit)[args.skip:]
    fmt = args.format or retrieval.load_questions(args.questions, None, 1)[1]
    result = {"questions_file": args.questions.name, "format": fmt, "gold_by_label": any(q.by_label for q in questions), "corpus": args.corpus,
              "method": args.method, "model": args.model} | run(questions, args.corpus, settings, args.method,
                                                                args.model, args.answers_out)
    overall = {k: v for k, v in result.items() if k != "per_question"}
    print_and_save(result, args.out, shown=overall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
