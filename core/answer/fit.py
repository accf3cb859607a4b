"""Fitting the chosen provisions to what was asked, each correction only when the chosen provision plainly misses:
- descent: the paragraph of the same rule that carries the asked-for kind of content (a deadline, a list);
- the deciding word: a question term rare among the evidence that the chosen text lacks; the best-covering unit
  with it is cited instead;
- a rule whole: a condition ("…; and") is cited as the rule it conditions, an alternative ("…; or") under the
  rule's lead-in;
- what a rule names by number: a provision it cites that holds a phrase of the question, or the period or sum asked
  for, is cited beside it.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from core.answer.asked import Kind, asks_sanction, carries, lists_elements
from core.answer.checkable import checkable_words
from core.answer.defined import DEFINITION_ITEM, asked_definitions, quoted_definitions
from core.answer.deps import AnswerDeps, Evidence
from core.answer.quotes import is_lead_in
from core.answer.referenced import asked_phrases, cited_elsewhere, naming, same_stem
from core.answer.sanctions import penalty_items, standing, states_sanction
from core.answer.selection import UNSURE_MARGIN, Scorer, Selection
from core.answer.signals import Signals, clauses
from core.answer.terms import terms_of
from core.domain import Edge, EdgeType, StoreError, UnitType
from core.domain.labels import KOREAN_SUB_UNIT, without_marks
from core.stores.queries import UnitRecord

log = logging.getLogger("citewalk.answer")

# A question term is deciding when at most this share of the evidence holds it and its weight is at least
# DECIDING_WEIGHT of the heaviest weight among the question terms the evidence holds at all.
DECIDING_SHARE = 0.25
DECIDING_WEIGHT = 0.6
# A unit of another rule replaces the chosen one only if it covers at least this share of the question's weight
# (it shares the rule's topic).
MIN_COVER = 0.3
# Below MIN_COVER, a unit may still replace a chosen one it covers this many times over, if it covers this much.
LOW_COVER = 0.15
COVER_RATIO = 3.0
# Of the units that may replace a chosen one, the best-covering few are read in place (their headings: a query each).
SWAP_READ = 6
# Descent reads at most this many levels and units below the rule.
REGION_DEPTH = 4
REGION_UNITS = 160
# A question with more rare terms than this has no one deciding word (it lists several provisions' topics).
MAX_DECIDING = 2
# A unit carrying the asked-for kind of content replaces the chosen one only when it reads at least as well in place
# and is at most this much farther in meaning (dense cosine): a scope or glossary unit holds many of the question's
# words and is about something else.
SWITCH_DENSE = 0.05
# The enacting provision replaces a chosen recital when its standing (cover with headings + dense similarity,
# `_Fitter.placed`) is at most this much lower: a recital restates the rule's words without being the rule.
KIND_MARGIN = 0.15
# A unit carrying the asked-for kind of content may stand up to KIND_MARGIN lower than the chosen unit in words only
# when it is at most this much farther in meaning (noise): a user's everyday words ("reply", "time") match another
# party's duty, the meaning the user's own; a carrier clearly farther in meaning answers something else.
KIND_DENSE = 0.02
# A paragraph that carries the asked-for content replaces one that does not if it covers at least this share of
# what the chosen one covers (the duty's paragraph repeats the question's words; the deadline's, fewer). No floor
# on its own cover: within the chosen rule the topic is shared, and a user's question told as a situation leaves every paragraph's cover small (0.1-0.25 on GDPR user questions).
DESCENT_SHARE = 0.4
# A sub-criterion is lifted through at most this many lead-ins ("(2)(ii)(C)" → "(2)(ii)" → "(2)" → "(i)").
LIFT_LEVELS = 4
# A lead-in over more items than this is a catalogue (definitions, a list of tasks), not one rule's conditions:
# an item of it is cited on its own, under the lead-in.
MAX_CONDITIONS = 8
# Kinds whose content sits in one paragraph of a rule, and which another provision of the evidence may hold when
# the chosen one does not: a period, a list, a sum, a definition, and who (the paragraph that designates the
# authority or the person responsible; the rule's other paragraphs have it as their subject).
DESCEND_KINDS = frozenset({Kind.DEADLINE, Kind.LIST, Kind.AMOUNT, Kind.DEFINITION, Kind.WHO})
# Kinds stated in one clause (a period, a sum): a paragraph of the same rule that does not state it adds nothing.
STATED_KINDS = frozenset({Kind.DEADLINE, Kind.AMOUNT})
# Units that give reasons, not rules (outside the enacting terms).
REASONS = frozenset({UnitType.RECITAL, UnitType.PREAMBLE})
# A unit whose own text is at most this many words and that has sub-units is a heading: its content is below it.
HEADING_WORDS = 8
_CONJUNCT = re.compile(r"(?:;|,)?\s*(?:and|và|및|그리고)\s*$", re.I)
_DISJUNCT = re.compile(r"(?:;|,)?\s*(?:or|hoặc|또는)\s*$", re.I)
_KO_SUB = re.compile(KOREAN_SUB_UNIT)


@dataclass
class Fitted:
    units: list[str]
    leads: dict[str, UnitRecord] = field(default_factory=dict)  # unit id → the lead-in it is quoted under
    context: dict[str, UnitRecord] = field(default_factory=dict)  # unit id → its parent heading (for the graph)
    cites: dict[str, Edge] = field(default_factory=dict)  # unit id → the citation it was chosen by (for the graph)
    notes: list[str] = field(default_factory=list)  # what was corrected, for the bench's per-question record


def deciding_terms(scorer: Scorer, deps: AnswerDeps, content: set[str]) -> list[str]:
    """Content terms of the question (`content`: `_Fitter.content`) rare among the evidence but present in some of
    it, heaviest first."""
    docs = [scorer.held_by(e) for e in deps.ledger.units.values() if e.unit.text]
    if not docs:
        return []
    df = {t: sum(1 for d in docs if t in d) for t in scorer.weights if t in content}
    held = {t: w for t, w in scorer.weights.items() if df.get(t)}
    if not held:
        return []
    heaviest = max(held.values())
    return sorted((t for t, w in held.items() if df[t] <= max(1, DECIDING_SHARE * len(docs))
                   and w >= DECIDING_WEIGHT * heaviest), key=lambda t: -held[t])


def _has(term: str, words: set[str]) -> bool:
    """The term, or a word of the same stem family ("discov" / "discoveri": the stemmer cuts them apart)."""
    return term in words or any(same_stem(term, w) for w in words)


def _words(unit: UnitRecord) -> set[str]:
    return set(terms_of(" ".join((unit.label, unit.title, unit.text))))


def _carries(kind: Kind | None, unit: UnitRecord) -> bool:
    return carries(kind, unit.text) or (kind is Kind.LIST and is_lead_in(unit.text))


def _is_heading(unit: UnitRecord) -> bool:
    return len(unit.text.split()) <= HEADING_WORDS and not is_lead_in(unit.text)


def _base(label: str) -> str:
    return without_marks(label)


def _names(question: str, label: str) -> bool:
    """The question writes the label's own number: its part after the last ", " or its last word, not followed by
    a further mark ("164.502(a)(5)" is not named by "164.502(a)(5)(ii)")."""
    tail = label.rsplit(", ", 1)[-1] if ", " in label else (label.split()[-1] if label.split() else "")
    if len(tail) < 4 or not any(ch.isdigit() for ch in tail):
        return False
    return re.search(re.escape(tail) + r"(?![\w(])", question, re.I) is not None


def _same_rule(above: UnitRecord, unit: UnitRecord) -> bool:
    """Whether `above` is the same rule at a coarser level: its label is the start of the unit's, continued by a
    paragraph mark or a sub-unit's word ("45 CFR 164.404" of "45 CFR 164.404(a)(1)", "… Điều 27" of "… Điều 27
    khoản 1", "의료법 제56조" of "의료법 제56조제2항"), not by more of a number ("MIR 8.1" of "MIR 8.1.1": a section of
    separate rules; "제56조" of "제56조의2"), and not the whole instrument."""
    base = _base(above.label)
    if not base or above.type == "document" or not unit.label.startswith(base):
        return False
    rest = unit.label[len(base):]
    return not rest or rest[0] == "(" or rest[0].isspace() or _KO_SUB.match(rest) is not None


class _Fitter:
    def __init__(self, deps: AnswerDeps, scorer: Scorer, kind: Kind | None, signals: Signals | None) -> None:
        self.deps, self.scorer, self.kind, self.signals = deps, scorer, kind, signals
        assert deps.graph is not None
        self.graph = deps.graph
        # What the graph said, kept for the answer: each read serves every later step (an answer's reads are a
        # handful of batched queries, not one per unit looked at).
        self._ancestors: dict[str, list[UnitRecord]] = {}
        self._children: dict[str, list[UnitRecord]] = {}
        self._units: dict[str, UnitRecord] = {}
        # Kept on the instance: a cache on the method would be the class's and keep every answer alive.
        self._regions: dict[str, list[UnitRecord]] = {}
        self.cites: dict[str, Edge] = {}  # a cited unit → the citation that decided it (sanction, referenced)

    def know(self, unit_ids: list[str]) -> None:
        """Reads the headings of those of these units not yet known, in one query."""
        missing = [u for u in dict.fromkeys(unit_ids) if u not in self._ancestors]
        if not missing:
            return
        found = self.graph.ancestors_of(missing)
        for unit_id in missing:
            above = found.get(unit_id, [])
            self._ancestors[unit_id] = above
            for i, heading in enumerate(above):  # a heading's own headings are those above it
                self._units.setdefault(heading.id, heading)
                self._ancestors.setdefault(heading.id, above[:i])

    def ancestors(self, unit_id: str) -> list[UnitRecord]:
        self.know([unit_id])
        return self._ancestors[unit_id]

    def children(self, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
        """Sub-units of each unit (read once per unit); a child's headings are its parent's and the parent."""
        missing = [u for u in dict.fromkeys(unit_ids) if u not in self._children]
        if missing:
            found = self.graph.children(missing)
            for parent in missing:
                kids = self._children[parent] = found.get(parent, [])
                up = self._ancestors[parent] + [self.unit(parent)] if parent in self._ancestors else None
                for kid in kids:
                    self._units.setdefault(kid.id, kid)
                    if up is not None:
                        self._ancestors.setdefault(kid.id, up)
        return {u: self._children[u] for u in unit_ids if self._children[u]}

    def unit(self, unit_id: str) -> UnitRecord:
        known = self.deps.ledger.units.get(unit_id)
        if known:
            return known.unit
        if unit_id not in self._units:
            self._units.update(self.graph.fetch_units([unit_id]))
        return self._units[unit_id]

    def cover(self, unit: UnitRecord) -> float:
        return self.cover_words(_words(unit))

    def cover_words(self, words: set[str]) -> float:
        return self.scorer.score_terms({t for t in self.scorer.weights if _has(t, words)})

    def cover_checkable(self, words: set[str]) -> float:
        """`cover_words` of the question's content words only: between items of one list, which share the
        lead-in's words, an everyday word ("후", "after") matched by chance would decide."""
        return self.scorer.score_terms({t for t in self.content if _has(t, words)})

    @cached_property
    def content(self) -> set[str]:
        """The terms of the question's content words (core.answer.checkable)."""
        return {t for w in checkable_words(self.deps.question) for t in terms_of(w)}

    def opened(self, units: list[UnitRecord]) -> list[UnitRecord]:
        """Headings replaced by their sub-units (their content is there), other units kept."""
        headings = [u.id for u in units if _is_heading(u)]
        below = self.children(headings) if headings else {}
        out: list[UnitRecord] = []
        for u in units:
            out += [k for k in below.get(u.id, []) if k.text] if u.id in below else [u]
        return out

    def placed(self, unit: UnitRecord) -> float:
        """How well a unit answers read where it sits: its text with its headings, and its meaning (dense)."""
        words = _words(unit)
        for above in self.ancestors(unit.id):
            words |= _words(above)
        return self.scorer.score_terms(words) + self.dense(unit.id)

    def as_good(self, other: UnitRecord, chosen: UnitRecord) -> bool:
        """Whether `other` may replace the chosen unit: it reads at least as well in place and is about as close
        in meaning (a switch is a correction, never a trade of the question's sense for one of its words)."""
        return self.placed(other) >= self.placed(chosen) and self.dense(other.id) >= self.dense(chosen.id) - SWITCH_DENSE

    def dense(self, unit_id: str) -> float:
        return self.signals.dense_of(unit_id) if self.signals is not None else 0.0

    def record(self, unit: UnitRecord, role: str, via: Edge | None = None) -> None:
        if unit.id not in self.deps.ledger:
            self.deps.ledger.record(Evidence(unit, role, via=via))

    def named(self, unit_id: str) -> bool:
        """Whether the question writes this unit's own number ("… 164.502(a)(5)(ii)(B)(2)(iv) …", "Article 32"):
        then it is what is asked about, whatever else the question's words suggest."""
        return _names(self.deps.question, self.unit(unit_id).label)

    def shortlist(self, keep: Callable[[UnitRecord], bool], chosen: list[str], opened: bool,
                  also: list[str] | None = None) -> list[UnitRecord]:
        """The evidence that may replace a chosen unit: units with text, not chosen, that `keep` accepts (headings
        opened to their sub-units when `opened`), the SWAP_READ that cover the question best, their headings
        (and those of `also`) read in one query."""
        found = [e.unit for e in self.deps.ledger.units.values()
                 if e.unit.text and e.unit.id not in chosen and keep(e.unit)]
        if opened and found:
            found = self.opened(found)
        found = sorted(found, key=lambda u: -self.cover(u))[:SWAP_READ]
        if found:
            self.know([u.id for u in found] + (also or []))
        return found

    def deciding(self, units: list[str], deciding: list[str]) -> tuple[list[str], str | None]:
        """Units lacking a deciding term the evidence has: the best unit that has them all replaces the weakest."""
        # Two units chosen together are a citation pair, each answering its half: swapping one breaks the pair.
        if len(units) > 1 or any(self.named(u) for u in units) or len(deciding) > MAX_DECIDING:
            return units, None
        have: set[str] = set()
        for u in units:
            have |= _words(self.unit(u))
        lacking = [t for t in deciding if not _has(t, have)]
        if not lacking:
            return units, None
        found = self.shortlist(lambda u: all(_has(t, _words(u)) for t in lacking), units, opened=True, also=units)
        if not found:
            return units, None
        best = max(found, key=lambda u: (self.placed(u), _carries(self.kind, u)))
        weakest = min(units, key=lambda u: self.cover(self.unit(u)))
        if not self.covers_topic(best, self.unit(weakest)) or not self.as_good(best, self.unit(weakest)):
            return units, None
        self.record(best, "paragraph")
        return [best.id if u == weakest else u for u in units], f"deciding word {lacking[0]}: {best.label}"

    def covers_topic(self, other: UnitRecord, chosen: UnitRecord) -> bool:
        """Whether a unit of another rule shares the question's topic enough to replace the chosen one: MIN_COVER of
        the question's weight, or LOW_COVER when it covers COVER_RATIO times what the chosen unit does (a question
        told as a situation leaves every unit's cover small, and a chosen unit that covers next to nothing of it
        is no standard to keep)."""
        cover = self.cover(other)
        return cover >= MIN_COVER or (cover >= LOW_COVER and cover >= COVER_RATIO * self.cover(chosen))

    def enacting(self, units: list[str], selection: Selection | None = None) -> tuple[list[str], str | None]:
        """A recital chosen as the answer gives a rule's reasons, not the rule. It gives way to the enacting
        candidate the selection scored within UNSURE_MARGIN of it (the choice between them was not clear-cut, and a
        pair of the rule's paragraphs may answer both halves of the question); else to the search hit closest in
        meaning to the recital (`nearest_hit`), or without the corpus's vectors the enacting provision of the
        evidence that reads best in place, unless that stands more than KIND_MARGIN lower."""
        reasons = [u for u in units if self.unit(u).type in REASONS and not self.named(u)]
        if not reasons:
            return units, None
        passed_over = selection.alternatives if selection is not None else []
        floor = selection.score - UNSURE_MARGIN if selection is not None else 0.0
        close = next((c for s, c in passed_over
                      if s >= floor and not any(self.unit(u).type in REASONS for u in c)), None)
        if close is not None:
            return list(close), "enacting candidate " + ", ".join(self.unit(u).label for u in close)
        best = self.nearest_hit(reasons[0])
        if best is None:
            found = self.shortlist(lambda u: u.type not in REASONS, units, opened=True, also=reasons)
            if not found:
                return units, None
            best = max(found, key=self.placed)
        else:
            self.know([best.id, reasons[0]])
        if self.placed(best) < self.placed(self.unit(reasons[0])) - KIND_MARGIN:
            return units, None
        self.record(best, "paragraph")
        return [best.id if u == reasons[0] else u for u in units], f"enacting provision {best.label}"

    def nearest_hit(self, recital: str) -> UnitRecord | None:
        """The search hit outside the recitals closest in meaning to the recital itself: a recital gives the reasons
        for a rule in the rule's own terms, so the rule it explains reads most like it (a user's everyday words
        match other provisions as well)."""
        vector = self.signals.vector_of(recital) if self.signals is not None else None
        if vector is None or self.signals is None:
            return None
        near = [(float(vector @ v), e.unit) for e in self.deps.ledger.seeds()
                if e.unit.text and e.unit.type not in REASONS and (v := self.signals.vector_of(e.unit.id)) is not None]
        return max(near, key=lambda pair: pair[0])[1] if near else None

    def definitions(self, units: list[str]) -> tuple[list[str], str | None]:
        """A definition question is answered by the definitions of the terms it writes, when the evidence holds
        them or, for a Korean definitions item, the corpus does (core.answer.defined), unless it names a provision."""
        if self.kind is not Kind.DEFINITION or any(self.named(u) for u in units):
            return units, None
        found = asked_definitions(self.deps.question, [e.unit for e in self.deps.ledger.units.values()])
        if not found and self.signals is not None:
            # A Korean definition is an item of one article the search rarely ranks (a user's situation shares
            # few words with "… 란 … 말한다"): the corpus is searched for it by its form.
            table = self.signals.stores.units
            found = asked_definitions(self.deps.question, [table[u] for u in table.ids_where(DEFINITION_ITEM)])
            for unit in found:
                self.record(unit, "paragraph")
        asked = [u.id for u in found]
        if not asked or asked == units:
            return units, None
        return asked, "defines " + ", ".join(self.unit(u).label for u in asked)

    def quoted(self, units: list[str]) -> tuple[list[str], str | None]:
        """A question that asks two things, one of them whether something is a term it quotes and the corpus
        defines ("Are fingerprints 'biometric data', and does that make them sensitive data?"): the definition
        answers that part, cited beside what answers the other (a definition question is answered by its
        definitions alone: `definitions`)."""
        if self.kind is Kind.DEFINITION or len(clauses(self.deps.question)) < 2:
            return units, None
        found = [u.id for u in quoted_definitions(self.deps.question, [e.unit for e in self.deps.ledger.units.values()])
                 if u.id not in units]
        if not found:
            return units, None
        return units + found, "quoted term " + ", ".join(self.unit(u).label for u in found)

    def sanction(self, units: list[str]) -> tuple[list[str], str | None]:
        """A question after the sanction for breaching a duty is answered by the item of a penalty provision that
        cites the duty (core.answer.sanctions): the item that, read with its lead-in and its best cited provision's
        headings, covers most of the question replaces a one-unit answer that sets no sanction, or one it covers
        more of the question than."""
        if self.signals is None or not asks_sanction(self.deps.question) or len(units) != 1 or self.named(units[0]):
            return units, None
        stores = self.signals.stores
        # Only items the cited provision's headings add to compete: an item matching the question by its own
        # everyday words ("failure to provide access") is not thereby the duty asked about.
        found = [(total, item, duty) for item, lead in penalty_items(stores, self.deps.ledger.ids())
                 for total, duty in [standing(stores, item, lead, _words, self.cover_checkable)] if duty is not None]
        if not found:
            return units, None
        total, item, duty = max(found, key=lambda row: row[0])
        chosen = self.unit(units[0])
        # A chosen unit that sets no sanction does not answer what the sanction is, however many words it shares.
        if item.id == chosen.id or states_sanction(chosen) and total <= self.cover_checkable(_words(chosen)):
            return units, None
        self.record(self.unit(item.id), "paragraph")
        # The duty it was read by is shown with it: the citation is why this item answers.
        edge = Edge(source=item.id, type=EdgeType.REFERENCES, target=duty)
        self.record(self.unit(duty), "context", via=edge)
        self.deps.ledger.record_edge(edge)
        self.cites[item.id] = edge
        return [item.id], f"penalty for the duty it cites: {item.label}"

    def referenced(self, units: list[str]) -> tuple[list[str], str | None]:
        """A one-rule answer is cited with the provision the rule cites elsewhere that holds a phrase of the
        question the rule lacks and few of the evidence hold (core.answer.referenced): the case the rule applies to,
        named by number in the rule and in words by the user; or, when a period or a sum is asked and no part of
        the rule states one, with the provision it cites that does."""
        if self.signals is None or len(units) != 1 or self.named(units[0]):
            return units, None
        chosen, stores = self.unit(units[0]), self.signals.stores
        targets = cited_elsewhere(stores, chosen.id)
        if not targets:
            return units, None
        below = self.subtree(chosen.id, chosen)
        rule = [u.text for u in below] + [" ".join((u.title, u.text)) for u in self.ancestors(chosen.id)]
        asked = asked_phrases(self.deps.question, self.content, rule,
                              (e.unit.text for e in self.deps.ledger.units.values()))
        found = naming(asked, [stores.units[t] for t in targets]) if asked else []
        if not found and self.kind in STATED_KINDS and not any(_carries(self.kind, u) for u in below):
            # The rule names the period or sum only by number ("chưa đủ tuổi kết hôn theo quy định tại điểm a
            # khoản 1 Điều 8"): the provision it cites that states it answers the question's "how old".
            found = [(1, stores.units[t]) for t in targets if _carries(self.kind, stores.units[t])]
        if not found:
            return units, None
        _, read = max(found, key=lambda row: (row[0], self.cover(row[1])))
        best = self.unit(read.id)  # the text as stored in the graph, which the claims quote
        edge = Edge(source=chosen.id, type=EdgeType.REFERENCES, target=best.id)
        self.record(best, "paragraph", via=edge)
        self.deps.ledger.record_edge(edge)
        self.cites[best.id] = edge
        return units + [best.id], f"the provision it cites for the case asked: {best.label}"

    def kind_switch(self, units: list[str]) -> tuple[list[str], str | None]:
        """A one-unit answer that does not carry the asked-for content, while other evidence close to it in
        standing does (as good, or KIND_MARGIN lower in words and KIND_DENSE in meaning): the closest of those in
        meaning is cited instead."""
        if self.kind not in DESCEND_KINDS or len(units) != 1 or self.named(units[0]):
            return units, None
        chosen = self.unit(units[0])
        if _carries(self.kind, chosen) or any(_carries(self.kind, u) for u in self.region(chosen.id)):
            return units, None  # descent finds it in the chosen rule
        # A recital carries the kind's words ("72 hours") as a reason for the rule that sets them: never the answer.
        found = self.shortlist(lambda u: u.type not in REASONS and _carries(self.kind, u), units, opened=False)
        if not found:
            return units, None
        # Closest in meaning first: a carrier that shares the question's everyday words ("reply", "time") more
        # than its sense reads well in place and answers another party's duty.
        best = max(found, key=lambda u: (self.dense(u.id), self.placed(u)))
        closer = self.dense(best.id) >= self.dense(chosen.id) - KIND_DENSE
        if not self.as_good(best, chosen) and not (closer and self.placed(best) >= self.placed(chosen) - KIND_MARGIN):
            return units, None
        self.record(best, "paragraph")
        return [best.id], f"carries the {self.kind}: {best.label}"

    def region(self, unit_id: str) -> list[UnitRecord]:
        """The units of the rule `unit_id` belongs to: below its highest ancestor whose label it extends."""
        if unit_id not in self._regions:
            self._regions[unit_id] = self._region(unit_id)
        return self._regions[unit_id]

    def _region(self, unit_id: str) -> list[UnitRecord]:
        unit = self.unit(unit_id)
        # A definition is a rule of its own: the article around it defines other terms, one rule each.
        if unit.type == UnitType.DEFINITION:
            return self.subtree(unit_id, unit)
        root = unit
        for above in reversed(self.ancestors(unit_id)):
            if not _same_rule(above, unit):
                break
            root = above
        return self.subtree(root.id, root)

    def subtree(self, root_id: str, root: UnitRecord | None = None) -> list[UnitRecord]:
        """The unit and the units below it (REGION_DEPTH levels, REGION_UNITS at most), those with text."""
        found: list[UnitRecord] = [root or self.unit(root_id)]
        level = [root_id]
        for _ in range(REGION_DEPTH):
            if not level or len(found) >= REGION_UNITS:
                break
            kids = self.children(level)
            level = [k.id for ks in kids.values() for k in ks]
            found += [k for ks in kids.values() for k in ks]
        return [u for u in found[:REGION_UNITS] if u.text]

    def descend(self, unit_id: str, heading_only: bool = False) -> tuple[str, str | None]:
        """The paragraph of the same rule that carries the asked-for content (or the content under a heading)."""
        unit = self.unit(unit_id)
        # A named unit is what is asked about, but a heading has nothing of its own to quote: its content is below.
        if self.named(unit_id) and not _is_heading(unit):
            return unit_id, None
        below = self.subtree(unit_id) if _is_heading(unit) else []
        heading = len(below) > 1
        if (self.kind not in DESCEND_KINDS or heading_only) and not heading:
            return unit_id, None
        # A rule often states several periods or sums, one per party or case ("the controller … 72 hours", "the
        # processor … without undue delay"): a chosen paragraph that states one gives way only to a paragraph of
        # the rule that covers more of the question. A list or a definition is not re-chosen so: the definitions'
        # lead-in with all its items would cover everything.
        holds = not heading and _carries(self.kind, unit)
        # A list of cases or conditions ("required in the case of:") does not answer a question after what must be
        # contained: a paragraph of the rule that names the required elements ("shall contain at least:") does.
        cases = self.kind is Kind.LIST and not lists_elements(unit.text)
        if holds and self.kind not in STATED_KINDS and not cases:
            return unit_id, None
        pool = below or self.region(unit_id)
        # A short lead-in ("The assessment shall contain at least:") is no heading: its items are its content.
        options = [u for u in pool if u.id != unit_id and not _is_heading(u)
                   and (self.kind not in DESCEND_KINDS or _carries(self.kind, u))]
        if self.kind is Kind.LIST:
            naming = [u for u in options if lists_elements(u.text)]
            options = naming if naming or holds else options
        if not options:
            return unit_id, None
        best = max(options, key=lambda u: self.with_items(u, pool) if self.kind in DESCEND_KINDS else self.cover(u))
        covered = self.with_items(best, pool)
        if not heading and covered < DESCENT_SHARE * self.cover(unit):
            return unit_id, None
        if holds and self.kind in STATED_KINDS and covered <= self.with_items(unit, pool):
            return unit_id, None
        self.record(best, "paragraph")
        return best.id, f"descended to {best.label}"

    def stating(self, units: list[str]) -> list[str]:
        """Of paragraphs of one rule cited together for a deadline or an amount, those that state it: the others
        restate the duty the figure belongs to ("shall consult … prior to processing" beside "within eight
        weeks"). A provision that cites the one stating the figure (a term defined "… under point a, clause 1,
        Article 8") gives way to it too: what it adds is the reference. Paragraphs of different rules stay
        otherwise: each answers its half."""
        if self.kind not in STATED_KINDS or len(units) < 2:
            return units
        stating = [u for u in units if _carries(self.kind, self.unit(u))]
        if not stating or len(stating) == len(units):
            return units
        citing = {e.source for e in self.graph.edges_among(units, [EdgeType.REFERENCES.value])
                  if e.target in stating and e.source not in stating and not self.named(e.source)}
        units = [u for u in units if u not in citing]
        if len(stating) == len(units):
            return units
        region = {r.id for r in self.region(stating[0])}
        if not all(u in region for u in units) or any(self.named(u) for u in units if u not in stating):
            return units
        return stating

    def with_items(self, unit: UnitRecord, pool: list[UnitRecord]) -> float:
        """Cover of a unit read with its items among `pool`: a lead-in ("… shall at least:") says little itself,
        its list is the content asked for."""
        if not is_lead_in(unit.text):
            return self.cover(unit)
        words = _words(unit)
        for item in pool:
            if item.parent_id == unit.id:
                words |= _words(item)
        return self.scorer.score_terms({t for t in self.scorer.weights if _has(t, words)})

    def whole(self, unit_id: str, leads: dict[str, UnitRecord]) -> str:
        """A conjunct is lifted to the rule it conditions; an alternative, or the one case the question names (a
        question word only it has among its siblings), keeps its place, quoted under the rule's lead-in."""
        for _ in range(LIFT_LEVELS):
            above = self.ancestors(unit_id)
            unit = self.unit(unit_id)
            if self.named(unit_id):
                return unit_id
            if not above or not is_lead_in(above[-1].text) or not _same_rule(above[-1], unit):
                return unit_id
            parent = above[-1]
            siblings = self.children([parent.id]).get(parent.id, [])
            ends = [s.text.rstrip() for s in siblings[:-1]]
            # Only a question after the rule's conditions or elements has them cited whole; otherwise the item
            # stays, its lead-in quoted above it.
            asks_whole = self.kind in (Kind.CONDITION, Kind.LIST)
            if len(siblings) > MAX_CONDITIONS or not asks_whole or not any(_CONJUNCT.search(t) for t in ends) and (
                    self.names_only(unit, parent, siblings) or any(_DISJUNCT.search(t) for t in ends)):
                leads[unit_id] = parent
                self.record(parent, "context")
                return unit_id
            self.record(parent, "context")
            unit_id = parent.id
        return unit_id

    def names_only(self, unit: UnitRecord, parent: UnitRecord, siblings: list[UnitRecord]) -> bool:
        """Whether the question names something only this item (not its lead-in, not its siblings) holds."""
        others = _words(parent)
        for s in siblings:
            if s.id != unit.id:
                others |= _words(s)
        own = _words(unit)
        return any(_has(t, own) and not _has(t, others) for t in self.content)

    def settle(self, unit_id: str) -> str:
        """For a condition: the rule under the same heading that states the permission or its conditions best
        ("(i)(1) A covered entity may … provided that:" rather than "(i)(2) the documentation must include …")."""
        above = self.ancestors(unit_id)
        if self.kind is not Kind.CONDITION or not above or not _is_heading(above[-1]):
            return unit_id
        siblings = [u for u in self.children([above[-1].id]).get(above[-1].id, []) if u.text]
        options = [u for u in siblings if _carries(self.kind, u)]
        if not options:
            return unit_id
        best = max(options, key=self.cover)
        # It must read better where it sits (words with headings, and meaning), not only share more words.
        if best.id == unit_id or self.cover(best) <= self.cover(self.unit(unit_id)) \
                or self.placed(best) <= self.placed(self.unit(unit_id)):
            return unit_id
        self.record(best, "paragraph")
        return best.id

    def heading_of(self, unit_id: str) -> UnitRecord | None:
        above = [a for a in self.ancestors(unit_id) if a.text]
        return above[-1] if above else None


