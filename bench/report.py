"""Where benchmark figures go: pretty JSON under bench/results (or wherever --out points)."""
from __future__ import annotations

import json
from pathlib import Path


def save_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def print_and_save(result: dict, out: Path | None, shown: dict | None = None) -> None:
    """Prints the figures (or the summary part of them) and keeps the whole result when asked to."""
    print(json.dumps(result if shown is None else shown, indent=2))
    if out:
        save_json(out, result)
