"""Files that are dated versions of one act become one act with dated wordings.

A consolidated version (law.go.kr's 공포일자 / 시행일자 front matter, the "[시행 …]" header) is the whole act as
it reads from its date in force. Versions of one act are matched by what the documents say they are (a shared
name key: the title or number the identity read, ingest.parsers.generic.identity), never by their file names.
The act keeps one id (the one already stored, else one made from its title), its units are the union of the
versions' units, and each unit's words carry the intervals they held in force (`Wording`): the version in force
on a date D is the one with the latest date in force on or before D (ties: the later promulgation), as the
national services' "as in force on" views read it.

One unit id per unit, the wordings beside it (core.stores keeps them as :Wording nodes, core.as_of reads them):
search indexes the unit once, under the words in force when it was ingested, and a reading as of a date swaps in
that date's words, so an answer never cites two copies of one provision.

Refused, by file, with nothing stored touched: a version without a date in force, a date that is no date, a
date in force before the promulgation, and a second date in force for a promulgation already known.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import date

from pydantic import BaseModel, Field

from core.domain import Document, LegalUnit
from ingest.models import ParseFailure
from ingest.parsers.generic.keys import slugify
from ingest.staged import staged_dates, staged_start

_NAME_KEY = "gen-name:"


class VersionInfo(BaseModel):
    effective: str
    promulgated: str = ""
    number: str = ""
    source: str = ""

    @property
    def id(self) -> str:
        return f"{self.effective}|{self.promulgated}|{self.number}"

    @property
    def order(self) -> tuple[str, str, str]:
        return self.effective, self.promulgated, self.number


class Wording(BaseModel):
    """One unit's words over the interval they were in force: [valid_from, valid_until)."""

    unit_id: str
    valid_from: str
    valid_until: str | None = None
    text: str
    title: str = ""
    versions: list[str] = Field(default_factory=list)  # the VersionInfo ids that print these words
    staged: bool = False  # valid_from is a later start the act's own 부칙 gives the provision


class StoredAct(BaseModel):
    """An act already in the store with its versions: its units (the base version's words) and every wording."""

    document: Document
    versions: list[VersionInfo]
    wordings: list[Wording]


class VersionMerge(BaseModel):
    documents: list[Document]
    wordings: dict[str, list[Wording]] = Field(default_factory=dict)  # act document id → its units' wordings
    failures: list[ParseFailure] = Field(default_factory=list)


def stored_act(row: dict) -> StoredAct:
    """A stored act as core.stores.queries.stored_acts reads it."""
    units = row["units"]
    root = units[0].metadata if units else {}
    try:
        versions = [VersionInfo(**v) for v in json.loads(root.get("versions") or "[]")]
    except (json.JSONDecodeError, TypeError):
        versions = []
    if not versions and root.get("version_dated") == "effective" and _is_iso(root.get("effective_date", "")):
        # Stored before a second version came: its own dates make it the first version.
        versions = [VersionInfo(effective=root["effective_date"], promulgated=root.get("promulgated", ""),
                                number=root.get("promulgation_number", ""), source=row["source"])]
    document = Document(id=row["id"], corpus=units[0].corpus if units else "", title=row["title"],
                        source_path=row["source"], names=row["names"], units=units)
    return StoredAct(document=document, versions=versions, wordings=[Wording(**w) for w in row["wordings"]])


def name_keys(document: Document) -> set[str]:
    root = document.units[0] if document.units else None
    return {k for k in (root.keys if root else []) if k.startswith(_NAME_KEY)}


def dated(document: Document) -> bool:
    """Whether the document states itself a dated version (its front matter or official header gives the date)."""
    root = document.units[0].metadata if document.units else {}
    return bool(root.get("version_dated") or root.get("date_error"))


