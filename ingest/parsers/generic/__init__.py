"""The generic format: users' own regulations as text, Markdown, Word or PDF files."""
from ingest.parsers.generic.format import GenericFormat, generic_formats
from ingest.parsers.generic.structure import GENERIC_FORMAT_NAMES

__all__ = ["GENERIC_FORMAT_NAMES", "GenericFormat", "generic_formats"]
