"""Which corpora exist: the one answer for the chat's picker, the API's corpus check and the start-up warm-up.

The disk decides, not Neo4j: a corpus can be answered only when its search index is on disk (the lexical
index's id list is the last file an ingest writes), that is known while Neo4j is down, and a graph shared
by several data dirs may hold corpora this process has no index for. Names come from the directory
listing, so a corpus name from a request is only ever compared with them, never turned into a path.
"""
from __future__ import annotations

from core.settings import Settings


def answerable_corpora(settings: Settings) -> list[str]:
    """Corpora with a finished lexical index under this data dir, sorted by name."""
    root = settings.lexical_path
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "unit_ids.json").is_file())
