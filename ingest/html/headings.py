"""A page whose provisions carry no numbering but whose markup has headings (h2–h6): one unit per
heading, nested by heading level, each holding its heading and the blocks up to the next heading.

The grammars read numbering ("Article 5", "1.1", "(a)"); many rulebook pages structure themselves only
with headings, and one unit per paragraph would lose that structure.
"""
from __future__ import annotations

from core.domain import LegalUnit, UnitType
from ingest.html.lines import HtmlLine
from ingest.parsers.generic.keys import unit_key

_MIN_HEADINGS = 2
_LABEL_MAX = 80


def heading_units(lines: list[HtmlLine], root: LegalUnit, slug: str) -> list[LegalUnit] | None:
    """The units the page's headings give (root first, its text the lines before any heading), or None
    when the page has fewer than two headings below its title."""
    if sum(1 for line in lines if line.heading) < _MIN_HEADINGS:
        return None
    doc = root.model_copy(update={"text": ""})
    units: list[LegalUnit] = [doc]
    open_: list[tuple[int, LegalUnit]] = []  # (heading level, unit) from the outermost
    bodies: dict[str, list[str]] = {doc.id: []}
    current = doc
    for line in lines:
        if line.heading:
            while open_ and open_[-1][0] >= line.heading:
                open_.pop()
            parent = open_[-1][1] if open_ else doc
            number = str(len(units))
            title = line.text[:_LABEL_MAX]
            current = LegalUnit(
                id=f"{doc.id}/h-{number}", corpus=doc.corpus, document_id=doc.id, type=UnitType.SECTION,
                label=f"{doc.label} — {title}" if doc.label else title, title=title, parent_id=parent.id,
                order=len(units), keys=[unit_key(slug, [("h", number)])],
            )
            units.append(current)
            open_.append((line.heading, current))
            bodies[current.id] = [line.text]
            continue
        bodies[current.id].append(line.text)
    for unit in units:
        unit.text = "\n".join(bodies[unit.id]).strip()
    return units
