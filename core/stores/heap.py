"""The serving process's long-lived objects kept out of the cyclic garbage collector's full passes.

After the warm-up a worker holds most of a million objects that live as long as the process; a full collection
walks them all with every thread stopped (270–330 ms, bench/results/TRIED.md), so they are frozen out of those
passes (`gc.freeze`). A reload thaws them, since the replaced stores may hold cycles only a full pass frees.
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
