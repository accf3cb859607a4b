"""Floor 1, the domain: the records every layer shares (units, documents, edges, step names) and the text
clean-up every layer applies. It imports nothing from the project; every other floor may import it."""
from core.domain.errors import AnswerError, CitewalkError, IngestError, RetrievalError, SettingsError, StoreError
from core.domain.records import (
    CITATION_EDGE_TYPES,
    Document,
    Edge,
    EdgeType,
    ExternalRef,
    LegalUnit,
    UnitType,
)
from core.domain.steps import TOOL_STEPS, Step
from core.domain.text import normalize_text

__all__ = [
    "AnswerError",
    "CitewalkError",
    "IngestError",
    "RetrievalError",
    "SettingsError",
    "StoreError",
    "CITATION_EDGE_TYPES",
    "TOOL_STEPS",
    "Document",
    "Edge",
    "EdgeType",
    "ExternalRef",
    "LegalUnit",
    "Step",
    "UnitType",
    "normalize_text",
]
