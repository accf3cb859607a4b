"""A throwaway PostgreSQL cluster (Debian's postgresql-15) in a temp dir on a free port, for app-DB tests."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _as_cluster_owner(args: list[str]) -> list[str]:
    # initdb/postgres refuse to run as root; Debian's package provides the `postgres` user for this.
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yields a postgresql:// URL; the cluster and its files are gone afterwards.

    The cluster lives in its own /tmp dir: pytest's temp dirs are private to root, where `postgres` cannot enter.
    """
    base = Path(tempfile.mkdtemp(prefix="citewalk-pg-"))
    data, sock = base / "pgdata", base / "pgsock"
    for path in (base, data, sock):
        path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        for path in (data, sock):
            shutil.chown(path, "postgres")
    port = free_port()
    subprocess.run(_as_cluster_owner([str(PG_BIN / "initdb"), "-D", str(data), "-U", "citewalk", "--auth=trust",
                                      "-E", "UTF8", "--no-sync"]), check=True, capture_output=True)
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {sock} -c fsync=off"
    subprocess.run(_as_cluster_owner([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l",
                                      str(base / "pg.log"), "start"]), check=True, capture_output=True)
    try:
        subprocess.run(_as_cluster_owner([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                                          "citewalk", "citewalk"]), check=True, capture_output=True)
        yield f"postgresql://citewalk@127.0.0.1:{port}/citewalk"
    finally:
        subprocess.run(_as_cluster_owner([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
