"""Which corpora exist: the one answer for the chat's picker, the API's corpus check and the start-up warm-up.

The disk decides, not Neo4j: a corpus is answerable when its lexical index's id list (the last file an ingest
writes) is on disk. A name from a request is only compared with the directory listing, never turned into a path.
"""
from __future__ import annotations

from core.settings import Settings


def answerable_corpora(settings: Settings) -> list[str]:
    """Corpora with a finished lexical index under this data dir, sorted by name."""
    root = settings.lexical_path
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "unit_ids.json").is_file())
