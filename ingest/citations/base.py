"""The finder interface shared by every citation grammar."""
from __future__ import annotations

from typing import Protocol

from core.domain import Document, LegalUnit
from ingest.models import Mention


class CitationFinder(Protocol):
    def find(self, unit: LegalUnit, document: Document) -> list[Mention]:
        """Every citation written in unit.text, with spans into unit.text and address keys finest-first.

        Relative citations ("paragraph (a)(2) of this section") are turned into absolute keys using
        the citing unit's own position. Must run in time linear-ish in len(unit.text): no regex that
        can backtrack catastrophically.
        """
        ...
