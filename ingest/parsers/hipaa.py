"""The HIPAA corpus (45 CFR Parts 160, 162, 164): hipaa.yml for the hierarchy, one Markdown file per section."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from core.domain import Document, LegalUnit, UnitType
from ingest.models import ParseFailure
from ingest.parsers.base import CorpusParse
from ingest.parsers.hipaa_definitions import Definition, looks_like_definitions, split_definitions
from ingest.parsers.hipaa_markdown import Block, is_history, read_blocks
from ingest.parsers.hipaa_paragraphs import ParagraphTree

TOC_NAME = "hipaa.yml"
_SECTION_ID = re.compile(r"(\d{1,3})\.(\d{1,4})")
_SLUG_NUMBER = re.compile(r"^(\d{1,3})-(\d{1,4})(?:-|$)")
_SUBPART_ID = re.compile(r"subpart\s+([A-Z]{1,2})\b", re.I)
# Paragraph unit type by depth in the section: (a) paragraph, (1) clause, (i)/(A)/… point.
_TYPE_BY_DEPTH = (UnitType.PARAGRAPH, UnitType.CLAUSE)


@dataclass
class _TocSection:
    number: str
    title: str
    slug: str
    part: str
    subpart: str | None


@dataclass
class _Toc:
    sections: dict[str, _TocSection] = field(default_factory=dict)  # by section number
    parts: dict[str, str] = field(default_factory=dict)  # part number → title
    subparts: dict[tuple[str, str], str] = field(default_factory=dict)  # (part, letter) → title


def section_key(number: str, markers: tuple[str, ...] = ()) -> str:
    return f"cfr:{number}" + "".join(f"({m})" for m in markers)


def part_key(part: str, subpart: str | None = None) -> str:
    return f"cfr:part:{part}" + (f":subpart:{subpart}" if subpart else "")


class HipaaParser:
    name = "hipaa"

    def detect(self, paths: list[Path]) -> bool:
        return any(_toc_root(p) is not None for p in paths)

    def parse(self, paths: list[Path], corpus: str) -> CorpusParse:
        out = CorpusParse()
        toc_paths, section_paths = _collect(paths)
        toc = _Toc()
        for toc_path in toc_paths:
            try:
                toc = _read_toc(toc_path)
            except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, TypeError, AttributeError) as exc:
                problem = (f"cannot read the table of contents ({type(exc).__name__}); "
                           "fix the YAML — sections parse without parents meanwhile")
                out.failures.append(ParseFailure(path=str(toc_path), problem=problem))
                continue
            if not toc.parts:
                out.notes.append(f"{toc_path}: no parts with sections under 'regulation'; sections parse without parents")
                continue
            out.documents.append(_structure_document(toc, toc_path, corpus))
        seen_numbers: set[str] = set()
        for path in section_paths:
            result = _parse_section(path, corpus, toc)
            if isinstance(result, ParseFailure):
                out.failures.append(result)
                continue
            number = result.units[0].metadata["section"]
            if number in seen_numbers:
                out.notes.append(f"{path}: section {number} given twice; the first file is kept")
                continue
            seen_numbers.add(number)
            if toc.sections and number not in toc.sections:
                out.notes.append(f"{path}: § {number} is not in {TOC_NAME}; parsed without a subpart")
            out.documents.append(result)
        return out


# -- input discovery -----------------------------------------------------------------------------------
def _toc_root(path: Path) -> Path | None:
    """The folder holding hipaa.yml that this path is, or lies in (up to three levels up)."""
    candidates = [path] if path.is_dir() else []
    candidates += list(path.parents)[:3]
    for folder in candidates:
        if (folder / TOC_NAME).is_file():
            return folder
    return None


def _collect(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    tocs: dict[Path, None] = {}
    sections: dict[Path, None] = {}
    for path in paths:
        if path.is_dir():
            if (path / TOC_NAME).is_file():
                tocs[path / TOC_NAME] = None
            for md in sorted(path.rglob("*.md")):
                sections[md] = None
        elif path.name == TOC_NAME:
            tocs[path] = None
        else:
            sections[path] = None
    return list(tocs), list(sections)


# -- hipaa.yml -----------------------------------------------------------------------------------------
def _read_toc(path: Path) -> _Toc:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("regulation"), list):
        raise ValueError("no 'regulation' list")
    toc = _Toc()
    for part_entry in data["regulation"]:
        subparts = part_entry.get("subparts") or []
        numbers = [_SECTION_ID.search(str(s.get("id", ""))) for sp in subparts for s in (sp.get("subparts") or [])]
        parts = [m.group(1) for m in numbers if m]
        if not parts:
            continue
        # A part is named by its sections ("§ 164.508" → Part 164): the yml carries no part number.
        part = max(set(parts), key=parts.count)
        toc.parts[part] = str(part_entry.get("title", ""))
        for subpart_entry in subparts:
            letter_match = _SUBPART_ID.search(str(subpart_entry.get("id", "")))
            letter = letter_match.group(1).upper() if letter_match else None
            if letter:
                toc.subparts[(part, letter)] = str(subpart_entry.get("title", ""))
            for entry in subpart_entry.get("subparts") or []:
                found = _SECTION_ID.search(str(entry.get("id", "")))
                if found:
                    number = f"{found.group(1)}.{found.group(2)}"
                    toc.sections[number] = _TocSection(
                        number, str(entry.get("title", "")), str(entry.get("url", "")), found.group(1), letter
                    )
    return toc


def _structure_document(toc: _Toc, path: Path, corpus: str) -> Document:
    doc_id = f"{corpus}/structure"
    units: list[LegalUnit] = []
    for part, title in toc.parts.items():
        units.append(
            LegalUnit(id=_part_id(corpus, part), corpus=corpus, document_id=doc_id, type=UnitType.PART,
                      label=f"45 CFR Part {part}", title=title, order=len(units),
                      metadata={"title": title, "part": part}, keys=[part_key(part)])
        )
        for (sub_part, letter), sub_title in toc.subparts.items():
            if sub_part != part:
                continue
            units.append(
                LegalUnit(id=_subpart_id(corpus, part, letter), corpus=corpus, document_id=doc_id,
                          type=UnitType.SUBPART, label=f"45 CFR Part {part}, Subpart {letter}", title=sub_title,
                          parent_id=_part_id(corpus, part), order=len(units),
                          metadata={"title": sub_title, "part": part, "subpart": letter}, keys=[part_key(part, letter)])
            )
    return Document(id=doc_id, corpus=corpus, title="45 CFR Parts " + ", ".join(toc.parts), source_path=str(path), units=units)


def _part_id(corpus: str, part: str) -> str:
    return f"{corpus}/part-{part}"


def _subpart_id(corpus: str, part: str, letter: str) -> str:
    return f"{_part_id(corpus, part)}/subpart-{letter}"


# -- one section file ----------------------------------------------------------------------------------
def _parse_section(path: Path, corpus: str, toc: _Toc) -> Document | ParseFailure:
    slug = _SLUG_NUMBER.match(path.stem)
    if not slug:
        return ParseFailure(path=str(path), problem="no section number in the file name; name it like '164-508-short-title.md'")
    number = f"{slug.group(1)}.{slug.group(2)}"
    try:
        raw = path.read_bytes().decode("utf-8")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return ParseFailure(path=str(path), problem=f"cannot read the file ({reason}); check it exists and is readable")
    except UnicodeDecodeError as exc:
        return ParseFailure(path=str(path), problem=f"not UTF-8 (bad byte at offset {exc.start}); re-save it as UTF-8")
    if "\x00" in raw:
        return ParseFailure(path=str(path), problem="binary content (NUL bytes); expected a Markdown section")
    blocks = read_blocks(raw)
    if not blocks:
        return ParseFailure(path=str(path), problem="empty: no text to parse; restore the section's Markdown")

    entry = toc.sections.get(number)
    part = entry.part if entry else slug.group(1)
    subpart = entry.subpart if entry else None
    title = entry.title if entry and entry.title else path.stem[slug.end() :].replace("-", " ").strip().capitalize()
    history = [b.text for b in blocks if is_history(b)]
    blocks = [b for b in blocks if not is_history(b)]

    doc_id = f"{corpus}/{number}"
    if subpart and (part, subpart) in toc.subparts:
        parent: str | None = _subpart_id(corpus, part, subpart)
    elif part in toc.parts:
        parent = _part_id(corpus, part)
    else:
        parent = None
    metadata = {"title": title, "part": part, "section": number}
    if subpart:
        metadata["subpart"] = subpart
    if history:
        metadata["history"] = " ".join(history)[:300]
    builder = _SectionBuilder(corpus, doc_id, number)
    if looks_like_definitions(title, blocks):
        lead, body = split_definitions(blocks)
        builder.add_definitions(body)
    else:
        lead = builder.add_paragraphs(blocks)
    section = LegalUnit(id=doc_id, corpus=corpus, document_id=doc_id, type=UnitType.SECTION, label=f"45 CFR {number}",
                        title=title, text="\n".join(b.text for b in lead), parent_id=parent, order=0,
                        metadata=metadata, keys=[section_key(number)])
    return Document(id=doc_id, corpus=corpus, title=title, source_path=str(path), units=[section, *builder.units])


@dataclass
class _SectionBuilder:
    corpus: str
    section_id: str
    number: str
    units: list[LegalUnit] = field(default_factory=list)

    def add_paragraphs(self, blocks: list[Block]) -> list[Block]:
        """Paragraph units from the blocks; returns the lead-in blocks (text before the first marker)."""
        tree = ParagraphTree()
        lead: list[Block] = []
        for block in blocks:
            if tree.add(block) or tree.append_text(block.text):
                continue
            lead.append(block)
        for paragraph in tree.paragraphs:
            parent = "/".join((self.section_id, *paragraph.segments[:-1])) if len(paragraph.segments) > 1 else self.section_id
            depth = len(paragraph.markers) - 1
            self.units.append(
                LegalUnit(
                    id="/".join((self.section_id, *paragraph.segments)),
                    corpus=self.corpus, document_id=self.section_id,
                    type=_TYPE_BY_DEPTH[depth] if depth < len(_TYPE_BY_DEPTH) else UnitType.POINT,
                    label=f"45 CFR {self.number}" + "".join(f"({m})" for m in paragraph.markers),
                    text=paragraph.text, parent_id=parent, order=len(self.units) + 1,
                    # A repeated marker answers to no address: the first of the pair keeps it.
                    keys=[] if paragraph.duplicate else [section_key(self.number, paragraph.markers)],
                )
            )
        return lead

    def add_definitions(self, definitions: list[Definition]) -> None:
        for definition in definitions:
            metadata = {"term": definition.term}
            if definition.aliases:
                metadata["aliases"] = "; ".join(definition.aliases)
            self.units.append(
                LegalUnit(
                    id=f"{self.section_id}/def/{definition.slug}", corpus=self.corpus, document_id=self.section_id,
                    type=UnitType.DEFINITION, label=f'45 CFR {self.number} (definition of "{definition.term}")',
                    title=definition.term, text=definition.text, parent_id=self.section_id,
                    order=len(self.units) + 1, metadata=metadata,
                )
            )
