"""The law as of a date, provision by provision: `python -m core.law --corpus C [--as-of YYYY-MM-DD] [--json]
LABEL [LABEL …]`.

LABEL is a provision as a lawyer writes it ("의료법 제23조의5", "Regulation (EU) 2024/1689, Article 5") or a unit
id. Each is printed as one JSON object per line, in the order asked: label, as_of, status (in_force,
not_yet_in_force, repealed, not_found), text (the words in force that day), in_force_from, in_force_until,
events (date, action, source) and pending (changes adopted but not yet in force, with their dates). Without
--as-of the date is today. Without --json each is printed as a few plain lines.
"""
from __future__ import annotations

import argparse
import sys
from datetime import date

from core.as_of import NOT_FOUND, LawAsOf
from core.domain import StoreError
from core.settings import Settings, get_settings
from core.stores import queries
from core.stores.graph_reader import reader_for


class DateError(ValueError):
    pass


def as_of_date(text: str | None) -> str:
    """An ISO date (YYYY-MM-DD), today when none is given; anything else is refused by name."""
    if text is None or not text.strip():
        return date.today().isoformat()
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError as exc:
        raise DateError(f"as_of: {text!r} is not a date (write YYYY-MM-DD)") from exc


def law_of(labels: list[str], corpus: str, day: str, settings: Settings) -> list[LawAsOf]:
    """Each label's provision as the law stood on `day`, in the order asked (not_found where none matches)."""
    reader = reader_for(settings)
    driver = reader.driver_or_none()
    if driver is None:
        raise StoreError("Neo4j is not answering: start it with `make neo4j` (or `python -m core.neo4j_local start`)")
    out: list[LawAsOf] = []
    for label in labels:
        unit_id = queries.find_labelled(driver, reader.database, corpus, label)
        law = queries.law_as_of(driver, reader.database, unit_id, day, label) if unit_id else None
        out.append(law or LawAsOf(label=label, as_of=day, status=NOT_FOUND))
    return out


def plain(law: LawAsOf) -> str:
    lines = [f"{law.label} as of {law.as_of}: {law.status}"
             + (f" (from {law.in_force_from}" + (f" until {law.in_force_until})" if law.in_force_until else ")")
                if law.in_force_from else "")]
    if law.note:
        lines.append(f"  ({law.note})")
    if law.applies_from:
        lines.append(f"  the amended words apply only from {law.applies_from} (a later start the act itself gives them)")
    if law.text:
        lines.append(f"  {' '.join(law.text.split())}")
    lines += [f"  {e.date or 'undated'}: {e.action}" + (f" by {e.source}" if e.source else "") for e in law.events]
    lines += [f"  pending from {p.date}: {p.action}" + (f" by {p.source}" if p.source else "") for p in law.pending]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m core.law", description="Provisions as the law stood on a date.")
    parser.add_argument("labels", nargs="+", metavar="LABEL", help="a provision as a lawyer writes it, or a unit id")
    parser.add_argument("--corpus", default=None, help="corpus name (default: CITEWALK_DEFAULT_CORPUS)")
    parser.add_argument("--as-of", default=None, help="the date, YYYY-MM-DD (default: today)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line (the default prints plain lines)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = get_settings()
    try:
        day = as_of_date(args.as_of)
        found = law_of(args.labels, args.corpus or settings.default_corpus, day, settings)
    except (DateError, StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for law in found:
        print(law.model_dump_json(exclude={"unit_id"} if law.unit_id is None else set()) if args.json else plain(law))
    return 0 if all(law.status != NOT_FOUND for law in found) else 2


if __name__ == "__main__":
    sys.exit(main())
