"""The item of a penalty provision that a question about breaching a duty asks for, found by what it cites.

A penalty item names the duties it punishes by number ("pursuant to Articles 8, 11, 25 to 39"), while a user asks
in the duty's words. So each item under a lead-in stating a sanction is read with the headings of the provisions
it cites, one at a time (an item citing twenty does not cover more than one citing the duty asked about), and with
its lead-in.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from core.answer.asked import SANCTION_STATED
from core.answer.referenced import cited
from core.answer.terms import terms_of
from core.retrieval.articles import up_to_article
from core.retrieval.stores import CorpusStores
from core.stores.queries import UnitRecord

# Penalty rules read per question: those of the first evidence units that state a sanction (a corpus has a few
# penalty articles, and the search brings the asked one among its first).
PENALTY_RULES = 3
# Levels below a penalty rule's article read for items (article → paragraph → point → sub-point).
ITEM_DEPTH = 3

Words = set[str]


def states_sanction(unit: UnitRecord) -> bool:
    return bool(SANCTION_STATED.search(unit.text))


def _penalty_rule(units: Mapping[str, UnitRecord], unit_id: str) -> str | None:
    """The article of a unit that sits in a penalty provision (it, or a unit above it up to its article, states a
    sanction: a point's lead-in, the article's heading), or the unit itself where no article is above it; None
    for a unit outside any."""
    path, found = up_to_article(units, unit_id)
    if not any(states_sanction(u) for u in path if u.type != "document"):
        return None
    return path[-1].id if found else unit_id


def _below(stores: CorpusStores, root: str) -> list[str]:
    found, level = [], [root]
    for _ in range(ITEM_DEPTH):
        level = [kid for parent in level for kid in stores.children.get(parent, [])]
        found += level
    return found


def penalty_items(stores: CorpusStores, evidence: Iterable[str]) -> list[tuple[UnitRecord, UnitRecord]]:
    """(item, its lead-in) for the items that cite another provision under a lead-in stating a sanction, in the
    penalty rules of the first PENALTY_RULES evidence units that sit in one."""
    units = stores.units
    rules: list[str] = []
    for unit_id in evidence:
        if len(rules) >= PENALTY_RULES:
            break
        rule = _penalty_rule(units, unit_id) if unit_id in units else None
        if rule is not None and rule not in rules:
            rules.append(rule)
    out: list[tuple[UnitRecord, UnitRecord]] = []
    for rule in rules:
        for item_id in _below(stores, rule):
            item = units[item_id]
            lead = units.get(item.parent_id) if item.parent_id else None
            if lead is not None and states_sanction(lead) and cited(stores, item_id):
                out.append((item, lead))
    return out


def heading_words(units: Mapping[str, UnitRecord], unit_id: str) -> Words:
    """The words of the headings a cited provision sits under, up to its article's ("Records of processing
    activities" for "Article 30(1)"): what the duty it holds is called."""
    path, _ = up_to_article(units, unit_id)
    return set(terms_of(" ".join(u.title for u in path if u.title and u.type != "document")))


def standing(stores: CorpusStores, item: UnitRecord, lead: UnitRecord, own: Callable[[UnitRecord], Words],
             cover: Callable[[Words], float]) -> tuple[float, str | None]:
    """How much of the question the item covers read with its lead-in and its best cited provision's headings, and
    that cited provision; None (and the cover without headings) when no cited provision's headings add to it."""
    base = own(item) | own(lead)
    alone = cover(base)
    read = [(cover(base | heading_words(stores.units, t)), t) for t in cited(stores, item.id)]
    best, target = max(read, key=lambda pair: pair[0], default=(alone, None))
    return (best, target) if best > alone else (alone, None)
