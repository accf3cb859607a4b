"""A Neo4j Community server of our own, fetched from Maven Central and run on loopback.

Operations tooling, used by the Makefile, the tests and the benches; the library never starts it (its
stores only connect to `core.settings.neo4j_connection`).

Maven Central publishes no server tarball, but it does publish the community
assembly's pom (`org.neo4j.assembly:neo4j-community-standalone`); resolving its
dependencies gives exactly the jars of the distribution's lib/ folder.  We run
the server JVM directly (one JVM, no bootloader) with our own neo4j.conf.

Layout:
  <cache_dir>/neo4j-<version>/lib/*.jar   shared by clones and CI (settings.neo4j_home)
  <cache_dir>/neo4j-<version>/classes-*.jsa  class-data archive recorded by the first clean stop
  <data_dir>/neo4j/{conf,data,logs,run}   per clone / per test instance
  <data_dir>/neo4j/password               generated on first start, mode 600

Modules: install (Maven fetch), config (neo4j.conf, password), process (start, stop, pid),
class_archive (faster start-ups), cli.
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
