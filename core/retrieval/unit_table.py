"""A corpus's units held as columns, read as `UnitRecord`s.

As columns, ~14k units are a handful of objects for the cyclic collector instead of ~27k, and a saved read keeps
them as JSON and arrays. A record is made the first time it is asked for and kept; whole-corpus reads (a filter
mask, the defined terms) go through the columns.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from core.stores.queries import UnitRecord

# Columns of few distinct values (a corpus has tens of documents, a handful of types and statuses): codes into
# their values, so a mask over them is one array comparison.
CODED = ("document_id", "type", "status")
TEXTS = ("label", "title", "text")


class UnitTable(Mapping[str, UnitRecord]):
    """Unit id → `UnitRecord`, over columns aligned with `ids`. Read-only: the stores' units change only with
    an ingest, which opens new stores."""

    def __init__(self, ids: list[str], texts: dict[str, list[str]], parents: list[str | None],
                 codes: dict[str, np.ndarray], values: dict[str, list[str]], tiers: np.ndarray,
                 delegates: np.ndarray, corpus: str) -> None:
        self.ids = ids
        self._texts = texts
        self._parents = parents
        self._codes = codes
        self._values = values
        self._tiers = tiers
        self._delegates = delegates
        self.corpus = corpus
        self._rows = {uid: row for row, uid in enumerate(ids)}
        self._made: dict[str, UnitRecord] = {}
        self._where: dict[re.Pattern[str], list[str]] = {}  # what `ids_where` found (the table never changes)

    @classmethod
    def from_records(cls, records: Mapping[str, UnitRecord], corpus: str = "") -> UnitTable:
        """The table of these records, which it keeps as the ones it returns (a caller holding one reads the same
        object from the table)."""
        ids = list(records)
        rows = [records[uid] for uid in ids]
        codes: dict[str, np.ndarray] = {}
        values: dict[str, list[str]] = {}
        for name in CODED:
            column = [str(getattr(r, name)) for r in rows]
            values[name] = sorted(set(column))
            code_of = {value: code for code, value in enumerate(values[name])}
            codes[name] = np.array([code_of[v] for v in column], dtype=np.int32)
        table = cls(ids, {name: [str(getattr(r, name)) for r in rows] for name in TEXTS},
                    [r.parent_id for r in rows], codes, values, np.array([r.tier for r in rows], dtype=np.int32),
                    np.array([r.delegates for r in rows], dtype=bool),
                    corpus or next((r.corpus for r in rows if r.corpus), ""))
        table._made.update(records)
        return table

    def columns(self) -> dict[str, Any]:
        """The constructor's arguments: what a saved read keeps (core.retrieval.saved_read), not the records."""
        return {"ids": self.ids, "texts": self._texts, "parents": self._parents, "codes": self._codes,
                "values": self._values, "tiers": self._tiers, "delegates": self._delegates, "corpus": self.corpus}

    def __getitem__(self, unit_id: str) -> UnitRecord:
        made = self._made.get(unit_id)
        if made is not None:
            return made
        row = self._rows[unit_id]
        # Threads may make the same record at once: each gets an equal one, and one of them is kept.
        fields: dict[str, Any] = {name: self._at(row, name) for name in (*TEXTS, *CODED)}
        record = UnitRecord.model_construct(id=unit_id, tier=int(self._tiers[row]), parent_id=self._parents[row],
                                            corpus=self.corpus, delegates=bool(self._delegates[row]), **fields)
        return self._made.setdefault(unit_id, record)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def ids_where(self, pattern: re.Pattern[str]) -> list[str]:
        """The ids of the units whose text `pattern` matches at its start, read off the column (no record made).
        The column is scanned once per pattern: a definition question asks it on every answer, and a corpus of 14k
        units takes ~5 ms of the interpreter to scan."""
        found = self._where.get(pattern)
        if found is None:
            found = [uid for uid, text in zip(self.ids, self._texts["text"], strict=True) if pattern.match(text)]
            self._where[pattern] = found
        return list(found)

    def __len__(self) -> int:
        return len(self.ids)

    def row(self, unit_id: str) -> int:
        """The unit's row in the columns, -1 when it is not in the table."""
        return self._rows.get(unit_id, -1)

    def parent_id(self, unit_id: str) -> str | None:
        return self._parents[self._rows[unit_id]]

    def value(self, unit_id: str, name: str) -> str:
        """One of the unit's text or coded fields, without making its record."""
        return self._at(self._rows[unit_id], name)

    def _at(self, row: int, name: str) -> str:
        return self._texts[name][row] if name in self._texts else self._values[name][self._codes[name][row]]

    def coded_in(self, name: str, wanted: Iterable[str]) -> np.ndarray:
        """Per row, whether its `name` (one of CODED) is among `wanted`."""
        values = set(wanted)
        return np.isin(self._codes[name], [code for code, v in enumerate(self._values[name]) if v in values])

    def titles_of_type(self, unit_type: str) -> list[str]:
        """Each unit of this type's title, or its label when it has none, in table order."""
        wanted = self.coded_in("type", [unit_type])
        titles, labels = self._texts["title"], self._texts["label"]
        return [titles[row] or labels[row] for row in np.flatnonzero(wanted)]

    def any_delegates(self) -> bool:
        return bool(self._delegates.any())
