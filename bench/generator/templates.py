"""Deterministic questions from a path's headings, defined terms and key phrases (`generator: template`).

The question names only the first unit by its label; every later unit is described by its subject
and a phrase found in no other unit of the path, so answering means following the citations.
"""
from __future__ import annotations

import random
import re
from functools import lru_cache

from bench.generator.models import Draft, GraphPath, ReasoningType
from bench.generator.paths import CorpusGraph
from bench.generator.terms import TermStats, key_phrase, unit_terms
from core.lexical import tokenize

TEMPLATES: dict[ReasoningType, tuple[str, ...]] = {
    ReasoningType.CROSS_REFERENCE_RESOLUTION: (
        "{anchor} cites other provisions. Resolving those cross-references in turn ({chain}), "
        "what do they add to the rule in {label}?",
        "To apply {anchor} one has to read what it cites: {chain}. What do those provisions say?",
    ),
    ReasoningType.DEFINITION_LOOKUP: (
        "Which definitions and provisions give meaning to {anchor}, following {chain}, and what do they say?",
        "Reading {anchor} needs {chain}. What do these establish for {label}?",
    ),
    ReasoningType.PROCEDURAL_SYNTHESIS: (
        "What must be done to comply with {anchor} when it is read with the provisions it relies on: {chain}?",
        "Put together the steps required by {anchor} and the provisions it points to ({chain}).",
    ),
    ReasoningType.AMENDMENT_TRACING: (
        "How do the provisions that {anchor} amends or is changed by ({chain}) affect what {label} requires?",
        "Trace the amendment from {anchor} through {chain}: what is the resulting requirement?",
    ),
}
SUBJECTS = ('the definition of "{term}"', 'the provision on "{heading}"', "the cited provision", "{subject} about '{phrase}'")


@lru_cache(maxsize=1)
def frame_stems() -> frozenset[str]:
    """Stems every template question carries whatever the path: they say nothing about the evidence."""
    frame = " ".join([*(t for variants in TEMPLATES.values() for t in variants), *SUBJECTS])
    return frozenset(tokenize(re.sub(r"\{\w+\}", " ", frame)))


def describe(graph: CorpusGraph, unit_id: str, phrase: str) -> str:
    unit = graph.units[unit_id]
    if unit.type == "definition" and unit.title:
        subject = SUBJECTS[0].format(term=unit.title)
    elif heading := graph.heading(unit_id):
        subject = SUBJECTS[1].format(heading=heading)
    else:
        subject = SUBJECTS[2]
    return SUBJECTS[3].format(subject=subject, phrase=phrase) if phrase else subject


def write(graph: CorpusGraph, stats: TermStats, path: GraphPath, rtype: ReasoningType, seed: int) -> Draft:
    terms = [unit_terms(graph, u) for u in path.units]
    phrases = []
    for i, unit_id in enumerate(path.units):
        others = set().union(*(t for j, t in enumerate(terms) if j != i))
        phrases.append(key_phrase(graph.units[unit_id].text, stats, others))
    first = graph.units[path.units[0]]
    anchor = f"{first.label} ({describe(graph, first.id, phrases[0])})"
    chain = ", then ".join(describe(graph, u, p) for u, p in zip(path.units[1:], phrases[1:]))
    template = random.Random(f"{seed}:{'|'.join(path.units)}").choice(TEMPLATES[rtype])
    return Draft(question=template.format(anchor=anchor, chain=chain, label=first.label), answer=answer(graph, path))


def answer(graph: CorpusGraph, path: GraphPath) -> str:
    """The chain as stored edges, then what each unit says, in walk order."""
    labels = [graph.units[u].label or u for u in path.units]
    walk = labels[0] + "".join(f" --{h.type}--> {labels[i + 1]}" for i, h in enumerate(path.hops))
    said = [f"{labels[i]}: {_gist(graph.units[u].text)}" for i, u in enumerate(path.units)]
    return walk + "\n" + "\n".join(said)


def _gist(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
