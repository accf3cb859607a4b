"""Starts one chat worker: `chainlit run app.py` with a Chainlit app root of its own under the data dir.

    python -m core.serve [--host 127.0.0.1] [--port 8000]

Chainlit keeps each session's files (the answer's rule cards and graph travel through them) under
`<CHAINLIT_APP_ROOT or cwd>/.files` and deletes that whole folder when the process stops, so every process
started in one clone deletes the others' files. Chainlit 2.12 has no setting for that folder but the app root,
which also decides where `.chainlit/config.toml`, `public/` and `chainlit.md` are read from: the worker's root
links those three back to the clone, and `.files` is the only real folder in it.
"""
from __future__ import annotations

import argparse
import os
import re
import socket
import sys
from pathlib import Path

from core.settings import REPO_ROOT, Settings, get_settings

LINKED = (".chainlit", "public", "chainlit.md")
CHAINLIT = Path(sys.executable).with_name("chainlit")


def worker_root(settings: Settings, port: int) -> Path:
    """One folder per host and port: two live processes never share one, and a restart reuses its own."""
    host = re.sub(r"[^A-Za-z0-9._-]", "_", socket.gethostname()) or "host"
    return (settings.app_path / "workers" / f"{host}-{port}").resolve()


def prepare_root(root: Path, clone: Path = REPO_ROOT) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link, target = root / name, clone / name
        if link.is_symlink():
            if Path(os.readlink(link)) == target:
                continue
            link.unlink()  # left by an older clone at another path
        elif link.exists():
            raise SystemExit(f"{link} is not the link to {target} this launcher makes; move it away and start again")
        link.symlink_to(target, target_is_directory=target.is_dir())
    return root


def remove_root(root: Path) -> bool:
    """After its worker stopped: removes the folder if it holds nothing but the launcher's links (a crashed
    worker's `.files` is left for the next start on that port, and anything else is not ours to delete)."""
    if not root.is_dir() or any(p.name not in LINKED or not p.is_symlink() for p in root.iterdir()):
        return False
    for name in LINKED:
        (root / name).unlink(missing_ok=True)
    root.rmdir()
    return True


def files_folder_warning(settings: Settings) -> str | None:
    """Why this process's session files are at risk, when it was not started through this launcher."""
    from chainlit.config import FILES_DIRECTORY

    workers = (settings.app_path / "workers").resolve()
    if Path(FILES_DIRECTORY).resolve().is_relative_to(workers):
        return None
    return (f"Chainlit session files are in {FILES_DIRECTORY}, shared by every chat process started in "
            f"{Path(FILES_DIRECTORY).parent}; stopping any of them deletes the others' answer cards. "
            "Start workers with `python -m core.serve --port N` (as `make app` does).")


def command(host: str, port: int) -> list[str]:
    return [str(CHAINLIT), "run", str(REPO_ROOT / "app.py"), "--host", host, "--port", str(port), "--headless"]


# glibc gives each thread that allocates its own arena (up to 8 per core), and keeps what each freed: answers run
# the model in many worker threads, so a worker's memory rose ~200 MiB over its first 20 s of load and stayed
# there; two arenas halve that at no cost in latency (bench.load; bench/results/TRIED.md). An operator's value stands.
MALLOC_ARENAS = "2"


def worker_env(environ: dict[str, str], root: Path, settings: Settings) -> dict[str, str]:
    """The worker's environment: its app root, and unless set otherwise the allocator's arena cap and the folder
    of the reads it shares with the data dir's other workers (core.stores.shared_reads)."""
    return {"MALLOC_ARENA_MAX": MALLOC_ARENAS, "CITEWALK_SHARED_READS_DIR": str(settings.app_path / "token_reads"),
            **environ, "CHAINLIT_APP_ROOT": str(root)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m core.serve", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    settings = get_settings()
    root = prepare_root(worker_root(settings, args.port))
    os.chdir(REPO_ROOT)
    # exec, not a child: the caller's SIGTERM and pid are chainlit's own, so a supervisor stops it directly.
    os.execve(CHAINLIT, command(args.host, args.port), worker_env(dict(os.environ), root, settings))


if __name__ == "__main__":
    main()
