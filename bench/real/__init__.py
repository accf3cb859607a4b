"""Checks of the typed graph on real regulations of each kind (`python -m bench.real`).

One module per jurisdiction (`ko`, `eu`, `vi`), each with `run(settings) -> list[Check]`; a module
parses and resolves the shared files itself and measures what its issue's "Must show" names.
"""
