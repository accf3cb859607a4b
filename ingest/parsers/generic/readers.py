"""Users' files → plain text lines (.txt, .md, .docx, .pdf); a file that cannot be read says why.

Readers never guess at structure: they hand over lines, with a heading hint where the file format
states one (Markdown '#', a Word heading style), and blank lines where the format marks a paragraph
break. structure.py decides what the lines mean.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from core.domain import IngestError, normalize_text

TEXT_EXTENSIONS = (".txt", ".md", ".markdown")
SUPPORTED_EXTENSIONS = (*TEXT_EXTENSIONS, ".docx", ".pdf")

# Control characters other than tab/newline/carriage return/form feed: their presence in quantity
# means a binary file wearing a text extension.
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")
_SNIFF_BYTES = 8192

# Markdown markup that carries no legal words. Each quantifier is bounded: a 100 KB line of '*'
# must not make the engine backtrack.
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_RULE = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$")
_MD_IMAGE = re.compile(r"!\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)")
_MD_LINK = re.compile(r"\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)")
_MD_REF_LINK = re.compile(r"\[([^\]\n]{1,500})\]\[[^\]\n]{0,200}\]")
_MD_STRONG = re.compile(r"(\*\*|__)(?=\S)([^\n]{0,2000}?\S)\1")
_MD_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=\S)([^*_\n]{0,2000}?\S)\1(?![\w*])")
_MD_CODE = re.compile(r"`{1,3}([^`\n]{0,2000})`{1,3}")
_MD_HTML = re.compile(r"</?[A-Za-z][^<>\n]{0,500}>")
_MD_QUOTE = re.compile(r"^\s{0,3}(?:>\s?){1,8}")
_MD_BULLET = re.compile(r"^(\s{0,12})[-*+]\s+")
_MD_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
# "1\\." and "가\\." escape a list marker so Markdown keeps the number as written (Korean items).
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_DOCX_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.I)


@dataclass(frozen=True)
class Line:
    text: str
    # 0 = document title, 1..6 = heading depth, None = body text (or the format does not say).
    heading: int | None = None


class ReadError(IngestError):
    """A file that cannot be turned into text; the message is one line: the problem and the fix."""


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """Supported files among paths; directories are walked recursively, in sorted order for stable ids."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix.lower() in SUPPORTED_EXTENSIONS
            )
        elif path.suffix.lower() in SUPPORTED_EXTENSIONS:
            found.append(path)
    return list(dict.fromkeys(found))  # each file once, in the order found


def read_lines(path: Path) -> list[Line]:
    """The file's text as lines; raises ReadError for anything that is not usable text."""
    reader = _READERS.get(path.suffix.lower())
    if reader is None:
        raise ReadError(f"unsupported file type {path.suffix!r}; use one of {', '.join(SUPPORTED_EXTENSIONS)}")
    if not path.is_file():
        raise ReadError("file not found or not a regular file; check the path")
    lines = [Line(normalize_text(line.text).rstrip(), line.heading) for line in reader(path)]
    if not any(line.text.strip() for line in lines):
        raise ReadError("no text in the file (empty, or a scanned/image-only document); add the text or OCR it first")
    return lines


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ReadError(f"cannot read the file ({exc.strerror or exc}); check its permissions") from exc


def _decode_text(path: Path) -> str:
    data = _read_bytes(path)
    if not data.strip():
        raise ReadError("file is empty; remove it or put the regulation text in it")
    sniff = data[:_SNIFF_BYTES]
    if b"\x00" in sniff or len(_CONTROL.findall(sniff.decode("latin-1"))) > len(sniff) // 100 + 2:
        raise ReadError("binary content in a text file; export the document as UTF-8 text, .docx or .pdf")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); re-save the file as UTF-8"
        ) from exc


_FRONT_SCALAR = re.compile(r"(?P<key>[^\s:#\-][^:]{0,60}):\s+(?P<value>[^\n]{1,300})$")


def _read_plain(path: Path) -> list[Line]:
    return [Line(text) for text in _decode_text(path).splitlines()]


def _read_markdown(path: Path) -> list[Line]:
    lines: list[Line] = []
    in_fence = False
    for raw in _without_front_matter(_decode_text(path).splitlines()):
        if _MD_FENCE.match(raw):
            in_fence = not in_fence
            continue
        if in_fence:
            lines.append(Line(raw))
            continue
        if _MD_RULE.match(raw):
            lines.append(Line(""))
            continue
        heading = _MD_HEADING.match(raw)
        if heading:
            # '# Title' is the document's title; deeper levels are section headings.
            lines.append(Line(strip_markdown(heading.group(2)), len(heading.group(1)) - 1))
            continue
        lines.append(Line(strip_markdown(raw)))
    return lines


