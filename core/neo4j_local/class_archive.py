"""A class-data-sharing archive of the server's classes, kept beside the jars in the shared cache.

Loading Neo4j's classes is most of a start-up (about 8 s on 2 cores, under 5 s from the archive). The first server
that exits cleanly records one; later starts map it. The JVM ignores an archive that does not match its build and
class path, and the name carries the Java build, so a stale archive costs only the speed-up.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from pathlib import Path

from core.neo4j_local.config import java, run_dir
from core.settings import Settings

PENDING = "neo4j-classes.jsa"


def _java_key() -> str:
    binary = Path(java()).resolve()
    stat = binary.stat()
    return hashlib.sha1(f"{binary}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:12]


def archive_path(s: Settings) -> Path:
    return s.neo4j_home / f"classes-{_java_key()}.jsa"


def _pending_path(s: Settings) -> Path:
    return run_dir(s) / PENDING


def jvm_flags(s: Settings) -> list[str]:
    """Map the archive when there is one; otherwise have this server record one at exit."""
    archive = archive_path(s)
    if archive.is_file():
        return [f"-XX:SharedArchiveFile={archive}"]
    pending = _pending_path(s)
    pending.unlink(missing_ok=True)
    return [f"-XX:ArchiveClassesAtExit={pending}"]


def keep_recorded(s: Settings) -> None:
    """After the server exited: move the archive it recorded into the cache (atomically, so a server
    starting meanwhile never maps half a file). A server killed before its exit recorded nothing."""
    pending = _pending_path(s)
    if not pending.is_file():
        return
    archive = archive_path(s)
    if not archive.is_file() and pending.stat().st_size > 0:
        staging = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")
        # The data dir and the cache may sit on different filesystems: copy next to the target, then rename.
        with contextlib.suppress(OSError):
            shutil.copyfile(pending, staging)
            os.replace(staging, archive)
        staging.unlink(missing_ok=True)
    pending.unlink(missing_ok=True)
