"""ADGM PassageIDs and cited numbers → path segments, canonical address strings and display labels.

One segmentation serves both sides: the parser builds a unit's keys from its PassageID and the
citation finder builds a mention's keys from the number it read, so "3.8.1.(a)", "3.8.1(a)" and
"3.8.1 (a)" all meet at the canonical "3.8.1(a)".
"""
from __future__ import annotations

import re

from core.domain import normalize_text

KEY_PREFIX = "adgm"

# "148)", "a)", "148h)" (guidance paragraphs are numbered with a closing parenthesis only).
_CLOSE_ONLY = re.compile(r"^(?P<num>\d{1,4}[A-Z]?)?(?P<sub>[a-z]{1,4})?\)$")
# A piece that is a body followed only by short parenthesised sub-numbers: "1(2)", "(a)", "92 (4)(b)".
_BODY_AND_SUBS = re.compile(r"^(?P<body>[^()]*?)\s*(?P<subs>(?:\(\s*[0-9A-Za-z]{1,6}\s*\)\s*){1,6})$")
_SUB = re.compile(r"\(\s*([0-9A-Za-z]{1,6})\s*\)")
_STRUCTURE = re.compile(r"^(?:part|chapter)\s*\d{1,3}[a-z]?$", re.I)
_APP = re.compile(r"^app\s*(\d{1,3})$", re.I)
_APP_SECTION = re.compile(r"^a(\d{1,3})$", re.I)
_DIGITS = re.compile(r"^\d+$")
_LETTER = re.compile(r"^[a-z]$")
_SPACE = re.compile(r"\s+")


def is_sub(segment: str) -> bool:
    return segment.startswith("(")


def segments(raw: str) -> list[str]:
    """'Part 19.Chapter 1.225.(1)' → ['Part 19', 'Chapter 1', '225', '(1)']; empty pieces and trailing dots drop."""
    out: list[str] = []
    for piece in normalize_text(raw).split("."):
        piece = piece.strip()
        if piece:
            out.extend(_split_piece(piece, out[-1] if out else None))
    return out


def _split_piece(piece: str, previous: str | None) -> list[str]:
    close = _CLOSE_ONLY.match(piece)
    if close and (close.group("num") or close.group("sub")):
        num, sub = close.group("num"), close.group("sub")
        if num and not sub and previous is not None and _DIGITS.match(previous):
            return [f"({num})"]  # "162.6)": a sub-item of section 162, not paragraph 6
        return ([num] if num else []) + ([f"({sub})"] if sub else [])
    subs = _BODY_AND_SUBS.match(piece)
    if subs:
        body = subs.group("body").strip()
        return ([body] if body else []) + [f"({s})" for s in _SUB.findall(subs.group("subs"))]
    return [piece]


def canonical(segs: list[str]) -> str:
    """Lower-case, no spaces, subs glued to their number, '15.11.A.2' ≡ '15.11A.2'."""
    out = ""
    previous = ""
    for raw in segs:
        seg = _SPACE.sub("", raw).lower()
        if not seg:
            continue
        if is_sub(seg) or (_LETTER.match(seg) and _DIGITS.match(previous)):
            out += seg
        else:
            out += ("." if out else "") + seg
        previous = seg
    return out


def short_segments(segs: list[str]) -> list[str]:
    """The segments a citation uses: FSMR '225(1)' not 'Part 19.Chapter 1.225.(1)', PRU 'A4.3.12' not 'APP4.A4.3.12'."""
    out: list[str] = []
    for i, seg in enumerate(segs):
        following = segs[i + 1] if i + 1 < len(segs) else None
        if following is None:
            out.append(seg)
            continue
        if _STRUCTURE.match(seg):
            continue
        app, section = _APP.match(seg), _APP_SECTION.match(following)
        if app and section and app.group(1) == section.group(1):
            continue
        out.append(seg)
    if len(out) == 1 and _STRUCTURE.match(out[0]) and len(segs) > 1:
        return []  # "Part 1.Chapter 1": no short form that a citation could mean unambiguously
    return out


def unit_keys(document_number: str, segs: list[str]) -> list[str]:
    """Every address key a passage answers to (the KeyIndex keeps the first unit per key)."""
    forms = [canonical(segs)]
    short = short_segments(segs)
    if short:
        forms.append(canonical(short))
    if len(segs) == 1:
        app = _APP.match(segs[0])
        if app:
            forms.append(f"a{app.group(1)}")  # "Appendix A1.3" climbs to A1 = APP 1
    seen: list[str] = []
    for form in forms:
        if form and form not in seen:
            seen.append(form)
    return [address_key(document_number, form) for form in seen]


def address_key(document_number: str, canonical_form: str) -> str:
    return f"{KEY_PREFIX}:{document_number}:{canonical_form}"


def document_key(document_number: str) -> str:
    return f"{KEY_PREFIX}:{document_number}"


def ancestors(canonical_form: str) -> list[str]:
    """'3.8.1(a)(ii)' → itself, '3.8.1(a)', '3.8.1', '3.8', '3': finest first."""
    out = [canonical_form]
    current = canonical_form
    while True:
        if current.endswith(")") and "(" in current:
            current = current[: current.rindex("(")]
        elif "." in current:
            current = current[: current.rindex(".")]
        else:
            break
        if current:
            out.append(current)
    return out


def display(segs: list[str]) -> str:
    """Lawyer-style number: '225(1)', 'A4.3.12', 'Part 19 Chapter 1', '8.3.2.Guidance on CDD'."""
    out = ""
    for seg in segs:
        seg = _SPACE.sub(" ", seg).strip()
        if is_sub(seg) or not out:
            out += seg
        else:
            out += (" " if _STRUCTURE.match(seg) else ".") + seg
    return out
