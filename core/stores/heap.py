"""The serving process's long-lived objects kept out of the cyclic garbage collector's full passes.

Once its corpora are open a worker holds most of a million long-lived objects (units, BM25 postings, the model's
modules, the web framework). A full collection walks them all with every thread stopped (about a second on 2 cores),
and under load one falls due every few minutes: every answer in flight waits for it. What is alive after the
warm-up lives as long as the process, so it is frozen out of those passes (`gc.freeze`). A reload thaws it, since
the stores it replaces may hold cycles only a full pass frees; the heap then stays thawed.
"""
from __future__ import annotations

import gc
import logging

log = logging.getLogger("citewalk.heap")


def settle() -> None:
    """Frees what is garbage now, then exempts everything still alive from later full collections. For a process
    whose stores are open and warm (the app after its warm-up)."""
    gc.collect()
    gc.freeze()
    log.info("long-lived objects exempt from full garbage collections")


def thaw() -> None:
    """Gives the exempt objects back to the collector: stores are being replaced, and the old set must be freed
    when its last question ends, cycles and all."""
    gc.unfreeze()
