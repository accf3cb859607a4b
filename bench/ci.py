"""`python -m bench.ci [--warm] [--out FILE.json] [--log FILE]`: time the README's test command (`.ci/run`) as CI
runs it on a fresh machine, phase by phase.

Fresh (the default): a clean clone of HEAD in a new temporary folder, run with HOME set to a new empty folder beside
it. So there is no virtual environment (the Makefile keeps it under ~/.cache/citewalk), no pip or uv download
cache, no model, ONNX, embedding, Neo4j, mypy or ruff cache (all under ~/.cache), and no Maven repository: Maven
finds ~/.m2 through Java's user.home, which ignores HOME, so MAVEN_OPTS sets user.home to the new folder too.
XDG_*, HF_*, UV_*, NUMBA_*, VIRTUAL_ENV and CITEWALK_* settings of this shell are dropped (CI has none of them),
except CITEWALK_SHARED, which points at this checkout's shared folder. PATH gains /usr/sbin and /sbin where it lacks
them: CI's PATH has them, and the PostgreSQL tests run `runuser` from there. Debian packages (Java, Maven,
Chromium, PostgreSQL) are the machine's, as on CI. `--warm` keeps this shell's HOME and caches instead.

The phases are read from .ci/run's output as its lines arrive: `install` until make runs the first check (ruff,
mypy) or tests/first_use, `checks` until pytest brings up its workers, `pytest` until .ci/run ends."""
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

_SUMMARY = re.compile(r"^(\d+ (?:passed|failed).*) in ([\d.]+)s", re.M)
_FIRST_USE = re.compile(r"^first use: (.+)$", re.M)
CHECKS_START = (" -m ruff check", " -m mypy", " -m tests.first_use")
PYTEST_START = "bringing up nodes"
DROPPED = ("XDG_", "HF_", "UV_", "NUMBA_", "VIRTUAL_ENV", "CITEWALK_", "TRANSFORMERS_CACHE", "SENTENCE_TRANSFORMERS")
SBIN = ("/usr/sbin", "/sbin")


def fresh_env(home: Path, shared: Path) -> dict[str, str]:
    """This shell's environment as a new machine's CI run would have it (see the module's docstring)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED)}
    path = env.get("PATH", "").split(os.pathsep)
    env.update({
        "HOME": str(home), "CI": "true", "CITEWALK_SHARED": str(shared),
        "MAVEN_OPTS": f"{env.get('MAVEN_OPTS', '')} -Duser.home={home}".strip(),
        "PATH": os.pathsep.join([*path, *(d for d in SBIN if d not in path)]),
    })
    return env


def timed_run(clone: Path, env: dict[str, str]) -> tuple[int, list[tuple[float, str]]]:
    """.ci/run's exit code and its output lines (stdout and stderr), each with the seconds since the start."""
    started = time.perf_counter()
    lines: list[tuple[float, str]] = []
    with subprocess.Popen(["bash", ".ci/run"], cwd=clone, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace") as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append((time.perf_counter() - started, line.rstrip("\n")))
        code = proc.wait()
    lines.append((time.perf_counter() - started, ""))
    return code, lines


def phases(lines: list[tuple[float, str]]) -> dict[str, float | None]:
    """Seconds of install, checks and pytest, from the first line that marks each one's start."""
    def first(markers: tuple[str, ...]) -> float | None:
        return next((t for t, line in lines if any(m in line for m in markers)), None)

    checks, pytest, end = first(CHECKS_START), first((PYTEST_START,)), lines[-1][0]
    return {
        "install_s": round(checks, 1) if checks is not None else None,
        "checks_s": round(pytest - checks, 1) if checks is not None and pytest is not None else None,
        "pytest_s": round(end - pytest, 1) if pytest is not None else None,
        "total_s": round(end, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ci")
    parser.add_argument("--warm", action="store_true", help="keep this machine's HOME and caches (venv, models, Neo4j)")
    parser.add_argument("--out", type=Path, default=Path("bench/results/ci.json"))
    parser.add_argument("--log", type=Path, help="keep .ci/run's output, each line with its second")
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()
    shared = get_settings().shared.resolve()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="citewalk-ci-") as tmp:
        clone, home = Path(tmp) / "clone", Path(tmp) / "home"
        subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True)
        if args.warm:
            env = {**os.environ, "CI": "true", "CITEWALK_SHARED": str(shared)}
        else:
            home.mkdir()
            env = fresh_env(home, shared)
        code, lines = timed_run(clone, env)
    text = "\n".join(line for _, line in lines)
    if args.log:
        args.log.write_text("\n".join(f"{t:7.1f} {line}" for t, line in lines) + "\n")
    summary = _SUMMARY.search(text)
    result = {
        "commit": commit, "mode": "warm" if args.warm else "fresh", "exit_code": code, **phases(lines),
        "pytest": summary.group(1) if summary else None,
        "pytest_reported_s": float(summary.group(2)) if summary else None,
        "first_use": _FIRST_USE.findall(text), "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    print(f"{'commit':<10} {'mode':<5} {'exit':>4} {'install':>8} {'checks':>7} {'pytest':>7} {'total':>7}  tests")
    print(f"{commit[:10]:<10} {result['mode']:<5} {code:>4} {result['install_s']!s:>8} {result['checks_s']!s:>7} "
          f"{result['pytest_s']!s:>7} {result['total_s']!s:>7}  {result['pytest']}")
    print(f"load average before {result['load_before']}, after {result['load_after']}")
    if code != 0:
        print("\n".join(line for _, line in lines[-40:]))
    save_json(args.out, result)
    print(f"wrote {args.out}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
