"""Amending acts read back as of a date through `core.law` (issue 50, must show 2).

`python -m bench.amendments_as_of [--corpus via] [--ingest]`

Every gold instruction of the Vietnamese gazette chains in ../shared/corpora/real/vi-amendments
(gold_amendments.json) on an article, clause or point is read through `core.law.law_of` (the command's path over
the stored corpus) the day before the amending act takes effect and on that day:
- amend / replace: before, in force with the unit's own words; on the day, in force with other words, taken from
  the amending provision's quotation;
- add: before, not yet in force; on the day, in force;
- repeal: before, in force; on the day, repealed;
- replace_words: before, the old phrase (where the unit holds it); on the day, the new one.
The gold's units are found by their address in the parse of the same files (bench.real.vi_gazette's view), whose ids
are the stored ones when the corpus was ingested from exactly these files.
"""
from __future__ import annotations

import argparse
import json
import sys
from datetime import date, timedelta
from pathlib import Path

from bench.real.vi_gazette import _gold_path, _new_path, _View
from bench.versions import ingest_first, save
from core.as_of import IN_FORCE, NOT_YET, REPEALED, LawAsOf
from core.law import law_of
from core.settings import get_settings
from ingest.graph import build_graph

RESULTS = Path(__file__).parent / "results" / "amendments_as_of.json"


def _squeeze(text: str | None) -> str:
    return " ".join((text or "").split())


def _problem(item: dict, own: str, quoted: str, before: LawAsOf, after: LawAsOf) -> str | None:
    action, words = item["action"], item.get("words") or {}
    if action == "add":
        return None if before.status == NOT_YET and after.status == IN_FORCE else f"add: {before.status} → {after.status}"
    if action == "repeal" and item["target_part"] is None:
        return None if before.status == IN_FORCE and after.status == REPEALED else f"repeal: {before.status} → {after.status}"
    if action == "replace_words":
        if words.get("from") and words["from"] not in own:
            return None  # the phrase stands in a child unit: nothing to read on this one
        ok = words.get("from", "") in _squeeze(before.text) or words["from"] in (before.text or "")
        ok = ok and _squeeze(words.get("to")) in _squeeze(after.text)
        return None if ok else "replace_words: old phrase before / new phrase after not read"
    if action in ("amend", "replace") and item["target_part"] is None:
        before_ok = before.status == IN_FORCE and _squeeze(before.text) == _squeeze(own)
        after_text = _squeeze(after.text)
        after_ok = after.status == IN_FORCE and after_text != _squeeze(own) and after_text[:60] in quoted
        return None if before_ok and after_ok else (
            f"{action}: before {'ok' if before_ok else before.status}, after {'ok' if after_ok else after.status}")
    return "skip"


def run(folder: Path, corpus: str) -> dict:
    settings = get_settings()
    gold = json.loads((folder / "gold_amendments.json").read_text(encoding="utf-8"))
    graph = build_graph(sorted(folder.glob("*.txt")), corpus)
    view = _View(graph)
    roots = {view.stem[d.id]: d.units[0] for d in graph.documents if d.units}
    checked, right, skipped = 0, 0, 0
    misses: list[dict] = []
    by_chain: dict[str, list[int]] = {}
    for item in gold["items"]:
        goal = _gold_path(item)
        if not goal or goal[0][0] != "art" or item["target_part"] not in (None, "words"):
            continue  # titles, Mục headings, annexes and forms carry no words of their own here
        day = roots[item["amending_doc"]].metadata.get("effective_date", "")
        new = _new_path(item, goal) if item["action"] == "add" else None
        target = view.by_path.get((item["target_doc"], new or goal))
        if target is None or not day[:1].isdigit():
            checked += 1
            misses.append({"id": item["id"], "problem": "no such unit" if target is None else "no date in force"})
            continue
        eve = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
        before, after = law_of([target], corpus, eve, settings)[0], law_of([target], corpus, day, settings)[0]
        sources = [u for u in view.units.values() if view.stem[u.id] == item["amending_doc"]]
        quoted = " ".join(_squeeze(u.text) for u in sources)
        problem = _problem(item, view.units[target].text, quoted, before, after)
        if problem == "skip":
            skipped += 1
            continue
        checked += 1
        right += problem is None
        by_chain.setdefault(item["chain"], [0, 0])[0] += 1
        by_chain[item["chain"]][1] += problem is None
        if problem is not None:
            misses.append({"id": item["id"], "label": view.units[target].label, "as_of": [eve, day], "problem": problem,
                           "before": _squeeze(before.text)[:100], "after": _squeeze(after.text)[:100]})
    return {"corpus": corpus, "checked": checked, "right": right, "skipped": skipped,
            "accuracy": round(right / checked, 4) if checked else None,
            "by_chain": {c: {"checked": n, "right": r} for c, (n, r) in sorted(by_chain.items())}, "misses": misses[:40]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.amendments_as_of", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="via")
    parser.add_argument("--folder", type=Path, default=get_settings().shared / "corpora" / "real" / "vi-amendments")
    parser.add_argument("--ingest", action="store_true", help="ingest the folder's .txt files into the corpus first")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.ingest and not ingest_first(sorted(args.folder.glob("*.txt")), args.corpus):
        return 1
    result = run(args.folder, args.corpus)
    print(f"{'chain':<8}{'checked':>9}{'right':>7}")
    for chain, row in result["by_chain"].items():
        print(f"{chain:<8}{row['checked']:>9}{row['right']:>7}")
    print(f"{'all':<8}{result['checked']:>9}{result['right']:>7}  accuracy {result['accuracy']}  "
          f"(skipped: {result['skipped']} instructions on a part of a unit)")
    save(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
