"""The local server's folders, its neo4j.conf, its password, and the Java that runs it."""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

from core.neo4j_local.errors import Neo4jServerError
from core.settings import Settings, read_neo4j_password

ADMIN_CLASS = "org.neo4j.cli.AdminTool"


def conf_dir(s: Settings) -> Path:
    return s.neo4j_data / "conf"


def logs_dir(s: Settings) -> Path:
    return s.neo4j_data / "logs"


def run_dir(s: Settings) -> Path:
    return s.neo4j_data / "run"


def lib_dir(s: Settings) -> Path:
    return s.neo4j_home / "lib"


def _render_conf(s: Settings) -> str:
    d = s.neo4j_data
    return "\n".join([
        "# Written by core/neo4j_local on every start; edits here are overwritten.",
        "server.default_listen_address=127.0.0.1",
        "server.default_advertised_address=127.0.0.1",
        f"server.bolt.listen_address=127.0.0.1:{s.neo4j_bolt_port}",
        f"server.bolt.advertised_address=127.0.0.1:{s.neo4j_bolt_port}",
        # No browser jar in the Maven assembly and the Python driver speaks Bolt, so HTTP
        # would only be one more port to collide on.
        "server.http.enabled=false",
        "server.https.enabled=false",
        f"server.memory.heap.initial_size={s.neo4j_heap}",
        f"server.memory.heap.max_size={s.neo4j_heap}",
        f"server.memory.pagecache.size={s.neo4j_pagecache}",
        f"server.directories.data={d / 'data'}",
        f"server.directories.logs={d / 'logs'}",
        f"server.directories.run={d / 'run'}",
        f"server.directories.import={d / 'import'}",
        f"server.directories.plugins={d / 'plugins'}",
        "dbms.security.auth_enabled=true",
        "dbms.usage_report.enabled=false",
        # Netty's graceful quiet period (5 s, twice) is most of a stop otherwise.
        "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
        "",
    ])


def write_conf(s: Settings) -> Path:
    for sub in ("conf", "data", "logs", "run", "import", "plugins"):
        (s.neo4j_data / sub).mkdir(parents=True, exist_ok=True)
    conf = conf_dir(s) / "neo4j.conf"
    conf.write_text(_render_conf(s))
    return conf


def _store_exists(s: Settings) -> bool:
    return (s.neo4j_data / "data" / "databases" / "system").exists()


def _new_password_file(s: Settings) -> str:
    # Hex, not urlsafe base64: a generated password starting with "-" was read by neo4j-admin as an option.
    password = secrets.token_hex(24)
    path = s.neo4j_password_file
    path.parent.mkdir(parents=True, exist_ok=True)
    # Create with 600 from the start so the secret is never world-readable.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(password + "\n")
    return password


def java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    found = str(candidate) if candidate and candidate.is_file() else shutil.which("java")
    if found is None:
        raise Neo4jServerError("No 'java' on PATH (or JAVA_HOME); Neo4j 5.26 needs Java 17 or 21.")
    return found


def _set_initial_password(s: Settings, password: str) -> None:
    env = {**os.environ, "NEO4J_HOME": str(s.neo4j_home), "NEO4J_CONF": str(conf_dir(s))}
    cmd = [java(), "-cp", f"{lib_dir(s)}/*", ADMIN_CLASS, "dbms", "set-initial-password", "--", password]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        out = (result.stdout + result.stderr).strip().replace(password, "***")
        raise Neo4jServerError(f"neo4j-admin dbms set-initial-password failed (exit {result.returncode}):\n{out}")


def ensure_password(s: Settings) -> str:
    """The password the store accepts; set as the initial one before the very first start."""
    password = read_neo4j_password(s)
    if _store_exists(s):
        if password is None:
            raise Neo4jServerError(
                f"The Neo4j store in {s.neo4j_data / 'data'} exists but its password file {s.neo4j_password_file} is gone. "
                "Set CITEWALK_NEO4J_PASSWORD to the password, or delete that data folder to start empty."
            )
        return password
    if password is None:
        password = _new_password_file(s)
    _set_initial_password(s, password)
    return password
