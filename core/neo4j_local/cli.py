"""`python -m core.neo4j_local {install,start,stop,status,uri,password}` (the Makefile's `make neo4j`)."""
from __future__ import annotations

import argparse
import sys
import time

from core.neo4j_local.config import logs_dir
from core.neo4j_local.errors import Neo4jServerError
from core.neo4j_local.install import install, is_installed
from core.neo4j_local.process import rss_bytes, running_pid, start, stop
from core.settings import Settings, get_settings, neo4j_connection


def _cmd_status(s: Settings) -> int:
    if s.neo4j_uri:
        print(f"external Neo4j at {s.neo4j_uri} (NEO4J_URI is set; nothing runs locally)")
        return 0
    pid = running_pid(s)
    installed = "installed" if is_installed(s) else "not installed"
    if pid is None:
        print(f"stopped ({installed}: Neo4j {s.neo4j_version} in {s.neo4j_home}; data in {s.neo4j_data})")
        return 3  # LSB "not running", so scripts can test it
    print(f"running pid {pid} on {neo4j_connection(s).uri}, RSS {rss_bytes(pid) / 2**20:.0f} MiB (Neo4j {s.neo4j_version}, data in {s.neo4j_data})")
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
        print(f"Neo4j up on {conn.uri} ({time.monotonic() - started:.1f} s); logs in {logs_dir(s)}")
    elif command == "stop":
        if s.neo4j_uri:
            print(f"NEO4J_URI is set ({s.neo4j_uri}); there is no local server to stop.")
            return 0
        print("stopped" if stop(s) else "not running")
    elif command == "status":
        return _cmd_status(s)
    elif command == "uri":
        print(neo4j_connection(s).uri)
    elif command == "password":
        password = neo4j_connection(s).password
        if not password:
            print(f"No password yet: {s.neo4j_password_file} is written on first start.", file=sys.stderr)
            return 1
        print(password)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.neo4j_local", description="The local Neo4j server: fetched from Maven Central, run on loopback.")
    parser.add_argument("command", choices=["install", "start", "stop", "status", "uri", "password"])
    args = parser.parse_args(argv)
    try:
        return _dispatch(args.command, get_settings())
    except Neo4jServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
