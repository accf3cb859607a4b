"""Corpus formats: each turns input files into Documents of LegalUnits."""
