"""Runs the real chat (`python -m core.serve`, the launcher `make app` uses) against the test stores, for browser tests."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.serve import remove_root, worker_root
from core.settings import REPO_ROOT, Settings
from tests.conftest import free_port


def app_env(settings: Settings, users: dict[str, str], admin: tuple[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CHAINLIT_AUTH_SECRET", "DATABASE_URL")}
    env.update({
        "CITEWALK_DATA_DIR": str(settings.data_dir),
        "CITEWALK_NEO4J_BOLT_PORT": str(settings.neo4j_bolt_port),
        "CITEWALK_NEO4J_HTTP_PORT": str(settings.neo4j_http_port),
        "CITEWALK_SHARED": str(settings.shared),
        "CITEWALK_ADMIN_EMAIL": admin[0],
        "CITEWALK_ADMIN_PASSWORD": admin[1],
        "CITEWALK_APP_USERS": json.dumps(users),
        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
    })
    return env


def worker_folder(env: dict[str, str], port: int) -> Path:
    """The app root `core.serve` gives a worker started with this environment on this port."""
    data_dir = env.get("CITEWALK_DATA_DIR")
    return worker_root(Settings(data_dir=Path(data_dir)) if data_dir else Settings(), port)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextmanager
def running_app(env: dict[str, str], log_path: Path, timeout_s: float = 120, port: int | None = None) -> Iterator[str]:
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "core.serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            deadline = time.monotonic() + timeout_s
            while not _healthy(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chainlit did not start; log:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.5)
            yield url
        finally:
            # Our own process group only (started with start_new_session above).
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)
            remove_root(worker_folder(env, port))  # ports are random: no clutter in the data dir
