"""Where benchmark figures go: pretty JSON under bench/results (or wherever --out points)."""
from __future__ import annotations

import json
from pathlib import Path


def save_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
