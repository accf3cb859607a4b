"""A whole real Vietnamese amending Law that names the amended Law by title: Luật số 24/2012/QH13 sửa đổi, bổ sung một
số điều của Luật điện lực, every instruction line (tests/vi_law_texts.py; the shared folder holds no such Law with its
amended Law, so the text travels with the tests). The amended Luật điện lực is a stand-in holding every provision the
gold names, under the gazette header of a Law.

Scored as `corpora/real/vi-amendments/README.md` scores gold instructions: an AMENDS/REPLACES edge from the instructing
item (its points included) to the named provision or within one level of it (parent or child); recall over the 102
named targets, precision over the amending Law's AMENDS/REPLACES edges (each must match a target of its own item).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from bench.real.checks import Check
from core.retrieval.expansion import AMENDMENT_TYPES
from core.settings import Settings
from ingest.graph import build_graph
from ingest.parsers.generic.keys import path_of_key
from tests import vi_law_texts

AREA = "vi"
Path_ = tuple[tuple[str, str], ...]


def run(settings: Settings) -> list[Check]:
    with tempfile.TemporaryDirectory() as folder:
        return law_by_title_checks(Path(folder))


def stand_in(gold: dict[str, list[str]]) -> str:
    """The amended law holding every provision the gold names, up to the unit an instruction inserts into."""
    tree: dict[int, dict[str, set[str]]] = {}
    for target in (t for targets in gold.values() for t in targets if not t.startswith("ch:")):
        parts = target.split("/")
        parts = parts[: next((n for n, p in enumerate(parts) if p.startswith("+")), len(parts))]
        if parts:
            clauses = tree.setdefault(int(parts[0]), {})
            if len(parts) > 1:
                clauses.setdefault(parts[1], set()).update(parts[2:])
    lines = list(vi_law_texts.AMENDED_HEADER)
    for article in sorted(tree):
        lines += vi_law_texts.AMENDED_CHAPTERS.get(article, [])
        lines.append(f"Điều {article}. Quy định {article}")
        for clause in sorted(tree[article], key=lambda c: (len(c), c)):
            points = sorted(tree[article][clause])
            lines.append(f"{clause}. Khoản {clause} Điều {article}{':' if points else '.'}")
            lines += [f"{p}) Điểm {p}." for p in points]
    return "\n".join(lines) + "\n"


def _path(key: str) -> Path_:
    if key.startswith("ch:"):
        return (("ch", key[3:]),)
    return tuple(zip(("art", "cl", "pt"), (p.lstrip("+") for p in key.split("/")), strict=False))


def law_by_title_checks(folder: Path) -> list[Check]:
    (folder / "amending.txt").write_text(vi_law_texts.AMENDING_LAW, encoding="utf-8")
    (folder / "amended.txt").write_text(stand_in(vi_law_texts.GOLD), encoding="utf-8")
    graph = build_graph([folder / "amending.txt", folder / "amended.txt"], "bytitle", "generic")
    units = {u.id: u for d in graph.documents for u in d.units}
    path = {uid: tuple(path_of_key(next(k for k in u.keys if k.startswith("gen:")))) for uid, u in units.items()}
    edges = sorted({(e.source, e.target) for e in graph.edges
                    if e.type in AMENDMENT_TYPES and e.source.startswith("bytitle/amending")})

    def near(target: str, goal: Path_) -> bool:
        found = path.get(target) if target.startswith("bytitle/amended") else None
        return found is not None and (found == goal or found == goal[:-1] or found[:-1] == goal)

    items = {key: _path(key) for key in vi_law_texts.GOLD}
    gold = [(item, _path(t)) for item, targets in vi_law_texts.GOLD.items() for t in targets]
    matched = [any(path[s][: len(items[item])] == items[item] and near(t, goal) for s, t in edges) for item, goal in gold]
    right = [any(path[s][: len(items[item])] == items[item] and near(t, goal) for item, goal in gold) for s, t in edges]
    recall = round(sum(matched) / len(gold), 4)
    precision = round(sum(right) / len(edges), 4) if edges else 0.0
    missed = [f"{item} → {goal}" for (item, goal), hit in zip(gold, matched, strict=True) if not hit]
    wrong = [f"{units[s].label} → {units[t].label if t in units else t}" for (s, t), ok in zip(edges, right, strict=True) if not ok]
    name = "Luật 24/2012/QH13 (amends Luật điện lực named by title): instructions → edges into the amended law"
    return [
        Check(area=AREA, name=f"{name}, recall", value=recall, target=">= 0.95", ok=recall >= 0.95,
              detail={"targets": len(gold), "misses": missed[:20]}),
        Check(area=AREA, name=f"{name}, precision", value=precision, target=">= 0.95", ok=bool(edges) and precision >= 0.95,
              detail={"edges": len(edges), "wrong": wrong[:20]}),
    ]
