"""What each unit's vector is made from: its own text in windows, or its article read whole.

A backend that reads articles (e5: slow, see core/embeddings/e5.py) embeds each article once: its heading and the
text of every unit under it, in document order, cut to the backend's length. The units under the article (its
paragraphs, points) share that vector: dense retrieval then finds the article, and BM25 picks the unit inside
it. So a corpus spends one model pass per article, not one per paragraph and point, and every unit still has a
vector row (the stores list a corpus's units from its vectors). A unit above the articles (a chapter, a
document) reads its own heading.
"""
from __future__ import annotations

from collections import defaultdict

from core.domain import Document, LegalUnit, UnitType
from core.embeddings import Embedder, Window
from core.lexical import unit_search_text

# The level a reader asks about: an article, or what a corpus numbers in its place.
ARTICLE_LEVEL = frozenset({UnitType.ARTICLE, UnitType.SECTION, UnitType.RULE, UnitType.DEFINITION,
                           UnitType.RECITAL, UnitType.ANNEX, UnitType.PREAMBLE, UnitType.PASSAGE})


def own_text(unit: LegalUnit) -> str:
    return unit_search_text(unit.label, unit.title, unit.text)


def vector_plan(document: Document, embedder: Embedder) -> list[tuple[LegalUnit, Window]]:
    """Every unit of the document with the windows its vectors are made from (vector id = the unit's)."""
    if not embedder.reads_articles:
        cut = embedder.windows_of([(unit.id, own_text(unit)) for unit in document.units])
        return [(unit, window) for unit, windows in zip(document.units, cut, strict=True) for window in windows]
    children: dict[str, list[LegalUnit]] = defaultdict(list)
    for unit in document.units:
        if unit.parent_id:
            children[unit.parent_id].append(unit)

    def below(unit: LegalUnit) -> list[LegalUnit]:
        out: list[LegalUnit] = []
        for child in children.get(unit.id, []):
            out += [child, *below(child)]
        return out

    articles: dict[str, str] = {}  # article id → the text it is read by
    for unit in document.units:
        under = below(unit)
        # An article-level unit with articles under it (a Korean 절 holding 조) is a heading, not an article.
        if unit.type in ARTICLE_LEVEL and not any(u.type in ARTICLE_LEVEL for u in under):
            articles[unit.id] = "\n".join([own_text(unit), *(u.text for u in under if u.text.strip())])
    by_id = {u.id: u for u in document.units}
    out: list[tuple[LegalUnit, Window]] = []
    for unit in document.units:
        anchor: LegalUnit | None = unit
        while anchor is not None and anchor.id not in articles:
            anchor = by_id.get(anchor.parent_id) if anchor.parent_id else None
        text = articles[anchor.id] if anchor is not None else own_text(unit)
        out.append((unit, embedder.windows(unit.id, text)[0]))
    return out
