"""`python -m bench.generate --corpus NAME --n 100 --out FILE.jsonl [--seed S]`: verified multihop
questions from the citation graph (issue #7). Writes FILE.jsonl (units format plus provenance),
FILE.stats.json (distributions, drop counts) and FILE.rejected.jsonl (drafts that failed, with reasons).

With CITEWALK_LLM_MODEL set (and OPENAI_BASE_URL / OPENAI_API_KEY), an LLM writes and ablation-checks
the questions; otherwise deterministic templates are checked by retrieval and term coverage.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.generator.build import BuildOptions, BuildReport, build, llm_generator, template_generator
from bench.generator.pool import hybrid_pool
from core import neo4j_local
from core.answer.llm import chat_model
from core.settings import get_settings
from core.stores.neo4j_store import connect


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.generate")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pool-k", type=int, default=100, help="template check: path units in this top-k")
    parser.add_argument("--template", action="store_true", help="use templates even when an LLM is configured")
    args = parser.parse_args(argv)

    settings = get_settings()
    options = BuildOptions(corpus=args.corpus, n=args.n, seed=args.seed, pool_k=args.pool_k)
    neo4j_local.ensure_running(settings)
    driver = connect(settings)
    db = settings.neo4j_database
    try:
        if settings.llm_model and not args.template:
            model = chat_model(settings, settings.llm_model)
            make = lambda graph: llm_generator(driver, db, graph, model, settings.llm_model)  # noqa: E731
        else:
            pool = hybrid_pool(settings, args.corpus, args.pool_k)
            make = lambda graph: template_generator(driver, db, graph, pool, options)  # noqa: E731
        kept, rejected, report = build(driver, db, options, make)
    finally:
        driver.close()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    _write_jsonl(args.out, kept)
    _write_jsonl(args.out.with_suffix(".rejected.jsonl"), rejected)
    stats_path = args.out.with_suffix(".stats.json")
    stats_path.write_text(report.model_dump_json(indent=2) + "\n")
    _print(report)
    print(f"wrote {args.out} ({len(kept)} items), {stats_path}, {args.out.with_suffix('.rejected.jsonl')}")
    return 0 if len(kept) >= args.n else 1


def _write_jsonl(path: Path, items) -> None:
    path.write_text("".join(json.dumps(i.model_dump(mode="json"), ensure_ascii=False) + "\n" for i in items))


def _print(report: BuildReport) -> None:
    print(f"corpus {report.corpus}, generator {report.generator}: {report.paths_found} paths "
          f"{report.paths_by_type}")
    print(f"drafted {report.attempted}, kept {report.kept}, dropped {report.dropped}, skipped {report.skipped}")
    for name, counts in report.distribution.items():
        print(f"  {name:<15} " + "  ".join(f"{k}={v}" for k, v in counts.items()))
    print(f"  cross-document share {report.cross_document_share}")


if __name__ == "__main__":
    raise SystemExit(main())
