"""Benchmarks: measures of the graph and of retrieval on the shared dev sets."""
