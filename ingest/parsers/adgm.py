"""The ADGM/ObliQA corpus: documents/<n>.json passage lists plus a document_map.json of names."""
from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, Field

from core.domain import Document, LegalUnit, UnitType, normalize_text
from ingest.models import ParseFailure
from ingest.parsers import adgm_ids as ids
from ingest.parsers.base import CorpusParse

MAP_NAME = "document_map.json"
_REQUIRED = {"ID": str, "PassageID": str, "Passage": str}
# A name that is itself an abbreviation ("COBS", "COBs", "BRR"), as opposed to a title.
_ABBREVIATION = re.compile(r"^[A-Z][A-Za-z]{1,7}$")
# Guidance, policies and manuals bind less than rules: the retriever discounts tier 2 by μ.
_GUIDANCE = re.compile(r"guidance|guiding principles|policy|policies|manual", re.I)
_BINDING = re.compile(r"\b(?:rules|rulebook|regulations)\b", re.I)
_HEADING_MAX = 120
# "Part 3.16.(1)", "Part 3.Chapter 1.7.": one section number under Part/Chapter (FUNDS "PART 2.3.3.3" is not one).
_STATUTE_ID = re.compile(r"\s*part\s+\d+\.(?:chapter\s+\d+\.)?\d{1,3}[a-z]?\.?(?:\s*\(\d+\))?\s*$", re.I)


class DocumentInfo(BaseModel):
    number: str
    file: str = ""
    names: list[str] = Field(default_factory=list)

    @property
    def abbreviation(self) -> str:
        return next((n for n in self.names if _ABBREVIATION.match(n)), "") or f"DOC{self.number}"

    @property
    def short_name(self) -> str:
        """What labels start with: the abbreviation, else the shortest title (guidance has no abbreviation)."""
        if any(_ABBREVIATION.match(n) for n in self.names) or not self.names:
            return self.abbreviation
        return min(self.names, key=len)

    @property
    def title(self) -> str:
        return max(self.names, key=len) if self.names else f"DOC{self.number}"

    @property
    def tier(self) -> int:
        words = " ".join([self.file, *self.names])
        return 2 if _GUIDANCE.search(words) and not _BINDING.search(" ".join(self.names)) else 1

    def ordered_names(self) -> list[str]:
        return sorted(self.names, key=lambda n: (not _ABBREVIATION.match(n), self.names.index(n)))


class _BadInput(ValueError):
    pass


class AdgmParser:
    name = "adgm"

    def detect(self, paths: list[Path]) -> bool:
        return any(_map_path(p) is not None for p in paths)

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        out = CorpusParse()
        files = _passage_files(paths)
        infos = _load_map(files, out)
        for path in files:
            try:
                out.documents.append(_parse_file(path, corpus, infos))
            except _BadInput as exc:
                out.failures.append(ParseFailure(path=str(path), problem=str(exc)))
        return out


def _map_path(path: Path) -> Path | None:
    """The document_map.json governing a path: in it, beside it, or beside its documents/ folder."""
    folder = path if path.is_dir() else path.parent
    if path.is_file() and path.suffix.lower() != ".json":
        return None
    for candidate in (folder, folder.parent):
        if (candidate / MAP_NAME).is_file():
            return candidate / MAP_NAME
    if path.is_dir() and (path / "documents").is_dir() and any((path / "documents").glob("*.json")):
        return path / MAP_NAME  # the map itself may be missing: documents still parse
    return None


def _passage_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            folder = path / "documents" if (path / "documents").is_dir() else path
            found.extend(p for p in folder.glob("*.json") if p.name != MAP_NAME)
        elif path.name != MAP_NAME:
            found.append(path)
    unique = sorted(set(found), key=lambda p: (p.parent, _number_order(p.stem)))
    return unique


def _number_order(stem: str) -> tuple[int, str]:
    return (int(stem), "") if stem.isdigit() else (10**9, stem)


def _load_map(files: list[Path], out: CorpusParse) -> dict[str, DocumentInfo]:
    maps = {m for m in (_map_path(f) for f in files) if m is not None}
    infos: dict[str, DocumentInfo] = {}
    for path in sorted(maps):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object of id → {file, names}")
            for number, entry in raw.items():
                names = [normalize_text(n).strip() for n in entry.get("names", []) if isinstance(n, str)]
                infos[str(number)] = DocumentInfo(number=str(number), file=str(entry.get("file", "")), names=[n for n in names if n])
        except (OSError, UnicodeDecodeError, ValueError, AttributeError) as exc:
            out.notes.append(f"{path}: unreadable document map ({type(exc).__name__}); documents are named DOC<n>")
    if files and not maps:
        out.notes.append(f"no {MAP_NAME} found: documents are named DOC<n>")
    return infos


