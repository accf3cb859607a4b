"""Content a cited rule leaves to another provision ("… contain at least the information … referred to in points
(b), (c) and (d) of Article 33(3)").

When a cited unit says the kind of content asked for (a list, conditions) is set out elsewhere, and the evidence
holds the provision its citation in that phrase reaches, that provision is cited beside it. Only citations inside
the phrase count: the same sentence often names the rule's subject too.
"""
from __future__ import annotations

import re

from core.answer.asked import Kind
from core.answer.deps import AnswerDeps, Evidence
from core.answer.fit import HEADING_WORDS
from core.answer.terms import terms_of
from core.domain import StoreError
from core.domain.labels import without_marks
from core.stores.queries import UnitRecord

# Written citations that carry a rule's content (not a defined term's use, not an amendment).
CONTENT_EDGES = frozenset({"REFERENCES", "DELEGATES_TO", "SPECIFIES"})
# The nouns of content a rule may leave to another provision: a list's, and conditions'.
_LIST_NOUNS = r"information|measures|elements|particulars|details|items|matters|contents?"
_CONDITION_NOUNS = r"conditions?|safeguards?|requirements?|criteria|exceptions?|derogations?"
_POINTER = (r"\b(?P<noun>{nouns})\b(?:\s+and\s+\w+)?\s+(?:referred to|set out|laid down|specified|listed|"
            r"provided for|mentioned|described)\s+in\s+(?P<ref>[^.;:]{{1,90}})")
# Asked for by a list question, or by a question that writes the noun ("any condition"): conditions are asked so.
_DEFERS = [re.compile(_POINTER.format(nouns=nouns), re.I) for nouns in (_LIST_NOUNS, _CONDITION_NOUNS)]
# "paragraphs 47 to 87": a block of a document, not the one provision that holds the content.
_RANGE = re.compile(r"\b\d+\s*(?:to|through|-|–)\s*\d+\b", re.I)
_MARK = re.compile(r"\(([^()]{1,8})\)")


def _own_label(label: str) -> str:
    """The unit's own part of its label ("Article 33(3)(c)" of "Regulation (EU) 2016/679, Article 33(3)(c)")."""
    return label.rsplit(", ", 1)[-1]


def _named_in(ref: str, target_label: str, source_label: str) -> bool:
    """Whether the phrase's citation text names the target: its last paragraph or point mark ("(c)", "3" of
    "paragraph 3"), and its section or article number when that is not the citing unit's own."""
    own = _own_label(target_label)
    base = without_marks(own)
    number = base.split()[-1] if base.split() else ""
    marks = _MARK.findall(own[len(base):])
    if base != without_marks(_own_label(source_label)) and \
            not re.search(rf"(?<![\w.]){re.escape(number)}(?![\w.])", ref):
        return False
    if not marks:
        return bool(number)
    last = re.escape(marks[-1])
    return re.search(rf"\({last}\)|(?<![\w(]){last}(?![\w)])", ref) is not None


def _title_only(text: str) -> bool:
    """A heading ("APP 2 CONTINUOUS AND OTHER DISCLOSURES"): a few words, no sentence or item ending; its content is
    below it, nothing of its own to quote. A short point ("(c) describe the likely consequences …;") ends as one."""
    return len(text.split()) <= HEADING_WORDS and not text.rstrip().endswith((".", ";", ":", ","))


def _asks_for(question: str, kind: Kind | None, noun: str) -> bool:
    """The question asks for this kind of content: by its kind, or by writing the noun itself ("any condition")."""
    if kind is Kind.LIST and re.fullmatch(rf"(?:{_LIST_NOUNS})", noun, re.I):
        return True
    return bool(set(terms_of(noun)) & set(terms_of(question)))


def deferred_to(deps: AnswerDeps, kind: Kind | None, cited: list[str]) -> list[str]:
    """`cited`, each followed by the units of the evidence it leaves the asked-for content to."""
    out = list(cited)
    for unit_id in cited:
        evidence = deps.ledger.units.get(unit_id)
        if evidence is None:
            continue
        refs = [m.group("ref") for pattern in _DEFERS for m in pattern.finditer(evidence.unit.text)
                if _asks_for(deps.question, kind, m.group("noun")) and not _RANGE.search(m.group("ref"))]
        if not refs:
            continue
        found: list[UnitRecord] = []
        for edge in deps.ledger.edges.values():
            target = deps.ledger.units.get(edge.target)
            if edge.source != unit_id or edge.type not in CONTENT_EDGES or target is None or not target.unit.text \
                    or _title_only(target.unit.text) or edge.target in out:
                continue
            if any(_named_in(ref, target.unit.label, evidence.unit.label) for ref in refs):
                out.append(edge.target)
                found.append(target.unit)
        out += _named_siblings(deps, evidence.unit, found, refs, out)
    return out


def _named_siblings(deps: AnswerDeps, source: UnitRecord, found: list[UnitRecord], refs: list[str],
                    held: list[str]) -> list[str]:
    """The other points the phrase names beside those the run's evidence held ("points (b), (c) and (d)" when the
    search and its expansion reached (c) and (d)): read from the graph under the same parent, by their
    parenthesised marks, and recorded in the evidence."""
    parents = list(dict.fromkeys(u.parent_id for u in found if u.parent_id))
    if not parents or deps.graph is None:
        return []
    try:
        below = deps.graph.children(parents)
    except StoreError as exc:
        deps.graph_failed(exc, "reading the points a rule leaves its content to")
        return []
    out: list[str] = []
    for kid in (k for kids in below.values() for k in kids):
        marks = _MARK.findall(_own_label(kid.label))
        if kid.id in held or not kid.text or _title_only(kid.text) or not marks:
            continue
        if any(f"({marks[-1]})" in ref and _named_in(ref, kid.label, source.label) for ref in refs):
            deps.ledger.record(Evidence(kid, "paragraph"))
            out.append(kid.id)
    return out
