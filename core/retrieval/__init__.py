"""Retrievers: one interface (base.py), one file per method."""
