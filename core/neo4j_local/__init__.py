"""A Neo4j Community server of our own, fetched from Maven Central and run on loopback (operations tooling for the
Makefile, tests and benches; the library only connects, through `core.settings.neo4j_connection`).

Maven Central has no server tarball, but the community assembly's pom resolves to the jars of its lib/ folder; the
server JVM runs directly with our own neo4j.conf. Binaries under <cache_dir>/neo4j-<version>/, data, conf, logs
and the generated password under <data_dir>/neo4j/.
CLI: python -m core.neo4j_local {install,start,stop,status,uri,password}
"""
from core.neo4j_local.config import write_conf
from core.neo4j_local.errors import Neo4jServerError
from core.neo4j_local.install import install, is_installed
from core.neo4j_local.process import ensure_running, rss_bytes, running_pid, start, stop

__all__ = [
    "Neo4jServerError", "ensure_running", "install", "is_installed", "rss_bytes", "running_pid", "start", "stop",
    "write_conf",
]
