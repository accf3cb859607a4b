"""Runs every jurisdiction's checks, prints one table and writes bench/results/real.json.

    python -m bench.real [--only ko,eu,vi,vi_gazette,vi_laws,vi_law_by_title] [--out bench/results/real.json]
"""
from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from bench.real.checks import Check
from bench.report import save_json
from core.settings import get_settings

AREAS = ("ko", "eu", "vi", "vi_gazette", "vi_laws", "vi_law_by_title", "html")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=",".join(AREAS))
    parser.add_argument("--out", type=Path, default=Path("bench/results/real.json"))
    args = parser.parse_args()
    settings = get_settings()
    checks: list[Check] = []
    for area in args.only.split(","):
        # Imported by name so one area's checks can run (and fail) without loading the others' material.
        module = importlib.import_module(f"bench.real.{area}")
        checks.extend(module.run(settings))
    width = max((len(c.name) for c in checks), default=10)
    for c in checks:
        mark = {True: "ok", False: "MISS", None: ""}[c.ok]
        print(f"{c.area:<3} {c.name:<{width}}  {c.value!s:>10}  {c.target:<10} {mark}")
    save_json(args.out, {"checks": [c.model_dump() for c in checks],
                         "all_ok": all(c.ok is not False for c in checks)})


if __name__ == "__main__":
    main()
