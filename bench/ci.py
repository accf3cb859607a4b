"""`python -m bench.ci [--out FILE.json]`: time the README's test command (`.ci/run`) on a fresh clone of HEAD,
as CI runs it, with whatever virtual environment and Neo4j download the machine already caches."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from bench.report import save_json
from core.settings import REPO_ROOT, get_settings

_SUMMARY = re.compile(r"^(\d+ passed.*) in [\d.]+s", re.M)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ci")
    parser.add_argument("--out", type=Path, default=Path("bench/results/ci.json"))
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()
    venv_cached = (get_settings().cache_dir / "venv" / "bin" / "python").exists()
    with tempfile.TemporaryDirectory(prefix="citewalk-ci-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True)
        env = {**os.environ, "CI": "true", "CITEWALK_SHARED": str(get_settings().shared.resolve())}
        started = time.perf_counter()
        run = subprocess.run(["bash", ".ci/run"], cwd=clone, env=env, capture_output=True, text=True)
        seconds = round(time.perf_counter() - started, 1)
    summary = _SUMMARY.search(run.stdout)
    result = {"commit": commit, "exit_code": run.returncode, "seconds": seconds, "venv_was_cached": venv_cached,
              "pytest": summary.group(1) if summary else None, "cpus": os.cpu_count()}
    print(f"{'commit':<10} {'exit':>4} {'seconds':>8}  pytest")
    print(f"{commit[:10]:<10} {run.returncode:>4} {seconds:>8}  {result['pytest']}")
    save_json(args.out, result)
    print(f"wrote {args.out}")
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
