"""`python -m core.retrieval.prepare CORPUS`: reads a corpus and saves the read (core.retrieval.saved_read) under the
default method's configuration, so that a worker opens it by mapping a few files. The ingest command runs it when an
ingest ends (ingest may not import retrieval, its neighbour on floor 3, so it runs this as a process)."""
from __future__ import annotations

import sys

from core.retrieval.config import RetrievalConfig
from core.retrieval.reload import saved_or_read
from core.retrieval.saved_read import ingest_stamp, saved_path
from core.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m core.retrieval.prepare CORPUS", file=sys.stderr)
        return 2
    corpus, settings, config = args[0], get_settings(), RetrievalConfig()
    stamp = ingest_stamp(settings, corpus)
    if stamp is None:
        print(f"error: corpus {corpus!r} is not ingested in {settings.data_dir}", file=sys.stderr)
        return 2
    # The read alone: the stores' handles and the embedding model are a serving process's, not needed to save it.
    saved_or_read(settings, corpus, config, stamp)
    saved = saved_path(settings, corpus, config, stamp)
    print(f"saved the read of {corpus} in {saved}" if saved.exists() else
          f"the read of {corpus} was not saved (Neo4j did not answer?); the app reads the corpus when it opens it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
