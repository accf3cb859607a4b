"""Benchmark builder (issue #7): verified multihop questions from the citation graph.

paths → cluster → templates | llm → verify → dedupe, orchestrated by `python -m bench.generate`.
"""
