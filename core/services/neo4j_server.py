"""A Neo4j Community server of our own, fetched from Maven Central and run on loopback.

Maven Central publishes no server tarball, but it does publish the community
assembly's pom (`org.neo4j.assembly:neo4j-community-standalone`); resolving its
dependencies gives exactly the jars of the distribution's lib/ folder.  We run
the server JVM directly (one JVM, no bootloader) with our own neo4j.conf.

Layout:
  <cache_dir>/neo4j-<version>/lib/*.jar   shared by clones and CI (settings.neo4j_home)
  <data_dir>/neo4j/{conf,data,logs,run}   per clone / per test instance
  <data_dir>/neo4j/password               generated on first start, mode 600

CLI: python -m core.services.neo4j_server {install,start,stop,status,uri,password}
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from core.settings import Settings, get_settings

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"
ASSEMBLY = ("org.neo4j.assembly", "neo4j-community-standalone")
MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
ADMIN_CLASS = "org.neo4j.cli.AdminTool"
MARKER = "INSTALL_COMPLETE"
PID_FILE = "citewalk-neo4j.pid"
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


class Neo4jServerError(RuntimeError):
    """An expected failure with a message meant for the user (no traceback needed)."""


class Neo4jConnection(BaseModel):
    uri: str
    user: str
    password: str
    database: str


# --------------------------------------------------------------------------- paths


def _conf_dir(s: Settings) -> Path:
    return s.neo4j_data / "conf"


def _logs_dir(s: Settings) -> Path:
    return s.neo4j_data / "logs"


def _run_dir(s: Settings) -> Path:
    return s.neo4j_data / "run"


def _pid_file(s: Settings) -> Path:
    return _run_dir(s) / PID_FILE


def _password_file(s: Settings) -> Path:
    return s.neo4j_data / "password"


def _lib_dir(s: Settings) -> Path:
    return s.neo4j_home / "lib"


def local_uri(s: Settings) -> str:
    return f"bolt://127.0.0.1:{s.neo4j_bolt_port}"


# --------------------------------------------------------------------------- install


def is_installed(s: Settings) -> bool:
    return (s.neo4j_home / MARKER).is_file() and any(_lib_dir(s).glob("neo4j-*.jar"))


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Serialise installs from parallel processes (CI jobs, pytest-xdist) sharing one cache."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _fetch_pom(version: str) -> str:
    group, artifact = ASSEMBLY
    return f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>citewalk</groupId>
  <artifactId>neo4j-fetch</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
      <type>pom</type>
    </dependency>
  </dependencies>
</project>
"""


def _run_maven(workdir: Path) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise Neo4jServerError("Maven ('mvn') is not on PATH; it fetches the Neo4j jars. Install it (apt-get install maven).")
    # -C: fail on a checksum mismatch against Maven Central's published .sha1 files.
    # -U: don't let a failure cached in ~/.m2 by an earlier (offline, flaky) attempt block this one.
    cmd = [
        mvn, "-q", "-B", "-C", "-U", "-Dstyle.color=never", "-f", str(workdir / "pom.xml"),
        "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies",
        f"-DoutputDirectory={workdir / 'lib'}", "-DincludeScope=runtime",
    ]
    result = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if result.returncode != 0:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)  # Maven colours even with -B
        tail = "\n".join(line for line in plain.strip().splitlines()[-25:] if line.strip())
        raise Neo4jServerError(
            f"Maven could not fetch Neo4j from Maven Central (exit {result.returncode}). "
            f"Check network access to {MAVEN_CENTRAL} and the version in CITEWALK_NEO4J_VERSION.\n{tail}"
        )


def _published_sha1(version: str) -> str | None:
    """Maven Central's .sha1 for the main jar; the local Maven repo copy when offline."""
    rel = f"org/neo4j/neo4j/{version}/neo4j-{version}.jar.sha1"
    try:
        with urllib.request.urlopen(f"{MAVEN_CENTRAL}/{rel}", timeout=15) as resp:
            text = resp.read().decode()
    except OSError:
        local = Path.home() / ".m2" / "repository" / rel
        if not local.is_file():
            return None
        text = local.read_text()
    return text.split()[0].strip().lower() if text.strip() else None


def _verify_main_jar(lib: Path, version: str) -> str:
    jar = lib / f"neo4j-{version}.jar"
    if not jar.is_file():
        raise Neo4jServerError(f"{jar.name} missing after the Maven fetch; is {version} a real Neo4j version (CITEWALK_NEO4J_VERSION)?")
    actual = hashlib.sha1(jar.read_bytes()).hexdigest()
    expected = _published_sha1(version)
    if expected is not None and expected != actual:
        raise Neo4jServerError(f"{jar} sha1 {actual} differs from Maven Central's published {expected}; refusing to use it.")
    return actual


