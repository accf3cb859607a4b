"""Versions of one act read back as of a date through `core.law` (issue 50, must show 1).

`python -m bench.versions [--corpus kov] [--ingest] [--folder …/ko-versions]`

The gold is read from the version files themselves, each parsed alone (ingest.graph.build_graph): for a date D
the version in force is the one with the latest date in force (front matter 시행일자) on or before D, ties to the
later promulgation (the folder's README states the rule). For every provision whose words differ between
versions, and for each date on, the day before and the day after each 시행일자, halfway between two and a month
after the last, `core.law.law_of` (the command's own path, over the stored act) must give the words of the version
in force (status in_force), or a status other than in_force where that version has no such provision. Each
version promulgated on or before D but in force after it that words the provision otherwise must show in
`pending` with those words.

Provisions the version's own addenda start later ("다만, 제N조의 개정규정은 …부터 시행한다") do not follow the
version rule: they are scored apart (the later start read by ingest.staged; listed so a reader can check the
addenda), and the README-rule score is over the others.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

from core.as_of import IN_FORCE
from core.law import law_of
from core.settings import get_settings
from ingest.graph import build_graph
from ingest.staged import staged_dates, staged_start
from ingest.versions import VersionInfo, version_info

RESULTS = Path(__file__).parent / "results" / "versions.json"


def _squeeze(text: str | None) -> str:
    return " ".join((text or "").split())


def read_versions(folder: Path) -> list[tuple[VersionInfo, dict[str, str], dict[str, str]]]:
    """Each version file alone: its dates, its provisions' words by label, and its staged starts by label."""
    out = []
    for path in sorted(folder.glob("*.md")):
        graph = build_graph([path], "gold")
        document = graph.documents[0]
        info, problem = version_info(document)
        if info is None:
            continue  # the README, or a file that is no dated version
        texts = {u.label: u.text for u in document.units}
        staged = staged_dates("\n".join(u.text for u in document.units), info)
        starts = {u.label: s for u in document.units if (s := staged_start(u.label, staged))}
        out.append((info, texts, starts))
    return sorted(out, key=lambda v: v[0].order)


def dates_around(versions: list[VersionInfo]) -> list[str]:
    starts = sorted({v.effective for v in versions})
    days: set[date] = set()
    for n, start in enumerate(starts):
        day = date.fromisoformat(start)
        days |= {day - timedelta(days=1), day, day + timedelta(days=1)}
        if n + 1 < len(starts):
            days.add(day + (date.fromisoformat(starts[n + 1]) - day) / 2)
    days.add(date.fromisoformat(starts[-1]) + timedelta(days=30))
    return sorted(d.isoformat() for d in days)


def run(folder: Path, corpus: str) -> dict:
    settings = get_settings()
    versions = read_versions(folder)
    labels = sorted({label for _, texts, _ in versions for label in texts})
    changing = [label for label in labels
                if len({_squeeze(texts.get(label)) if label in texts else None for _, texts, _ in versions}) > 1]
    staged_labels = {label for _, _, starts in versions for label in starts if label in changing}
    rows: dict[str, Counter[str]] = {}
    misses: list[dict] = []
    staged_seen: list[dict] = []
    for day in dates_around([v for v, _, _ in versions]):
        in_force = [v for v in versions if v[0].effective <= day]
        if not in_force:
            continue  # before the earliest version: what the act said is not in the folder
        info, texts, _ = in_force[-1]
        pending_versions = [v for v in versions if v[0].promulgated and v[0].promulgated <= day < v[0].effective]
        found = law_of(changing, corpus, day, settings)
        for label, law in zip(changing, found, strict=True):
            kind = "staged" if label in staged_labels else "version rule"
            row = rows.setdefault(kind, Counter(checks=0, right=0, pending_checks=0, pending_right=0))
            if kind == "staged":
                staged_seen.append({"label": label, "as_of": day, "status": law.status, "from": law.in_force_from,
                                    "text": _squeeze(law.text)[:120]})
            expected = texts.get(label)
            ok = (law.status == IN_FORCE and _squeeze(law.text) == _squeeze(expected)) if expected is not None \
                else law.status != IN_FORCE
            row["checks"] += 1
            row["right"] += ok
            if not ok and kind != "staged":
                misses.append({"label": label, "as_of": day, "version": info.id, "status": law.status,
                               "expected": _squeeze(expected)[:160], "got": _squeeze(law.text)[:160]})
            for other, other_texts, _ in pending_versions:
                words = other_texts.get(label)
                if words is None or _squeeze(words) == _squeeze(expected):
                    continue
                row["pending_checks"] += 1
                hit = any(_squeeze(p.text) == _squeeze(words) for p in law.pending)
                row["pending_right"] += hit
                if not hit and kind != "staged":
                    misses.append({"label": label, "as_of": day, "pending_version": other.id,
                                   "pending": [p.date for p in law.pending]})
    scores = {kind: {**row, "accuracy": round(row["right"] / row["checks"], 4) if row["checks"] else None,
                     "pending_recall": round(row["pending_right"] / row["pending_checks"], 4) if row["pending_checks"] else None}
              for kind, row in rows.items()}
    return {"corpus": corpus, "folder": str(folder), "versions": [v.model_dump() for v, _, _ in versions],
            "provisions_that_change": len(changing), "staged_provisions": sorted(staged_labels),
            "dates": dates_around([v for v, _, _ in versions]), "scores": scores, "misses": misses[:40],
            "staged_readings": staged_seen[:60]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.versions", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="kov")
    parser.add_argument("--folder", type=Path, default=get_settings().shared / "corpora" / "real" / "ko-versions")
    parser.add_argument("--ingest", action="store_true", help="ingest the folder's versions into the corpus first")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.ingest and not ingest_first([p for p in sorted(args.folder.glob("*.md")) if p.name.lower() != "readme.md"],
                                        args.corpus):
        return 1
    result = run(args.folder, args.corpus)
    print(f"{'provisions':<14}{'checks':>8}{'right':>8}{'accuracy':>10}{'pending':>9}{'recall':>8}")
    for kind, row in result["scores"].items():
        print(f"{kind:<14}{row['checks']:>8}{row['right']:>8}{row['accuracy'] or 0:>10.4f}"
              f"{row['pending_checks']:>9}{row['pending_recall'] or 0:>8.4f}")
    print(f"{result['provisions_that_change']} provisions change between {len(result['versions'])} versions; "
          f"{len(result['dates'])} dates; staged: {', '.join(result['staged_provisions']) or 'none'}")
    save(result, args.out)
    return 0


def ingest_first(files: list[Path], corpus: str) -> bool:
    """The bench's files ingested into the corpus (the ingest command's path); False, said why, when one failed."""
    from ingest.pipeline import run_ingest  # a bench may import anything; only --ingest needs the writer

    summary = run_ingest(files, corpus, get_settings(), quiet=True)
    if summary.failures:
        print("\n".join(f.line() for f in summary.failures), file=sys.stderr)
    return not summary.failures


def save(result: dict, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
