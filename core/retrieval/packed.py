"""A corpus read as one file of pieces whose arrays are kept apart from their pickles (pickle protocol 5).

The serving process takes a read back (from the reading child, or saved beside the index) while other users'
answers run in its threads. Unpickled the usual way, every array is copied into memory freshly taken from the
system, and the page faults of that copy (some 100 MB for 14k units, slow on a virtual machine) are served with
the interpreter held: every answer in flight waits. Here the file is mapped, and each array is rebuilt as a view
of its place in the mapping: only the pieces' small Python objects are made under the interpreter, a piece at a
time.

Layout: MAGIC, the header's length (8 bytes, little-endian), the header (a pickle: per piece its name, its
pickle's length and its arrays' lengths), then per piece its pickle and its arrays, each array at a multiple of
ALIGN bytes.
"""
from __future__ import annotations

import mmap
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

MAGIC = b"CWPACK1\n"
ALIGN = 64
_LENGTH = 8


def _padding(offset: int) -> int:
    return -offset % ALIGN


def pack(pieces: list[tuple[str, Any]]) -> bytes:
    """The pieces as one packed file's bytes."""
    bodies: list[tuple[str, bytes, list[memoryview]]] = []
    for name, value in pieces:
        buffers: list[pickle.PickleBuffer] = []
        body = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
        bodies.append((name, body, [b.raw() for b in buffers]))
    header = pickle.dumps([(name, len(body), [len(raw) for raw in raws]) for name, body, raws in bodies], protocol=5)
    out = bytearray(MAGIC + len(header).to_bytes(_LENGTH, "little") + header)
    for _, body, raws in bodies:
        out += body
        for raw in raws:
            out += bytes(_padding(len(out)))
            out += raw
    return bytes(out)


def is_packed(data: bytes | memoryview) -> bool:
    return bytes(data[: len(MAGIC)]) == MAGIC


def read_packed(path: Path) -> memoryview:
    """The file mapped into memory, copy on write: its pages are those the system already caches for the file
    (just written by the child, or read at an earlier opening), so nothing is copied and no fresh memory is taken
    for the arrays; a page is mapped when first read. An array written to gets a private copy of its pages, and
    the file is never changed (a new read replaces it by a rename, which leaves this mapping whole)."""
    with path.open("rb") as handle:
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
    return memoryview(mapped)


def unpack(data: bytes | memoryview, pause: Callable[[], None]) -> Iterator[tuple[str, Any]]:
    """The pieces of a packed file, `pause()` after each so that other threads take the interpreter; arrays are
    views of `data`. A truncated or foreign file raises ValueError (or the pickle's own error)."""
    view = memoryview(data)
    if not is_packed(view):
        raise ValueError("not a packed corpus read")
    start = len(MAGIC) + _LENGTH
    header_length = int.from_bytes(view[len(MAGIC):start], "little")
    header = pickle.loads(view[start:start + header_length])
    offset = start + header_length
    for name, body_length, lengths in header:
        body = view[offset:offset + body_length]
        offset += body_length
        buffers = []
        for length in lengths:
            offset += _padding(offset)
            buffers.append(view[offset:offset + length])
            offset += length
        if offset > len(view):
            raise ValueError(f"packed corpus read truncated at piece {name!r}")
        yield name, pickle.loads(body, buffers=buffers)
        pause()