def _read_passages(path: Path) -> list[dict]:
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise _BadInput(f"cannot read file ({exc.strerror}); check the path and permissions") from exc
    if not raw_bytes.strip():
        raise _BadInput("empty file; expected a JSON list of {ID, DocumentID, PassageID, Passage}")
    if b"\x00" in raw_bytes[:4096]:
        raise _BadInput("binary content, not JSON; remove the file or replace it with the passage list")
    try:
        text = raw_bytes.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _BadInput(f"not UTF-8 (byte {exc.start}); re-save the file as UTF-8") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _BadInput(f"bad JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    if not isinstance(data, list):
        raise _BadInput(f"top level is a JSON {type(data).__name__}; expected a list of passages")
    if not data:
        raise _BadInput("the passage list is empty")
    for i, record in enumerate(data):
        if not isinstance(record, dict):
            raise _BadInput(f"passage #{i} is a {type(record).__name__}, not an object")
        for field, kind in _REQUIRED.items():
            if not isinstance(record.get(field), kind):
                raise _BadInput(f"passage #{i}: field {field!r} missing or not a {kind.__name__}")
        if not isinstance(record.get("DocumentID"), (int, str)) or isinstance(record.get("DocumentID"), bool):
            raise _BadInput(f"passage #{i}: field 'DocumentID' missing or not a number")
    return data


def _parse_file(path: Path, corpus: str, infos: dict[str, DocumentInfo]) -> Document:
    records = _read_passages(path)
    number = str(records[0]["DocumentID"])
    info = infos.get(number) or DocumentInfo(number=number)
    document_id = f"{corpus}/{number}"
    doc_unit = LegalUnit(
        id=document_id,
        corpus=corpus,
        document_id=document_id,
        type=UnitType.DOCUMENT,
        label=info.short_name,
        title=info.title,
        tier=info.tier,
        metadata={"abbreviation": info.abbreviation, "document_number": number, "numbering": _numbering(records)},
        keys=[ids.document_key(number)],
    )
    units = [doc_unit]
    # Parents are found by PassageID prefix ("3.8.1" › "3.8" › "3"); the first passage holding a path wins.
    by_path: dict[str, str] = {}
    for order, record in enumerate(records, start=1):
        segs = ids.segments(record["PassageID"])
        parent = next((by_path[p] for p in _prefixes(segs) if p in by_path), document_id)
        unit = _passage_unit(record, segs, order, parent, doc_unit, corpus, info)
        by_path.setdefault(ids.canonical(segs), unit.id)
        units.append(unit)
    return Document(id=document_id, corpus=corpus, title=info.title, source_path=str(path),
                    names=info.ordered_names(), units=units)


def _prefixes(segs: list[str]) -> list[str]:
    return [ids.canonical(segs[:n]) for n in range(len(segs) - 1, 0, -1)]


def _numbering(records: list[dict]) -> str:
    """'sections' for statute-style documents (Part N.<section>), whose bare 'section 92' citations others borrow."""
    structured = sum(1 for r in records if _STATUTE_ID.match(r["PassageID"]))
    return "sections" if structured * 2 > len(records) else "rules"


def _passage_unit(record: dict, segs: list[str], order: int, parent: str, doc_unit: LegalUnit,
                  corpus: str, info: DocumentInfo) -> LegalUnit:
    text = normalize_text(record["Passage"]).strip()
    short = ids.short_segments(segs) or segs
    number = doc_unit.metadata["document_number"]
    return LegalUnit(
        id=record["ID"],
        corpus=corpus,
        document_id=doc_unit.id,
        type=_unit_type(segs, short, info.tier),
        label=f"{info.short_name} {ids.display(short)}".strip(),
        title=_heading(text),
        text=text,
        parent_id=parent,
        order=order,
        tier=info.tier,
        metadata={"abbreviation": info.abbreviation, "passage_id": normalize_text(record["PassageID"]).strip()},
        keys=ids.unit_keys(number, segs) if segs else [],
    )


def _unit_type(segs: list[str], short: list[str], tier: int) -> UnitType:
    if tier > 1 or not segs or any(s.lower().startswith("guidance") for s in segs):
        return UnitType.PASSAGE
    last = segs[-1].lower()
    if ids.is_sub(last):
        return UnitType.CLAUSE
    if last.startswith("part"):
        return UnitType.PART
    if last.startswith("chapter"):
        return UnitType.CHAPTER
    if not last[:1].isdigit():
        return UnitType.PASSAGE
    depth = len(short)
    if depth < len(segs) and depth == 1:  # "Part 13.205": a statute section, not a chapter
        return UnitType.SECTION
    return UnitType.CHAPTER if depth == 1 else UnitType.SECTION if depth == 2 else UnitType.RULE


def _heading(text: str) -> str:
    first = text.split("\n", 1)[0].strip()
    if not first or len(first) > _HEADING_MAX or first[-1] in ".;:," or first == "[Deleted]":
        return ""
    # A heading stands alone or heads a longer passage; a short full sentence is not one.
    return first if "\n" in text or len(first.split()) <= 12 else ""
