"""Secrets the app generates once and keeps in the data dir (0600), so restarts keep sessions valid."""
from __future__ import annotations

import os
import secrets
from pathlib import Path


def kept_secret(path: Path, nbytes: int = 48) -> str:
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(nbytes)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its value
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(value + "\n")
    return value


def ensure_auth_secret(data_path: Path) -> None:
    """Chainlit signs session JWTs with CHAINLIT_AUTH_SECRET; without one it refuses to start with auth on."""
    if not os.environ.get("CHAINLIT_AUTH_SECRET"):
        os.environ["CHAINLIT_AUTH_SECRET"] = kept_secret(data_path / "chainlit-auth-secret")