def install(s: Settings, *, quiet: bool = False) -> Path:
    """Fetch the server jars into settings.neo4j_home once; a half-finished install is redone."""
    if is_installed(s):
        return s.neo4j_home
    with _file_lock(s.cache_dir / f".neo4j-{s.neo4j_version}.lock"):
        if is_installed(s):  # another process finished while we waited
            return s.neo4j_home
        if not quiet:
            print(f"Fetching Neo4j {s.neo4j_version} from Maven Central into {s.neo4j_home} ...", file=sys.stderr)
        started = time.monotonic()
        staging = s.cache_dir / f".neo4j-{s.neo4j_version}.partial"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        (staging / "pom.xml").write_text(_fetch_pom(s.neo4j_version))
        try:
            _run_maven(staging)
            sha1 = _verify_main_jar(staging / "lib", s.neo4j_version)
        except Neo4jServerError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        (staging / MARKER).write_text(f"version={s.neo4j_version}\nneo4j.jar.sha1={sha1}\n")
        # Rename last so neo4j_home is never seen half-filled.
        shutil.rmtree(s.neo4j_home, ignore_errors=True)
        staging.rename(s.neo4j_home)
        if not quiet:
            print(f"Neo4j {s.neo4j_version} installed in {time.monotonic() - started:.0f} s.", file=sys.stderr)
    return s.neo4j_home


# --------------------------------------------------------------------------- config and password