def fit(deps: AnswerDeps, scorer: Scorer, kind: Kind | None, units: list[str],
        signals: Signals | None = None, selection: Selection | None = None) -> Fitted:
    """The units to cite for what was asked (see the module's docstring); unchanged without a graph. `selection`
    is the choice `units` came from, with the candidates it passed over."""
    if deps.graph is None or not units:
        return Fitted(list(units))
    try:
        return _fit(_Fitter(deps, scorer, kind, signals), deps, scorer, units, selection)
    except StoreError as exc:  # Neo4j went away: the chosen units stand as they were
        deps.graph_failed(exc, "fitting the answer to what was asked")
        return Fitted(list(units))
    except Exception as exc:  # noqa: BLE001 — fitting only refines a choice already made: a bug must not lose it
        log.exception("fitting the answer to what was asked failed on a bug")
        deps.notice(f"The answer was not narrowed to what was asked: an internal error ({type(exc).__name__}: "
                    f"{exc}) was logged; the provisions shown are the search's best match.")
        return Fitted(list(units))


def _fit(fitter: _Fitter, deps: AnswerDeps, scorer: Scorer, units: list[str],
         selection: Selection | None = None) -> Fitted:
    notes: list[str] = []
    fitter.know(list(units))
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user 6.
    chosen, note = fitter.enacting(list(units), selection)
    notes += [note] if note else []
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user 1, ko_user 1.
    chosen, note = fitter.definitions(chosen)
    notes += [note] if note else []
    kept: set[str] = set()  # a penalty item: its sum is in its lead-in, quoted above it, and descent would climb back
    if note is None:
        # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user 2, ko_user 1.
        chosen, note = fitter.sanction(chosen)
        notes += [note] if note else []
        kept = set(chosen) if note else kept
    if note is None:
        # Gain on the dev sets: obliqa150 1, vi_user 1 (alqac -1); the demo's research starter needs it (its "research").
        chosen, note = fitter.deciding(chosen, deciding_terms(scorer, deps, fitter.content))
        notes += [note] if note else []
    if note is None:
        # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user 4, vi_user 2, ko_user 1.
        chosen, note = fitter.kind_switch(chosen)
        notes += [note] if note else []
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): descent: gdpr_user 8, hipaa_generated 4, ko_user 3, vi_user 3.
    descended = []
    for u in chosen:
        # Two units chosen together (a citation pair) each answer their half: only a heading is opened.
        d, note = (u, None) if u in kept else fitter.descend(u, heading_only=len(chosen) > 1)
        descended.append(d)
        notes += [note] if note else []
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user, ko_dev, vi_user 1 each.
    descended = fitter.stating(descended)
    leads: dict[str, UnitRecord] = {}
    whole = [fitter.whole(u, leads) for u in descended]
    if len(whole) == 1:  # a citation pair's members each answer their half: neither is swapped for a sibling
        whole = [fitter.settle(whole[0])]
    whole = list(dict.fromkeys(whole))
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): gdpr_user, xrefrag150, vi_user 1 each.
    whole, note = (whole, None) if kept else fitter.referenced(whole)
    notes += [note] if note else []
    # Gain, questions lost with it off (issue 49, bench.ablate over the 8 gold dev sets; TRIED.md): hipaa_generated 23, gdpr_user 1.
    whole, note = fitter.quoted(whole)
    notes += [note] if note else []
    context: dict[str, UnitRecord] = {}
    for u in whole:
        heading = fitter.heading_of(u)
        if heading is not None:
            fitter.record(heading, "context")
            deps.ledger.record_edge(Edge(source=heading.id, type="CONTAINS", target=u))
            context[u] = heading
    return Fitted(whole, leads={u: p for u, p in leads.items() if u in whole}, context=context, notes=notes,
                  cites={u: e for u, e in fitter.cites.items() if u in whole})
