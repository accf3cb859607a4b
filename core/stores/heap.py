"""The serving process's long-lived objects kept out of the cyclic garbage collector's full passes.

Once its corpora are open a worker holds most of a million long-lived objects (units, BM25 postings, the model's
modules, the web framework). A full collection walks them all with every thread stopped (about a second on these
2 cores, `bench.gc_pause`), and under load one falls due every few minutes: every answer in flight waits for it.
What is alive once the stores are open and warm lives as long as the process, so it is frozen out of those
passes (`gc.freeze`); so is a corpus opened later (ingested while the app runs). A reload thaws it, since the
stores it replaces may hold cycles only a full pass frees, and settles again once no question can still use them.
"""
from __future__ import annotations

import gc
import logging
import threading

log = logging.getLogger("citewalk.heap")
_LOCK = threading.Lock()
# Whether this process settled its heap (a serving one, past its warm-up) and has not thawed it since. Kept here
# rather than read as `gc.get_freeze_count() > 0`: that count walks every exempt object with the interpreter held,
# so an opening that asked it stopped every other user's answer meanwhile (bench/results/OPEN_STALL.md, stop 46).
_settled = False


def settle(generation: int = 2) -> None:
    """Frees what is garbage now (in generations up to `generation`; 2 is a full pass), then exempts everything
    still alive from later full collections. For a process whose stores are open and warm (the app after its
    warm-up)."""
    global _settled
    with _LOCK:
        gc.collect(generation)
        gc.freeze()
        _settled = True
    log.info("long-lived objects exempt from full garbage collections (generations up to %d collected first)",
             generation)


def settle_if_settled() -> bool:
    """Exempts what is alive now in a process that settled before (a serving one, past its warm-up): stores
    opened since, a corpus ingested while it runs, then live as long as those of the warm-up, and left in the
    collector they make every later full pass longer, for every answer in flight. Other processes (tests,
    commands) are left as they are. Returns whether it settled.

    Only the young generations are collected first: this runs while other users' answers do, and a full pass
    would walk everything their answers made since the last settle, 0.1-0.3 s with every thread stopped. What
    is garbage in the old generation is exempted with the rest until the next thaw (a reload); an opening
    happens once per corpus and process."""
    if not _settled:
        return False
    settle(generation=1)
    return True


def is_settled() -> bool:
    return _settled


def thaw() -> None:
    """Gives the exempt objects back to the collector: stores are being replaced, and the old set must be freed
    when its last question ends, cycles and all."""
    global _settled
    with _LOCK:
        gc.unfreeze()
        _settled = False