def _render_conf(s: Settings) -> str:
    d = s.neo4j_data
    return "\n".join([
        "# Written by core/services/neo4j_server.py on every start; edits here are overwritten.",
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
    conf = _conf_dir(s) / "neo4j.conf"
    conf.write_text(_render_conf(s))
    return conf


def _store_exists(s: Settings) -> bool:
    return (s.neo4j_data / "data" / "databases" / "system").exists()


def read_password(s: Settings) -> str | None:
    if s.neo4j_password:
        return s.neo4j_password
    path = _password_file(s)
    return path.read_text().strip() if path.is_file() else None


def _new_password_file(s: Settings) -> str:
    # Hex, not urlsafe base64: a generated password starting with "-" was read by neo4j-admin as an option.
    password = secrets.token_hex(24)
    path = _password_file(s)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Create with 600 from the start so the secret is never world-readable.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(password + "\n")
    return password


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    java = str(candidate) if candidate and candidate.is_file() else shutil.which("java")
    if java is None:
        raise Neo4jServerError("No 'java' on PATH (or JAVA_HOME); Neo4j 5.26 needs Java 17 or 21.")
    return java


def _set_initial_password(s: Settings, password: str) -> None:
    env = {**os.environ, "NEO4J_HOME": str(s.neo4j_home), "NEO4J_CONF": str(_conf_dir(s))}
    cmd = [_java(), "-cp", f"{_lib_dir(s)}/*", ADMIN_CLASS, "dbms", "set-initial-password", "--", password]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        out = (result.stdout + result.stderr).strip().replace(password, "***")
        raise Neo4jServerError(f"neo4j-admin dbms set-initial-password failed (exit {result.returncode}):\n{out}")


def _ensure_password(s: Settings) -> str:
    """The password the store accepts; set as the initial one before the very first start."""
    password = read_password(s)
    if _store_exists(s):
        if password is None:
            raise Neo4jServerError(
                f"The Neo4j store in {s.neo4j_data / 'data'} exists but its password file {_password_file(s)} is gone. "
                "Set CITEWALK_NEO4J_PASSWORD to the password, or delete that data folder to start empty."
            )
        return password
    if password is None:
        password = _new_password_file(s)
    _set_initial_password(s, password)
    return password


# --------------------------------------------------------------------------- process


def _read_pid(s: Settings) -> int | None:
    try:
        return int(_pid_file(s).read_text().strip())
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
    return MAIN_CLASS.encode() in cmdline and f"--config-dir={_conf_dir(s)}".encode() in cmdline


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
        path = _logs_dir(s) / name
        if path.is_file():
            text = path.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {path} (last {len(text)} lines)\n" + "\n".join(text))
    return "\n".join(parts) or f"(no logs in {_logs_dir(s)})"


def _spawn(s: Settings) -> int:
    cmd = [
        _java(), f"-Xms{s.neo4j_heap}", f"-Xmx{s.neo4j_heap}", *JVM_FLAGS,
        "-cp", f"{_lib_dir(s)}/*", MAIN_CLASS,
        f"--home-dir={s.neo4j_home}", f"--config-dir={_conf_dir(s)}",
    ]
    log = (_logs_dir(s) / CONSOLE_LOG).open("ab")
    with log:
        # New session: the server outlives this CLI and ignores its terminal's Ctrl-C.
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, cwd=s.neo4j_data,
        )
    # Popen warns when collected with the child still running; the child is meant to outlive it.
    proc.returncode = 0
    _pid_file(s).write_text(f"{proc.pid}\n")
    return proc.pid


def _bolt_answers(conn: Neo4jConnection) -> bool:
    """True once a real query runs; False while the server is still coming up."""
    from neo4j import GraphDatabase
    from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired, TransientError

    try:
        with GraphDatabase.driver(conn.uri, auth=(conn.user, conn.password), connection_timeout=3) as driver:
            with driver.session(database=conn.database) as session:
                return session.run("RETURN 1 AS one").single(strict=True)["one"] == 1
    except (ServiceUnavailable, SessionExpired, DatabaseUnavailable, TransientError, OSError):
        return False


def _wait_for_bolt(s: Settings, conn: Neo4jConnection, pid: int, timeout_s: float) -> None:
    from neo4j.exceptions import AuthError

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            raise Neo4jServerError(f"Neo4j exited during start-up.\n{_log_tail(s)}")
        try:
            if _bolt_answers(conn):
                return
        except AuthError as exc:
            raise Neo4jServerError(
                f"Neo4j on {conn.uri} rejected the password from {_password_file(s)} / CITEWALK_NEO4J_PASSWORD "
                f"({exc.message}). Set CITEWALK_NEO4J_PASSWORD to the right one, or stop the server and delete "
                f"{s.neo4j_data / 'data'} to start empty."
            ) from None
        time.sleep(0.5)
    raise Neo4jServerError(
        f"Neo4j did not answer on {conn.uri} within {timeout_s:.0f} s (pid {pid} left running; "
        f"`python -m core.services.neo4j_server stop` ends it).\n{_log_tail(s)}"
    )


# --------------------------------------------------------------------------- public API


def connection_info(s: Settings | None = None) -> Neo4jConnection:
    """Where to connect: the external server when NEO4J_URI is set, else the local one."""
    s = s or get_settings()
    if s.neo4j_uri:
        return Neo4jConnection(uri=s.neo4j_uri, user=s.neo4j_user, password=s.neo4j_password or "", database=s.neo4j_database)
    return Neo4jConnection(uri=local_uri(s), user=s.neo4j_user, password=read_password(s) or "", database=s.neo4j_database)


def start(s: Settings | None = None, *, timeout_s: float = START_TIMEOUT_S) -> Neo4jConnection:
    """Start the local server (no-op when running) and return once Bolt answers `RETURN 1`."""
    s = s or get_settings()
    if s.neo4j_uri:
        return connection_info(s)
    pid = running_pid(s)
    if pid is None:
        if not _port_free(s.neo4j_bolt_port):
            raise Neo4jServerError(
                f"Port 127.0.0.1:{s.neo4j_bolt_port} is already taken by another process. "
                "Stop it, or pick another port with CITEWALK_NEO4J_BOLT_PORT."
            )
        install(s)
        write_conf(s)
        _ensure_password(s)
        pid = _spawn(s)
    conn = connection_info(s)
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
        _pid_file(s).unlink(missing_ok=True)
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
    _pid_file(s).unlink(missing_ok=True)
    return True


def rss_bytes(pid: int) -> int:
    """Resident memory of the server, for status and the tests' report."""
    match = re.search(r"^VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(match.group(1)) * 1024 if match else 0


# --------------------------------------------------------------------------- CLI


def _cmd_status(s: Settings) -> int:
    if s.neo4j_uri:
        print(f"external Neo4j at {s.neo4j_uri} (NEO4J_URI is set; nothing runs locally)")
        return 0
    pid = running_pid(s)
    installed = "installed" if is_installed(s) else "not installed"
    if pid is None:
        print(f"stopped ({installed}: Neo4j {s.neo4j_version} in {s.neo4j_home}; data in {s.neo4j_data})")
        return 3  # LSB "not running", so scripts can test it
    print(f"running pid {pid} on {local_uri(s)}, RSS {rss_bytes(pid) / 2**20:.0f} MiB (Neo4j {s.neo4j_version}, data in {s.neo4j_data})")
    return 0


def _dispatch(command: str, s: Settings) -> int:
    if command == "install":
        print(install(s))
    elif command == "start":
        if s.neo4j_uri:
            print(f"NEO4J_URI is set ({s.neo4j_uri}); not starting a local server.")
            return 0
        started = time.monotonic()
        conn = start(s)
        print(f"Neo4j up on {conn.uri} ({time.monotonic() - started:.1f} s); logs in {_logs_dir(s)}")
    elif command == "stop":
        if s.neo4j_uri:
            print(f"NEO4J_URI is set ({s.neo4j_uri}); there is no local server to stop.")
            return 0
        print("stopped" if stop(s) else "not running")
    elif command == "status":
        return _cmd_status(s)
    elif command == "uri":
        print(connection_info(s).uri)
    elif command == "password":
        password = connection_info(s).password
        if not password:
            print(f"No password yet: {_password_file(s)} is written on first start.", file=sys.stderr)
            return 1
        print(password)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.services.neo4j_server", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["install", "start", "stop", "status", "uri", "password"])
    args = parser.parse_args(argv)
    try:
        return _dispatch(args.command, get_settings())
    except Neo4jServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