def version_info(document: Document) -> tuple[VersionInfo | None, str | None]:
    """The version's dates, or why it has none that can be used."""
    root = document.units[0].metadata if document.units else {}
    if root.get("date_error"):
        return None, f"unparseable date ({root['date_error']}); nothing of this version was stored"
    # Only a date the version states of itself (front matter, the official header): a 부칙's "…부터 시행한다"
    # may be the first enactment's.
    effective = root.get("effective_date", "") if root.get("version_dated") == "effective" else ""
    if not _is_iso(effective):
        return None, ("no date in force (시행일자 / effective date) for this version of "
                      f"{document.title!r}; nothing of this version was stored")
    promulgated = root.get("promulgated", "")
    if promulgated and _is_iso(promulgated) and effective < promulgated:
        return None, (f"conflicting dates: in force {effective} before its promulgation {promulgated}; "
                      "nothing of this version was stored")
    return VersionInfo(effective=effective, promulgated=promulgated if _is_iso(promulgated) else "",
                       number=root.get("promulgation_number", ""), source=document.source_path), None


def _is_iso(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def merge_versions(documents: list[Document], stored: Callable[[set[str]], list[StoredAct]] | None = None,
                   today: str | None = None) -> VersionMerge:
    """The batch with every group of versions of one act (in the batch, or one in the batch and the act stored)
    made one document. Documents that are no version of anything pass unchanged."""
    today = today or date.today().isoformat()
    keyed = [d for d in documents if dated(d) and name_keys(d)]
    known = stored(set().union(*(name_keys(d) for d in keyed))) if keyed and stored is not None else []
    known = [a for a in known if a.versions]  # an undated stored document is no act with versions
    groups = _groups(keyed, known)
    out = VersionMerge(documents=[])
    merged_ids: set[int] = set()  # by identity: two files may carry one id
    for members, act in groups:
        if act is None and len(members) < 2:
            continue
        merged_ids.update(id(d) for d in members)
        document, wordings, failures = _merge_group(members, act, today)
        out.failures += failures
        if document is not None:
            out.documents.append(document)
        if document is not None and wordings:
            out.wordings[document.id] = wordings
    out.documents = [d for d in documents if id(d) not in merged_ids] + out.documents
    return out


def _groups(keyed: list[Document], known: list[StoredAct]) -> list[tuple[list[Document], StoredAct | None]]:
    """Documents sharing a name key with each other or with a stored act, with that act."""
    groups: list[tuple[list[Document], StoredAct | None]] = []
    for document in keyed:
        keys = name_keys(document)
        group = next((g for g in groups if keys & set().union(*(name_keys(d) for d in g[0]))), None)
        if group is None:
            act = next((a for a in known if keys & name_keys(a.document)), None)
            groups.append(([document], act))
        else:
            group[0].append(document)
    return groups


def _merge_group(members: list[Document], act: StoredAct | None, today: str
                 ) -> tuple[Document | None, list[Wording], list[ParseFailure]]:
    failures: list[ParseFailure] = []
    act_id = act.document.id if act is not None else _act_id(members)
    versions: dict[str, tuple[VersionInfo, dict[str, LegalUnit]]] = {}
    if act is not None:
        versions = _stored_versions(act)
    for document in members:
        info, problem = version_info(document)
        if info is None:
            failures.append(ParseFailure(path=document.source_path, problem=problem or "no version date"))
            continue
        clash = _clash(info, [v for v, _ in versions.values()])
        if clash is not None:
            failures.append(ParseFailure(path=document.source_path, problem=clash))
            continue
        versions[info.id] = (info, _relative_units(document))
    if not versions or len(failures) == len(members):
        return None, [], failures  # nothing new that stands: the stored act is left as it is
    if len(versions) == 1 and len(members) == 1 and (act is None or act.document.id == members[0].id):
        # One version of an act, alone: stored as any single document is (single-version corpora unchanged).
        return (members[0], [], failures) if not failures else (None, [], failures)
    ordered = sorted(versions.values(), key=lambda v: v[0].order)
    base = _base(ordered, today)
    document = _document(act_id, members, act, ordered, base)
    return document, _wordings(act_id, ordered), failures


def _act_id(members: list[Document]) -> str:
    first = members[0]
    return f"{first.corpus}/{slugify(first.title)}"


def _clash(info: VersionInfo, known: Iterable[VersionInfo]) -> str | None:
    """A promulgation already known with another date in force: one of the two files is wrong."""
    for other in known:
        same = (info.number and info.number == other.number) or (
            not info.number and not other.number and info.promulgated and info.promulgated == other.promulgated)
        if same and other.effective != info.effective:
            return (f"conflicting dates: promulgation {info.number or info.promulgated} is in force from "
                    f"{info.effective} here but from {other.effective} in {other.source or 'the stored version'}; "
                    "the stored version was kept")
    return None


def _relative_units(document: Document) -> dict[str, LegalUnit]:
    """Units by their path inside the document (the id without the document's), which versions share."""
    return {_relative(u.id, document.id): u for u in document.units}


def _relative(unit_id: str, document_id: str) -> str:
    return unit_id[len(document_id):] if unit_id.startswith(document_id) else unit_id


def _stored_versions(act: StoredAct) -> dict[str, tuple[VersionInfo, dict[str, LegalUnit]]]:
    """Each stored version's units rebuilt from the stored units and their wordings."""
    units = _relative_units(act.document)
    out: dict[str, tuple[VersionInfo, dict[str, LegalUnit]]] = {}
    for info in act.versions:
        own: dict[str, LegalUnit] = {}
        for wording in act.wordings:
            if info.id in wording.versions:
                rel = _relative(wording.unit_id, act.document.id)
                if rel in units:
                    own[rel] = units[rel].model_copy(update={"text": wording.text, "title": wording.title})
        # A unit with no wording at all (stored before the act had versions) is the stored text of every version.
        for rel, unit in units.items():
            if rel not in own and not any(_relative(w.unit_id, act.document.id) == rel for w in act.wordings):
                own[rel] = unit
        out[info.id] = (info, dict(sorted(own.items(), key=lambda kv: kv[1].order)))
    return out


def _base(ordered: list[tuple[VersionInfo, dict[str, LegalUnit]]], today: str) -> int:
    """The version in force today (the earliest when none is yet): the one whose words are indexed."""
    in_force = [n for n, (info, _) in enumerate(ordered) if info.effective <= today]
    return in_force[-1] if in_force else 0


def _document(act_id: str, members: list[Document], act: StoredAct | None,
              ordered: list[tuple[VersionInfo, dict[str, LegalUnit]]], base: int) -> Document:
    """The act as one document: the base version's units in its order, then units only other versions have
    (repealed before the base, or not yet in force), each with its ids moved under the act's id."""
    info, units = ordered[base]
    merged: dict[str, LegalUnit] = dict(units)
    for n, (_, other) in enumerate(ordered):
        for rel, unit in other.items():
            if rel not in merged:
                status = "repealed" if n < base else "not_yet_in_force"
                merged[rel] = unit.model_copy(update={"metadata": {**unit.metadata, "status": status}})
    source_doc = next((d for d in members if d.source_path == info.source), None)
    title = source_doc.title if source_doc else (act.document.title if act else members[0].title)
    names = list(dict.fromkeys([*(source_doc.names if source_doc else []), *(act.document.names if act else []),
                                *(n for d in members for n in d.names)]))
    out = [_rebased(unit, rel, act_id, order) for order, (rel, unit) in enumerate(merged.items())]
    out[0].metadata = {**out[0].metadata, "versions": json.dumps([v.model_dump() for v, _ in ordered], sort_keys=True),
                       "effective_date": info.effective, "promulgated": info.promulgated,
                       "promulgation_number": info.number}
    return Document(id=act_id, corpus=members[0].corpus, title=title, source_path=info.source, names=names, units=out)


def _rebased(unit: LegalUnit, rel: str, act_id: str, order: int) -> LegalUnit:
    old_doc = unit.document_id
    old_slug, new_slug = old_doc.rsplit("/", 1)[-1], act_id.rsplit("/", 1)[-1]
    parent = None if unit.parent_id is None else act_id + _relative(unit.parent_id, old_doc)
    keys = [_rekey(k, old_slug, new_slug) for k in unit.keys]
    return unit.model_copy(update={"id": act_id + rel, "document_id": act_id, "parent_id": parent, "keys": keys,
                                   "order": order})


def _rekey(key: str, old_slug: str, new_slug: str) -> str:
    """The generic keys name the document by its slug ("gen:<slug>:art:2"): the act's slug replaces the file's."""
    prefix = f"gen:{old_slug}"
    if key == prefix or key.startswith(prefix + ":"):
        return f"gen:{new_slug}" + key[len(prefix):]
    return key


def _wordings(act_id: str, ordered: list[tuple[VersionInfo, dict[str, LegalUnit]]]) -> list[Wording]:
    """Each unit's distinct words over the intervals of the versions that print them, consecutive equal words
    joined. A later start the version's own 부칙 gives a provision ("다만, 제N조의 개정규정은 …") keeps the old
    words in force until then, through the later versions that print the new words too."""
    starts = [info.effective for info, _ in ordered]
    staged = [staged_dates(_addenda_text(units), info) for info, units in ordered]
    rels = list(dict.fromkeys(rel for _, units in ordered for rel in units))
    out: list[Wording] = []
    for rel in rels:
        segments: list[Wording] = []
        for n, (info, units) in enumerate(ordered):
            unit = units.get(rel)
            if unit is not None:
                until = starts[n + 1] if n + 1 < len(ordered) else None
                segments.append(Wording(unit_id=act_id + rel, valid_from=info.effective, valid_until=until,
                                        text=unit.text, title=unit.title, versions=[info.id]))
        for n, (info, units) in enumerate(ordered):
            unit = units.get(rel)
            later = staged_start(unit.label, staged[n]) if unit is not None else None
            if later is not None:
                segments = _staged(segments, info, later)
        out += _joined(segments)
    return out


def _staged(segments: list[Wording], info: VersionInfo, later: str) -> list[Wording]:
    """The words version `info` brought hold only from `later`: before then, those they replaced stand."""
    at = next((n for n, s in enumerate(segments) if info.id in s.versions), None)
    if at is None or at == 0 or segments[at - 1].valid_until != info.effective or segments[at - 1].text == segments[at].text:
        return segments
    old, new = segments[at - 1], segments[at].text
    out = segments[:at]
    for segment in segments[at:]:
        if segment.text != new or segment.valid_from >= later:
            out.append(segment)
            continue
        cut = later if segment.valid_until is None else min(later, segment.valid_until)
        # The version still prints the new words: an empty interval keeps that record (stored re-reads need it).
        out.append(old.model_copy(update={"valid_from": segment.valid_from, "valid_until": cut, "versions": []}))
        out.append(segment.model_copy(update={"valid_from": cut, "staged": True}))
    return out


def _joined(segments: list[Wording]) -> list[Wording]:
    """Contiguous equal words joined. A version whose new words a staged start kept out of force (an empty
    interval) is listed on the words' first interval in force, the one it brought; the record stays only when
    they never came into force."""
    segments = [s.model_copy() for s in segments]
    kept: list[Wording] = []
    for n, segment in enumerate(segments):
        if _empty(segment):
            later = next((s for s in segments[n + 1:] if not _empty(s) and s.text == segment.text), None)
            if later is not None:
                later.versions = sorted({*segment.versions, *later.versions})  # ids sort by date in force
                continue
        kept.append(segment)
    out: list[Wording] = []
    for segment in kept:
        last = out[-1] if out else None
        if last is not None and last.text == segment.text and last.valid_until == segment.valid_from and not _empty(last):
            last.valid_until = segment.valid_until
            last.versions = [*last.versions, *segment.versions]
        else:
            out.append(segment)
    return out


def _empty(wording: Wording) -> bool:
    return wording.valid_until is not None and wording.valid_until <= wording.valid_from


def _addenda_text(units: dict[str, LegalUnit]) -> str:
    return "\n".join(u.text for u in units.values())
