"""Articles as the unit of an answer: the article a hit sits in, its family, and one slot per article in the top k.

Korean and Vietnamese statutes are cited by article (제23조, Điều 35), and a flat ranking lets one long article fill
the top k with its paragraphs; so where a language is read that way, the best unit of each article stands for it
and the article's other units follow the first k articles.
"""
from __future__ import annotations

from collections.abc import Mapping

from core.retrieval.method import Ranked
from core.retrieval.query import Query
from core.stores.queries import UnitRecord

ARTICLE_TYPES = frozenset({"article", "section", "rule"})


def up_to_article(units: Mapping[str, UnitRecord], unit_id: str) -> tuple[list[UnitRecord], bool]:
    """The unit and the parts above it, up to and including its article, and whether an article was reached;
    without one, up to the top of its document (the document unit last, when it is there)."""
    path: list[UnitRecord] = []
    uid: str | None = unit_id
    while uid is not None and uid in units and all(u.id != uid for u in path):
        unit = units[uid]
        path.append(unit)
        if unit.type in ARTICLE_TYPES:
            return path, True
        if unit.type == "document":
            break
        uid = unit.parent_id
    return path, False


def article_id(units: Mapping[str, UnitRecord], unit_id: str) -> str:
    """The article a unit belongs to (itself when it is one, or when none is above it)."""
    path, found = up_to_article(units, unit_id)
    return path[-1].id if found else unit_id


def article_of(query: Query, unit_id: str) -> str:
    return article_id(query.stores.units, unit_id)


def family(query: Query, unit_id: str) -> list[str]:
    """A unit's article and every unit under it: where that article's delegation edges may start."""
    article = article_of(query, unit_id)
    return [article, *below(query, article)]


def below(query: Query, unit_id: str) -> list[str]:
    """Every unit under this one, depth first."""
    out: list[str] = []
    todo = [unit_id]
    while todo:
        for child in query.stores.children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def one_per_article(query: Query, ranked: Ranked) -> Ranked:
    """Each article's best unit in ranked order, then the other units (in their order): the first k hits are k
    different articles whenever the ranking holds that many."""
    seen: set[str] = set()
    first: Ranked = []
    rest: Ranked = []
    for uid, score in ranked:
        article = article_of(query, uid)
        (rest if article in seen else first).append((uid, score))
        seen.add(article)
    return first + rest