def front_matter(path: Path) -> dict[str, str]:
    """The top-level "key: value" scalars of a YAML block opening a Markdown file (law.go.kr exports
    give 시행일자 / 공포일자 / 공포번호 there); {} for other files or when there is none."""
    if path.suffix.lower() not in (".md", ".markdown"):
        return {}
    try:
        raw_lines = _decode_text(path).splitlines()
    except ReadError:
        return {}
    if not raw_lines or raw_lines[0].strip() != "---":
        return {}
    out: dict[str, str] = {}
    for line in raw_lines[1:]:
        if line.strip() in ("---", "..."):
            return out
        match = _FRONT_SCALAR.match(line)
        if match and match.group("value").strip():
            out[match.group("key").strip()] = match.group("value").strip().strip("'\"")
    return {}  # never closed: not front matter


def _without_front_matter(raw_lines: list[str]) -> list[str]:
    """A YAML block opening the file ("---" … "---") describes the file; it holds no legal words."""
    if not raw_lines or raw_lines[0].strip() != "---":
        return raw_lines
    for end in range(1, len(raw_lines)):
        if raw_lines[end].strip() in ("---", "..."):
            return raw_lines[end + 1 :]
    return raw_lines


def strip_markdown(text: str) -> str:
    """Markdown inline markup → its words (links keep their text, emphasis its content)."""
    text = _MD_QUOTE.sub("", text)
    text = _MD_BULLET.sub(r"\1", text)
    text = _MD_IMAGE.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = _MD_CODE.sub(r"\1", text)
    text = _MD_STRONG.sub(r"\2", text)
    text = _MD_EMPHASIS.sub(r"\2", text)
    return _MD_ESCAPE.sub(r"\1", _MD_HTML.sub("", text))


def _read_docx(path: Path) -> list[Line]:
    try:
        import docx  # python-docx: imported here so text-only corpora do not need it
        from docx.table import Table

        document = docx.Document(str(path))
        blocks = list(document.iter_inner_content())
    except ImportError as exc:
        raise ReadError("python-docx is not installed; install it (pip install python-docx) to read .docx") from exc
    except Exception as exc:  # python-docx raises zip, XML and key errors alike for a damaged package
        raise ReadError(
            f"not a readable Word .docx file ({type(exc).__name__}); re-save it from Word as .docx"
        ) from exc
    lines: list[Line] = []
    for block in blocks:
        if isinstance(block, Table):
            for row in block.rows:
                cells = [cell.text.strip() for cell in row.cells]
                lines.append(Line(" | ".join(c for c in cells if c)))
        else:
            lines.extend(_docx_paragraph_lines(block))
        # A Word paragraph is a paragraph: mark the break so the paragraph fallback sees it.
        lines.append(Line(""))
    return lines


def _docx_paragraph_lines(paragraph) -> list[Line]:
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    heading: int | None = 0 if style.lower() == "title" else None
    match = _DOCX_HEADING_STYLE.match(style)
    if match:
        heading = int(match.group(1))
    # Soft line breaks inside one Word paragraph come through as '\n'.
    return [Line(part, heading) for part in paragraph.text.split("\n")]


def _read_pdf(path: Path) -> list[Line]:
    try:
        from pypdf import PdfReader  # imported here so text-only corpora do not need it

        reader = PdfReader(str(path))
        if reader.is_encrypted:
            raise ReadError("the PDF is encrypted; save an unprotected copy first")
        pages = [page.extract_text() or "" for page in reader.pages]
    except ReadError:
        raise
    except ImportError as exc:
        raise ReadError("pypdf is not installed; install it (pip install pypdf) to read .pdf") from exc
    except Exception as exc:  # pypdf raises many types for damaged files; all mean the same to the user
        raise ReadError(f"not a readable PDF ({type(exc).__name__}); re-export it as PDF or convert it to text") from exc
    lines: list[Line] = []
    for page_text in pages:
        lines.extend(Line(text) for text in page_text.splitlines())
        lines.append(Line(""))
    return lines


_READERS: dict[str, Callable[[Path], list[Line]]] = {
    ".txt": _read_plain,
    ".md": _read_markdown,
    ".markdown": _read_markdown,
    ".docx": _read_docx,
    ".pdf": _read_pdf,
}
