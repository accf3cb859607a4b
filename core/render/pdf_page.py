"""A PDF source's page as a PNG with a unit's words and the answer's quotes marked, for the source view.

PDFium (pypdfium2) renders the page and gives each character's box; the words are matched as source_location
matches them (letters and digits, case folded), so a page's hyphens, line breaks and spacing do not hide them.
PDFium is not thread-safe: one page is rendered at a time.
"""
from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from neo4j import Driver

from core.render.source_location import fold, locate, word_range
from core.stores.queries import document_records, fetch_units

SCALE = 1.5  # 108 dpi: the page readable in a 640-px side view
UNIT_FILL = (255, 229, 138, 70)
QUOTE_FILL = (255, 200, 0, 120)
_LOCK = threading.Lock()


class PageUnavailable(ValueError):
    """The page cannot be shown; the message says why (file gone, not a PDF, page out of range, no renderer)."""


def _folded_chars(textpage: Any, raw: Any) -> tuple[str, list[int]]:
    """The page's letters and digits, case folded, and the PDFium character index of each."""
    letters: list[str] = []
    index: list[int] = []
    for i in range(textpage.count_chars()):
        code = raw.FPDFText_GetUnicode(textpage.raw, i)
        folded = fold(chr(code)) if 0 < code < 0x110000 else ""
        letters.append(folded)
        index.extend([i] * len(folded))
    return "".join(letters), index


def _boxes(textpage: Any, index: list[int], found: tuple[int, int] | None) -> list[tuple[float, float, float, float]]:
    if found is None:
        return []
    first, last = index[found[0]], index[found[1]]
    return [textpage.get_rect(i) for i in range(textpage.count_rects(first, last - first + 1))]


def page_png(path: str, page: int, text: str, quotes: Sequence[str] = ()) -> bytes:
    """Page `page` (1-based) of the PDF at `path`, the span of `text` shaded and each quote found on it marked."""
    if Path(path).suffix.lower() != ".pdf" or not Path(path).is_file():
        raise PageUnavailable(f"the source file {Path(path).name or path!r} is not an available PDF")
    try:
        import pypdfium2 as pdfium  # late: only PDF corpora need it
        import pypdfium2.raw as raw
        from PIL import Image, ImageDraw
    except ImportError as exc:
        raise PageUnavailable("pypdfium2 is not installed; install it to see PDF pages") from exc
    with _LOCK:
        try:
            pdf = pdfium.PdfDocument(path)
        except pdfium.PdfiumError as exc:
            raise PageUnavailable(f"{Path(path).name} cannot be opened as a PDF ({exc})") from exc
        try:
            if not 1 <= page <= len(pdf):
                raise PageUnavailable(f"{Path(path).name} has no page {page}")
            pdf_page = pdf[page - 1]
            textpage = pdf_page.get_textpage()
            folded, index = _folded_chars(textpage, raw)
            height = pdf_page.get_height()
            image = pdf_page.render(scale=SCALE).to_pil().convert("RGBA")
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(overlay)
            marks = [(UNIT_FILL, _boxes(textpage, index, word_range(folded, text)))]
            marks += [(QUOTE_FILL, _boxes(textpage, index, word_range(folded, quote))) for quote in quotes]
            for fill, boxes in marks:
                for left, bottom, right, top in boxes:
                    draw.rectangle([left * SCALE, (height - top) * SCALE, right * SCALE, (height - bottom) * SCALE], fill=fill)
            out = io.BytesIO()
            Image.alpha_composite(image, overlay).convert("RGB").save(out, "PNG", optimize=True)
            return out.getvalue()
        finally:
            pdf.close()


def unit_page_png(driver: Driver, database: str, unit_id: str, quotes: Sequence[str] = ()) -> bytes | None:
    """The page of a stored unit's PDF source with its words marked; None when the unit is not stored."""
    unit = fetch_units(driver, database, [unit_id]).get(unit_id)
    if unit is None:
        return None
    document = document_records(driver, database, [unit.document_id]).get(unit.document_id)
    path = document.source_path if document else ""
    where = locate(path, unit.text)
    if where.kind != "pdf" or where.page is None:
        raise PageUnavailable(f"{where.file_name or 'its source'} is not a PDF in which this provision's words were found")
    return page_png(path, where.page, unit.text, quotes)
