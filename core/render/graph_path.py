"""The answer's path through the citation graph, and a layout for it in which no two labels overlap.

The path is what the answer stands on: the cited rules, the reasoning chain, and for a rule reached by following
citations the walk back to the search hit it was reached from. The rest of the evidence is the neighbourhood,
shown only on request.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from core.domain import Edge
from core.render.view import AnswerView

PATH_NODES = 12
COLUMN_PX = 220  # wider than the widest label (LABEL_PX) plus a box's margins
ROW_PX = 100  # taller than a dot with a three-line label under it
ROWS_PER_COLUMN = 4  # a level with more nodes spreads over several columns, so the frame keeps a readable zoom
LABEL_PX = 150
LABEL_CHARS = 56  # at most three lines of LABEL_PX; the hover box has the full label


def path_ids(view: AnswerView, cap: int = PATH_NODES) -> list[str]:
    """The cited rules and chain, the walk back to their seeds; for a one-rule answer also the rules it cites and
    those citing it (a single box says nothing about where the rule sits or what it connects to)."""
    present = {n.id for n in view.nodes}
    named = [c.unit_id for c in view.cards] + [i for e in view.chain for i in (e.source, e.target)]
    named = [i for i in dict.fromkeys(named) if i in present]
    seeds = [n.id for n in view.nodes if n.seed]  # search rank order
    adjacent = _adjacency(view.edges, present)
    walks = [w for uid in named if uid not in seeds for w in _walk_to_seed(uid, seeds, adjacent)]
    rules = list(dict.fromkeys(c.unit_id for c in view.cards))
    linked = _linked(rules[0], view.edges, present) if len(rules) == 1 else []
    return list(dict.fromkeys([*named, *walks, *linked]))[:cap]


def _linked(rule: str, edges: Iterable[Edge], present: set[str]) -> list[str]:
    """The units `rule` cites, then those citing it (citation edges among the shown units)."""
    kept = [e for e in edges if e.type != "CONTAINS" and e.source != e.target]
    cited = [e.target for e in kept if e.source == rule and e.target in present]
    citing = [e.source for e in kept if e.target == rule and e.source in present]
    return list(dict.fromkeys([*cited, *citing]))


def _adjacency(edges: Iterable[Edge], present: set[str]) -> dict[str, list[str]]:
    adjacent: dict[str, list[str]] = {uid: [] for uid in present}
    for edge in edges:
        if edge.source in present and edge.target in present and edge.source != edge.target:
            adjacent[edge.source].append(edge.target)
            adjacent[edge.target].append(edge.source)
    return adjacent


def _walk_to_seed(start: str, seeds: Sequence[str], adjacent: dict[str, list[str]]) -> list[str]:
    """The units between `start` and the nearest seed (the best-ranked of equally near ones), that seed last."""
    rank = {s: i for i, s in enumerate(seeds)}
    parent: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        reached = sorted((u for u in frontier if u in rank), key=rank.__getitem__)
        if reached:
            walk: list[str] = []
            node: str | None = reached[0]
            while node is not None and node != start:
                walk.append(node)
                node = parent[node]
            return walk[::-1]
        following: list[str] = []
        for node in frontier:
            for other in adjacent.get(node, []):
                if other not in parent:
                    parent[other] = node
                    following.append(other)
        frontier = following
    return []


def path_layout(ids: Sequence[str], edges: Iterable[Edge]) -> dict[str, tuple[int, int]]:
    """Columns by citation depth (a citing unit left of the unit it cites), rows within a column; pixel positions."""
    inside = [e for e in edges if e.source in ids and e.target in ids and e.source != e.target]
    level = _levels(ids, inside)
    positions: dict[str, tuple[int, int]] = {}
    column = 0
    for depth in sorted(set(level.values())):
        members = [uid for uid in ids if level[uid] == depth]
        # Each unit next to the units that cite it (mean row of its placed citers): fewer crossing edges,
        # so edge labels do not pile up where edges cross.
        members.sort(key=lambda uid: _mean([positions[e.source][1] for e in inside
                                            if e.target == uid and e.source in positions]))
        for start in range(0, len(members), ROWS_PER_COLUMN):
            rows = members[start:start + ROWS_PER_COLUMN]
            for row, uid in enumerate(rows):
                positions[uid] = (column * COLUMN_PX, round((row - (len(rows) - 1) / 2) * ROW_PX))
            column += 1
    return positions


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _levels(ids: Sequence[str], edges: list[Edge]) -> dict[str, int]:
    """Longest-path depth over the edges, skipping any edge that would close a cycle."""
    kept: dict[str, list[str]] = {uid: [] for uid in ids}
    for edge in edges:
        if not _reaches(kept, edge.target, edge.source):
            kept[edge.source].append(edge.target)
    level = {uid: 0 for uid in ids}
    for _ in ids:  # a DAG of n nodes settles within n passes
        changed = False
        for source, targets in kept.items():
            for target in targets:
                if level[target] < level[source] + 1:
                    level[target], changed = level[source] + 1, True
        if not changed:
            break
    return level


def _reaches(graph: dict[str, list[str]], start: str, goal: str) -> bool:
    seen, queue = {start}, deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            return True
        for other in graph.get(node, []):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return False


def short_label(label: str, limit: int = LABEL_CHARS) -> str:
    return label if len(label) <= limit else label[: limit - 1].rstrip() + "…"
