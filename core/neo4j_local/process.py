"""The server process: spawn it, wait until Bolt answers, stop it; never touch a pid that is not ours."""
from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DatabaseUnavailable, ServiceUnavailable, SessionExpired, TransientError

from core.neo4j_local import class_archive
from core.neo4j_local.config import conf_dir, ensure_password, java, lib_dir, logs_dir, run_dir, write_conf
from core.neo4j_local.errors import Neo4jServerError
from core.neo4j_local.install import install
from core.settings import Neo4jConnection, Settings, get_settings, neo4j_connection
from core.stores.file_lock import exclusive

MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
PID_FILE = "citewalk-neo4j.pid"
START_LOCK = "citewalk-neo4j-start.lock"
CONSOLE_LOG = "console.log"
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0

# The flags the official neo4j.conf passes via server.jvm.additional that matter on Java 17.
JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-modules=jdk.incubator.vector",  # vector indexes use it; Neo4j falls back without it, slower
]



def pid_file(s: Settings) -> Path:
    return run_dir(s) / PID_FILE


def _read_pid(s: Settings) -> int | None:
    try:
        return int(pid_file(s).read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _alive(pid: int) -> bool:
    """Running and not a zombie (a zombie still answers kill(pid, 0))."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reap it if this very process started it and it died
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def _cmdline(pid: int) -> list[bytes]:
    # Right after exec the JVM launcher's cmdline can read empty for a moment; look again.
    for _ in range(20):
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError):
            return []
        if raw:
            return raw.split(b"\0")
        time.sleep(0.05)
    return []


def _is_our_server(pid: int, s: Settings) -> bool:
    """Alive and really our JVM for this data dir: a recycled pid must never be killed."""
    if not _alive(pid):
        return False
    cmdline = _cmdline(pid)
    return MAIN_CLASS.encode() in cmdline and f"--config-dir={conf_dir(s)}".encode() in cmdline


def running_pid(s: Settings) -> int | None:
    pid = _read_pid(s)
    if pid is not None and _is_our_server(pid, s):
        return pid
    return None


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # Same option the server uses, so sockets lingering in TIME_WAIT don't count as taken.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _log_tail(s: Settings, lines: int = 30) -> str:
    parts = []
    for name in (CONSOLE_LOG, "neo4j.log"):
        path = logs_dir(s) / name
        if path.is_file():
            text = path.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {path} (last {len(text)} lines)\n" + "\n".join(text))
    return "\n".join(parts) or f"(no logs in {logs_dir(s)})"


def _spawn(s: Settings) -> int:
    cmd = [
        java(), f"-Xms{s.neo4j_heap}", f"-Xmx{s.neo4j_heap}", *JVM_FLAGS, *class_archive.jvm_flags(s),
        "-cp", f"{lib_dir(s)}/*", MAIN_CLASS,
        f"--home-dir={s.neo4j_home}", f"--config-dir={conf_dir(s)}",
    ]
    log = (logs_dir(s) / CONSOLE_LOG).open("ab")
    with log:
        # New session: the server outlives this CLI and ignores its terminal's Ctrl-C.
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, cwd=s.neo4j_data,
        )
    # Popen warns when collected with the child still running; the child is meant to outlive it.
    proc.returncode = 0
    pid_file(s).write_text(f"{proc.pid}\n")
    return proc.pid


def _bolt_answers(conn: Neo4jConnection) -> bool:
    """True once a real query runs; False while the server is still coming up."""
    try:
        with GraphDatabase.driver(conn.uri, auth=(conn.user, conn.password), connection_timeout=3) as driver:
            with driver.session(database=conn.database) as session:
                return session.run("RETURN 1 AS one").single(strict=True)["one"] == 1
    except (ServiceUnavailable, SessionExpired, DatabaseUnavailable, TransientError, OSError):
        return False


def _wait_for_bolt(s: Settings, conn: Neo4jConnection, pid: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            raise Neo4jServerError(f"Neo4j exited during start-up.\n{_log_tail(s)}")
        try:
            if _bolt_answers(conn):
                return
        except AuthError as exc:
            raise Neo4jServerError(
                f"Neo4j on {conn.uri} rejected the password from {s.neo4j_password_file} / CITEWALK_NEO4J_PASSWORD "
                f"({exc.message}). Set CITEWALK_NEO4J_PASSWORD to the right one, or stop the server and delete "
                f"{s.neo4j_data / 'data'} to start empty."
            ) from None
        time.sleep(0.5)
    raise Neo4jServerError(
        f"Neo4j did not answer on {conn.uri} within {timeout_s:.0f} s (pid {pid} left running; "
        f"`python -m core.neo4j_local stop` ends it).\n{_log_tail(s)}"
    )


def start(s: Settings | None = None, *, timeout_s: float = START_TIMEOUT_S) -> Neo4jConnection:
    """Start the local server (no-op when running) and return once Bolt answers `RETURN 1`."""
    s = s or get_settings()
    if s.neo4j_uri:
        return neo4j_connection(s)
    # Two commands started together on one data dir (two ingests of a setup script) would both find no server
    # and both spawn one; the second dies on the store's lock. They take turns: the second finds the first's.
    with exclusive(run_dir(s) / START_LOCK):
        pid = running_pid(s)
        if pid is None:
            if not _port_free(s.neo4j_bolt_port):
                raise Neo4jServerError(
                    f"Port 127.0.0.1:{s.neo4j_bolt_port} is already taken by another process. "
                    "Stop it, or pick another port with CITEWALK_NEO4J_BOLT_PORT."
                )
            install(s)
            write_conf(s)
            ensure_password(s)
            pid = _spawn(s)
    conn = neo4j_connection(s)
    _wait_for_bolt(s, conn, pid, timeout_s)
    return conn


def ensure_running(s: Settings | None = None) -> Neo4jConnection:
    """What callers use: an answering Neo4j, external (NEO4J_URI) or local (installed and started)."""
    return start(s)


def stop(s: Settings | None = None, *, timeout_s: float = STOP_TIMEOUT_S) -> bool:
    """SIGTERM, wait for the checkpoint, SIGKILL after timeout_s. True when a server was stopped."""
    s = s or get_settings()
    if s.neo4j_uri:
        return False
    pid = running_pid(s)
    if pid is None:
        pid_file(s).unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.2)
    if _alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.1)
    else:
        class_archive.keep_recorded(s)  # only a clean exit finished writing it
    pid_file(s).unlink(missing_ok=True)
    return True


def rss_bytes(pid: int) -> int:
    """Resident memory of the server, for status and the tests' report."""
    match = re.search(r"^VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(match.group(1)) * 1024 if match else 0
