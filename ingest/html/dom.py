"""Parse a page, drop what is never rule text, and find the element that holds the main content.

Furniture is recognised by what HTML says an element is (script, style, nav, form controls, ARIA
landmarks and roles, hidden elements), never by one site's class names. The main content is found
by text density: from <main> (or role=main) or else <body>, descend into a child that holds nearly
all of the remaining non-link text, and stop where a sibling that would be dropped carries a heading
(the document's title sits beside its body on many sites), where the siblings left behind hold more
than a line or two of text that is not links, or where no child dominates.
"""
from __future__ import annotations

import re

from lxml import html

# Elements whose content is never words of a rule. Not <form>: ASP.NET pages wrap the whole page in one.
_DROP_TAGS = ("script", "style", "noscript", "template", "svg", "iframe", "object", "embed", "canvas",
              "button", "select", "input", "textarea", "nav", "aside", "dialog", "menu", "link", "meta")
_DROP_ROLES = {"navigation", "banner", "contentinfo", "search", "complementary", "dialog", "alertdialog",
               "menu", "menubar", "tablist", "toolbar", "tooltip", "alert"}
# Generic words page builders use for consent banners and print/share widgets, in id or class.
_FURNITURE_NAME = re.compile(r"(?:^|[\s_-])(?:cookie|consent|gdpr-banner|share-?bar|print-?button|skip-?link)s?(?:$|[\s_-])", re.I)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]{0,300}\?>", re.S)
_DOMINANT = 0.85
_DROPPABLE = 300  # non-link characters a descent may leave behind (a date line, a tab bar)
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def parse(text: str) -> html.HtmlElement:
    """Whole pages and fragments alike → the <html> root; XHTML's namespace and declaration are dropped."""
    text = _XML_DECL.sub("", text, count=1)
    parser = html.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
    root = html.document_fromstring(text, parser=parser)
    for element in root.iter():
        if isinstance(element.tag, str) and "}" in element.tag:
            element.tag = element.tag.split("}", 1)[1]
    return root


def drop_furniture(root: html.HtmlElement) -> None:
    doomed = [el for el in root.iter() if _is_furniture(el)]
    for element in doomed:
        _remove_keep_tail(element)


def _is_furniture(element) -> bool:
    if not isinstance(element.tag, str):
        return True  # comments and processing instructions the parser kept
    tag = element.tag.lower()
    if tag in _DROP_TAGS or (tag in ("header", "footer") and not _inside(element, ("article", "main"))):
        return tag not in ("html", "body")
    role = (element.get("role") or "").lower()
    if role in _DROP_ROLES or element.get("aria-hidden") == "true" or element.get("hidden") is not None:
        return True
    if _HIDDEN_STYLE.search(element.get("style") or ""):
        return True
    names = f"{element.get('id') or ''} {element.get('class') or ''}"
    return bool(_FURNITURE_NAME.search(names))


def _inside(element, tags: tuple[str, ...]) -> bool:
    return any(isinstance(a.tag, str) and a.tag.lower() in tags for a in element.iterancestors())


def _remove_keep_tail(element) -> None:
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    previous = element.getprevious()
    parent.remove(element)
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


_WHITESPACE = (" ", "\n", "\t", "\r", "\xa0", "\u3000")


def _size(text: str | None) -> int:
    # Counted, not split: splitting a 10 MB text node into words would cost ten times its size.
    return len(text) - sum(text.count(c) for c in _WHITESPACE) if text else 0


def text_sizes(root) -> tuple[dict[int, int], dict[int, int], list]:
    """Non-space characters under each element, and how many of them are link text (one bottom-up pass).

    Keyed by id(): lxml's Python proxies live only while referenced, so the element list is returned
    too and must be held as long as the sizes are read.
    """
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    total: dict[int, int] = {}
    linked: dict[int, int] = {}
    for element in reversed(elements):
        own = _size(element.text)
        inner = sum(total.get(id(c), 0) + _size(c.tail) for c in element)
        total[id(element)] = own + inner
        if element.tag == "a" and element.get("href"):
            linked[id(element)] = total[id(element)]
        else:
            linked[id(element)] = sum(linked.get(id(c), 0) for c in element)
    return total, linked, elements


def main_content(root: html.HtmlElement):
    """The element holding the page's main text (see the module docstring)."""
    total, linked, _alive = text_sizes(root)

    def words(el) -> int:
        return total.get(id(el), 0) - linked.get(id(el), 0)

    body = root.find("body")
    start = body if body is not None else root
    landmarks = [el for el in start.iter("main") if isinstance(el.tag, str)] + start.xpath(".//*[@role='main']")
    if landmarks:
        best = max(landmarks, key=words)
        if words(best) >= 0.5 * words(start):
            start = best
    node = start
    while True:
        children = [c for c in node if isinstance(c.tag, str)]
        if not children or words(node) == 0:
            return node
        top = max(children, key=words)
        if words(top) < _DOMINANT * words(node):
            return node
        others = [c for c in children if c is not top]
        if any(c.tag in HEADINGS or c.find(".//h1") is not None or c.find(".//h2") is not None for c in others):
            return node
        # What descending would drop must look like furniture: little text, or mostly links.
        dropped = sum(words(c) for c in others)
        if dropped > _DROPPABLE and dropped > sum(linked.get(id(c), 0) for c in others):
            return node
        node = top


def visible_text_size(element) -> int:
    total, linked, _alive = text_sizes(element)
    return total.get(id(element), 0)
