"""Citewalk core: settings, stores, retrieval, answering and rendering."""
