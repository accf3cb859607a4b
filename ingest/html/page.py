"""One saved page → its main-content lines, what it says about itself (title, URL, identifiers), or a
clear refusal (a script shell, an error page, nothing readable)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ingest.html import dom
from ingest.html.decode import decode_page
from ingest.html.lines import HtmlLine, content_lines

HTML_EXTENSIONS = (".html", ".htm", ".xhtml")
# Below this many visible characters a page holds no regulation: a script shell or an empty template.
_MIN_TEXT = 40
_ERROR_TITLE = re.compile(
    r"\b(?:404|403|500|502|503|not\sfound|page\snot\sfound|access\sdenied|forbidden|error|unavailable|"
    r"enable\sjavascript|javascript\sis\srequired)\b", re.I)
_FILE_NAME = re.compile(r"\S{0,200}\.(?:x?html?|xml|aspx?|php|jsp)", re.I)
_URL_META = ("og:url", "dc.identifier", "dcterms.identifier", "eli:uri_schema", "citation_public_url", "citation_pdf_url")
_TITLE_META = ("og:title", "dc.title", "dcterms.title", "citation_title", "eli:title")


class PageError(Exception):
    """A page that holds no regulation text; the message says what it is and what to do."""


@dataclass
class Page:
    lines: list[HtmlLine]
    title: str = ""
    url: str = ""
    base_url: str = ""
    charset: str = "utf-8"
    # Citations the page states in structured metadata ("12 CFR Part 217"), first is the page's own.
    citations: list[str] = field(default_factory=list)


def is_html_file(path: Path) -> bool:
    suffix = path.suffix.lower()
    if suffix in HTML_EXTENSIONS:
        return True
    if suffix == ".xml":
        # XHTML served as .xml (EUR-Lex's Cellar files): an XML file whose root is <html>.
        try:
            with path.open("rb") as handle:
                head = handle.read(4096).lower()
        except OSError:
            return False
        return b"<html" in head
    return False


def read_page(path: Path) -> Page:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PageError(f"cannot read the file ({exc.strerror or exc}); check its permissions") from exc
    if not data.strip():
        raise PageError("file is empty; save the page again")
    text, charset = decode_page(data)
    del data  # a 10 MB page: the bytes, the text and the tree must not all be held at once
    try:
        root = dom.parse(text)
        del text
    except (etree.ParserError, ValueError) as exc:
        raise PageError(f"not readable as HTML ({exc}); save the page again as HTML") from exc
    page = Page(lines=[], charset=charset)
    _describe(root, page)
    dom.drop_furniture(root)
    content = dom.main_content(root)
    size = dom.visible_text_size(content)
    if size < _MIN_TEXT:
        what = "an error page" if _ERROR_TITLE.search(page.title) else "a script shell or an empty page"
        raise PageError(f"no regulation text ({size} visible characters): {what}; save the page after it has "
                        "loaded (the rendered DOM) or export the text")
    if _ERROR_TITLE.search(page.title) and size < 2000:
        raise PageError(f"an error page ({page.title!r}); save the page again from the publisher's site")
    page.lines = content_lines(content)
    # The content's own h1 names the document; an h1 outside it is often the site's name.
    own = next((line.text for line in page.lines if line.heading == 0), "")
    page.title = own or page.title
    return page


def _describe(root, page: Page) -> None:
    """Title, canonical URL, base and structured citations: read before furniture (head, meta) is dropped."""
    head_title = root.find(".//title")
    titles: list[str] = []
    for meta in root.iter("meta"):
        name = (meta.get("property") or meta.get("name") or "").lower()
        content = (meta.get("content") or "").strip()
        if name in _URL_META and content.startswith("http") and not page.url:
            page.url = content
        if name in _TITLE_META and content:
            titles.append(content)
    for link in root.iter("link"):
        if (link.get("rel") or "").lower() == "canonical" and link.get("href"):
            page.url = link.get("href").strip()
    base = root.find(".//base")
    if base is not None and base.get("href"):
        page.base_url = base.get("href").strip()
    for element in root.iter():
        for name, value in element.attrib.items() if isinstance(element.tag, str) else ():
            if name.startswith("data-") and value.startswith("{") and "citation" in value:
                citation = _json_field(value, "citation")
                if citation:
                    page.citations.append(citation)
        if len(page.citations) >= 1:
            break
    head = " ".join(head_title.text_content().split()) if head_title is not None else ""
    # "L_2016119EN.01000101.xml" names a file, not the act.
    page.title = (titles[0] if titles else "") or ("" if _FILE_NAME.fullmatch(head) else head)


def _json_field(value: str, key: str) -> str:
    try:
        data = json.loads(value)
    except ValueError:
        return ""
    found = data.get(key) if isinstance(data, dict) else None
    return found.strip() if isinstance(found, str) else ""
