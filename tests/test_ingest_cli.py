"""The ingest command as a user runs it: summary, bad input lines, exit codes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.settings import REPO_ROOT


def run_cli(*args: str, env_data: Path) -> subprocess.CompletedProcess:
    env = {"CITEWALK_DATA_DIR": str(env_data), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "ingest", *args], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_dry_run_reports_units_edges_and_failures(tmp_path: Path):
    corpus = tmp_path / "rules"
    corpus.mkdir()
    (corpus / "a.md").write_text("# Rules A\n\nArticle 1 Scope\n\n1. These rules apply as set out in Article 2.\n\n"
                                 "Article 2 Duty\n\n1. A firm must keep records.\n")
    (corpus / "broken.txt").write_bytes(b"\x00\x00\xff\xfe\x00binary")
    result = run_cli(str(corpus), "--corpus", "t", "--dry-run", "--json", env_data=tmp_path / "data")
    assert result.returncode == 1
    summary = json.loads(result.stdout)
    assert summary["dry_run"] is True
    assert summary["units_by_type"].get("article") == 2
    assert summary["edges_by_type"].get("REFERENCES", 0) >= 1
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(error_lines) == 1 and "broken.txt" in error_lines[0]
    assert not (tmp_path / "data").exists()  # a dry run writes nothing


def test_missing_path_and_unknown_format_are_one_line_errors(tmp_path: Path):
    missing = run_cli(str(tmp_path / "nope"), "--dry-run", env_data=tmp_path)
    assert missing.returncode == 2 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
    (tmp_path / "x.md").write_text("Article 1\n\ntext\n")
    bad = run_cli(str(tmp_path / "x.md"), "--format", "klingon", "--dry-run", env_data=tmp_path)
    assert bad.returncode == 2 and "--format 'klingon'" in bad.stderr and "Traceback" not in bad.stderr
