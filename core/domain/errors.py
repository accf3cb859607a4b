"""Citewalk's one exception tree (as neo4j-graphrag keeps one): every failure the project expects and can name
is a CitewalkError, whose message says what failed and what to do. Callers catch the branch they can recover
from; anything else is a bug, and the run's boundary logs it with its traceback and tells the user.

    CitewalkError
    ├── SettingsError     a setting is missing or wrong
    ├── StoreError        Neo4j, Chroma, the lexical index or the embedding model cannot be read or written
    ├── IngestError       an input file or format cannot be read
    ├── RetrievalError    a retrieval method cannot run (unknown method, corpus not indexed)
    └── AnswerError       an answer cannot be composed
"""
from __future__ import annotations


class CitewalkError(Exception):
    """An expected failure; its message is for the user (no traceback needed)."""


class SettingsError(CitewalkError, ValueError):
    pass


class StoreError(CitewalkError, RuntimeError):
    # RuntimeError too: the command lines caught store and model errors as RuntimeError before this tree existed.
    pass


class IngestError(CitewalkError):
    pass


class RetrievalError(CitewalkError):
    pass


class AnswerError(CitewalkError):
    pass
