"""Fetching the server's jars from Maven Central once into the shared cache (checksum verified)."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from core.neo4j_local.config import lib_dir
from core.neo4j_local.errors import Neo4jServerError
from core.settings import Settings
from core.stores.file_lock import exclusive

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"
ASSEMBLY = ("org.neo4j.assembly", "neo4j-community-standalone")
MARKER = "INSTALL_COMPLETE"


def is_installed(s: Settings) -> bool:
    return (s.neo4j_home / MARKER).is_file() and any(lib_dir(s).glob("neo4j-*.jar"))


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
    with exclusive(s.cache_dir / f".neo4j-{s.neo4j_version}.lock"):
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
