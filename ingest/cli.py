"""The ingest command, `python -m ingest PATH… [--corpus NAME] [--format …] [--dry-run] [--json]`; `ingest.demo` runs it too."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from core import neo4j_local
from core.settings import REPO_ROOT, get_settings
from ingest.formats import UnknownFormatError, format_names
from ingest.pipeline import IngestSummary, run_ingest


def render_summary(summary: IngestSummary) -> str:
    lines = [f"corpus {summary.corpus!r} ({summary.format}): {summary.documents} documents"
             + (" [dry run: nothing written]" if summary.dry_run else
                f", {summary.documents_written} written, {summary.documents_unchanged} unchanged, "
                f"{summary.vectors_embedded} vectors embedded")]
    lines.append("units by type:  " + ", ".join(f"{k} {v}" for k, v in summary.units_by_type.items()))
    lines.append("edges by type:  " + ", ".join(f"{k} {v}" for k, v in summary.edges_by_type.items()))
    lines.append("resolution:     " + ", ".join(f"{k} {v}" for k, v in summary.edges_by_resolution.items()))
    lines.append(f"unresolved citations (External nodes): {summary.unresolved_count}"
                 + (f", e.g. {'; '.join(summary.unresolved_examples[:5])}" if summary.unresolved_examples else ""))
    lines.append("stage                 seconds   peak MB   items")
    for stage in summary.stages:
        lines.append(f"  {stage.name:<18} {stage.seconds:>8.2f} {stage.peak_rss_mb:>9.0f} {stage.items:>7}")
    lines.extend(f"note: {note}" for note in summary.notes)
    lines.extend(f"FAILED {failure.line()}" for failure in summary.failures)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest", description="Ingest regulation files into Neo4j, Chroma and the lexical index.")
    parser.add_argument("paths", nargs="+", type=Path, help="files or folders of one corpus")
    parser.add_argument("--corpus", help="corpus name (default: the folder name of the first path)")
    parser.add_argument("--format", dest="forced_format", help="force a format: " + ", ".join(format_names()))
    parser.add_argument("--dry-run", action="store_true", help="parse, find and resolve; write nothing")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)

    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        print(f"error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    corpus = args.corpus or args.paths[0].resolve().name.lower()
    settings = get_settings()
    try:
        if not args.dry_run:
            # The command line starts the local server when none is named (NEO4J_URI); the library only connects.
            neo4j_local.ensure_running(settings)
        summary = run_ingest(args.paths, corpus, settings, args.forced_format, args.dry_run, args.quiet,
                             on_wait=lambda holder: print(
                                 f"waiting: another ingest ({holder or 'a process'}) is writing into "
                                 f"{settings.data_dir}; this one starts when it ends", file=sys.stderr, flush=True))
    except UnknownFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        # Store and model errors carry the setting to fix; a traceback would only hide it.
        print(f"error: {exc}", file=sys.stderr)
        return 3
    print(summary.model_dump_json(indent=2) if args.json else render_summary(summary))
    for failure in summary.failures:
        print(f"error: {failure.line()}", file=sys.stderr)
    if not args.dry_run:
        save_read(corpus)
    return 1 if summary.failures else 0


def save_read(corpus: str) -> None:
    """Has the corpus read once and saved as a running app's workers open it (core.retrieval.prepare), so that
    opening it there maps a few files. A process, not an import: retrieval is ingest's neighbour on its floor."""
    done = subprocess.run([sys.executable, "-m", "core.retrieval.prepare", corpus], cwd=REPO_ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"warning: the read of {corpus} was not saved ({tail}); the app reads it when it opens it",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
