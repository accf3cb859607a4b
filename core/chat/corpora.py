"""Which corpora the graph holds, for the corpus picker (shown only when there is a choice)."""
from __future__ import annotations

from neo4j import Driver


def ingested_corpora(driver: Driver, database: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (d:Document) WHERE d.corpus IS NOT NULL RETURN DISTINCT d.corpus AS corpus ORDER BY corpus",
        database_=database,
    )
    return [r["corpus"] for r in records]


def ordered_corpora(corpora: list[str], default: str) -> list[str]:
    """The configured default first, so it is the picker's initial value."""
    return sorted(corpora, key=lambda c: (c != default, c))
