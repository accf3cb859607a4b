"""Page bytes → text: a byte-order mark, then strict UTF-8, then the charset the page declares, then a guess.

Strict UTF-8 goes before the declaration because pages are often re-saved as UTF-8 without their
`<meta charset>` being updated; bytes that decode as UTF-8 and are not plain ASCII are almost never
another encoding. A declaration that fails to decode is ignored and the content sniffed.
"""
from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

_SNIFF = 4096
_DECLARED = (
    re.compile(rb"<meta[^>]{0,200}?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]{1,40})", re.I),
    re.compile(rb"<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([A-Za-z0-9_.:\-]{1,40})", re.I),
)
_CLOSE = 0.02
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def declared_charset(data: bytes) -> str | None:
    """The charset the page states in its first bytes (meta or XML declaration), if a known codec."""
    head = data[: _SNIFF * 4]
    for pattern in _DECLARED:
        match = pattern.search(head)
        if match:
            name = match.group(1).decode("ascii", "replace")
            try:
                return codecs.lookup(name).name
            except LookupError:
                return None
    return None


def decode_page(data: bytes) -> tuple[str, str]:
    """(text, charset used)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data.decode(name, errors="replace"), name
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    declared = declared_charset(data)
    if declared and declared not in ("utf-8", "utf_8"):
        try:
            return data.decode(declared), declared
        except (UnicodeDecodeError, LookupError):
            pass
    matches = from_bytes(data[: 2**20])
    best = matches.best()
    name = best.encoding if best is not None else "cp1252"
    if best is not None and any(m.encoding == "cp1252" and m.chaos <= best.chaos + _CLOSE
                                and m.coherence >= best.coherence - _CLOSE for m in matches):
        # A guess cannot tell Western single-byte codes apart on a few accented letters; where
        # windows-1252 reads as well as the best, take it: it is what browsers assume (WHATWG).
        name = "cp1252"
    return data.decode(name, errors="replace"), name
