"""Read-side Cypher shared by retrieval, the agent's tools and the answer validator.

All values are parameters; relationship types are matched with `type(r) IN $types` (checked against
the EdgeType enum first), and hop counts are walked in Python one parameterised query per hop.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from neo4j import Driver
from pydantic import BaseModel, Field

from core.retrieval.base import PathEdge
from ingest.models import CITATION_EDGE_TYPES, EdgeType

Direction = Literal["out", "in", "both"]
UNIT_FIELDS = "u.id AS id, u.label AS label, u.title AS title, u.text AS text, u.document_id AS document_id, " \
              "u.type AS type, u.status AS status, u.tier AS tier, u.parent_id AS parent_id, u.corpus AS corpus"


class UnitRecord(BaseModel):
    id: str
    label: str = ""
    title: str = ""
    text: str = ""
    document_id: str = ""
    type: str = ""
    status: str = "in_force"
    tier: int = 1
    parent_id: str | None = None
    corpus: str = ""


class Reached(BaseModel):
    unit_id: str
    seed_id: str
    hops: int
    path: list[PathEdge] = Field(default_factory=list)


def checked_types(edge_types: Iterable[str]) -> list[str]:
    """Only names of EdgeType pass: nothing a user or model typed reaches a query unchecked."""
    return [EdgeType(t).value for t in edge_types]


def _record(row) -> UnitRecord:
    data = {k: v for k, v in dict(row).items() if v is not None}
    return UnitRecord(**data)


def fetch_units(driver: Driver, database: str, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
    ids = list(dict.fromkeys(unit_ids))
    if not ids:
        return {}
    records, _, _ = driver.execute_query(
        f"MATCH (u:Unit) WHERE u.id IN $ids AND u.pending IS NULL RETURN {UNIT_FIELDS}", ids=ids, database_=database
    )
    return {r["id"]: _record(r) for r in records}


def neighbours(
    driver: Driver, database: str, unit_ids: list[str], edge_types: Iterable[str], direction: Direction = "both",
    limit_per_unit: int = 50, within: list[str] | None = None,
) -> list[PathEdge]:
    """One hop over the given edge types; edges returned as stored (source cites target).

    `within` keeps only neighbours among those ids (e.g. a candidate pool): filtering before the
    per-unit limit means a hub's relevant neighbour is not lost among its hundreds of citers.
    """
    types = checked_types(edge_types)
    if not unit_ids or not types:
        return []
    pattern = {"out": "(s)-[r]->(n)", "in": "(s)<-[r]-(n)", "both": "(s)-[r]-(n)"}[direction]
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS sid MATCH (s:Unit {id: sid}) "
        "CALL (s) { MATCH " + pattern + " WHERE type(r) IN $types AND n:Unit AND n.pending IS NULL "
        "AND ($within IS NULL OR n.id IN $within) RETURN r, n LIMIT $limit } "
        "RETURN startNode(r).id AS source, type(r) AS type, endNode(r).id AS target",
        ids=unit_ids, types=types, limit=limit_per_unit, within=within, database_=database,
    )
    return [PathEdge(source=r["source"], type=r["type"], target=r["target"]) for r in records]


def expand(
    driver: Driver, database: str, seed_ids: list[str], edge_types: Iterable[str] = CITATION_EDGE_TYPES,
    max_hops: int = 1, node_cap: int = 50, direction: Direction = "both", limit_per_unit: int = 30,
) -> list[Reached]:
    """Breadth-first expansion from the seeds with visited tracking and a cap on new nodes."""
    types = checked_types(edge_types)
    visited: set[str] = set(seed_ids)
    frontier: dict[str, Reached] = {s: Reached(unit_id=s, seed_id=s, hops=0) for s in seed_ids}
    reached: list[Reached] = []
    for hop in range(1, max(0, int(max_hops)) + 1):
        if not frontier or len(reached) >= node_cap:
            break
        edges = neighbours(driver, database, list(frontier), types, direction, limit_per_unit)
        next_frontier: dict[str, Reached] = {}
        for edge in edges:
            origin_id = edge.source if edge.source in frontier else edge.target
            other = edge.target if origin_id == edge.source else edge.source
            if other in visited or origin_id not in frontier:
                continue
            visited.add(other)
            origin = frontier[origin_id]
            item = Reached(unit_id=other, seed_id=origin.seed_id, hops=hop, path=[*origin.path, edge])
            reached.append(item)
            next_frontier[other] = item
            if len(reached) >= node_cap:
                break
        frontier = next_frontier
    return reached


def ancestors(driver: Driver, database: str, unit_id: str) -> list[UnitRecord]:
    """Parent headings from the top down (document/part … direct parent)."""
    records, _, _ = driver.execute_query(
        "MATCH p = (a:Unit)-[:CONTAINS*1..10]->(:Unit {id: $id}) WITH p ORDER BY length(p) DESC LIMIT 1 "
        "UNWIND nodes(p)[..-1] AS u RETURN " + UNIT_FIELDS,
        id=unit_id, database_=database,
    )
    return [_record(r) for r in records]


def current_version(driver: Driver, database: str, unit_id: str) -> list[PathEdge]:
    """The amendment chain that supersedes a unit, oldest first (empty when it is current)."""
    records, _, _ = driver.execute_query(
        "MATCH p = (:Unit {id: $id})<-[:AMENDS|REPLACES*1..10]-(:Unit) WITH p ORDER BY length(p) DESC LIMIT 1 "
        "UNWIND relationships(p) AS r RETURN startNode(r).id AS source, type(r) AS type, endNode(r).id AS target",
        id=unit_id, database_=database,
    )
    return [PathEdge(source=r["source"], type=r["type"], target=r["target"]) for r in records]


def existing_edges(driver: Driver, database: str, edges: list[PathEdge]) -> set[tuple[str, str, str]]:
    """Which of these (source, type, target) triples exist in the graph, in either stored direction."""
    if not edges:
        return set()
    rows = [{"source": e.source, "type": e.type, "target": e.target} for e in edges]
    records, _, _ = driver.execute_query(
        "UNWIND $rows AS row MATCH (s:Unit {id: row.source})-[r]-(t {id: row.target}) WHERE type(r) = row.type "
        "RETURN DISTINCT row.source AS source, row.type AS type, row.target AS target",
        rows=rows, database_=database,
    )
    return {(r["source"], r["type"], r["target"]) for r in records}


def latest_versions(driver: Driver, database: str, unit_ids: list[str], max_hops: int = 10) -> dict[str, list[PathEdge]]:
    """For each unit superseded by AMENDS/REPLACES, the longest chain to its latest version (oldest first)."""
    if not unit_ids:
        return {}
    hops = max(1, min(int(max_hops), 20))
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS uid MATCH p = (:Unit {id: uid})<-[:AMENDS|REPLACES*1.." + str(hops) + "]-(:Unit) "
        "WITH uid, p ORDER BY length(p) DESC WITH uid, collect(p)[0] AS p "
        "RETURN uid, [r IN relationships(p) | [startNode(r).id, type(r), endNode(r).id]] AS edges",
        ids=unit_ids, database_=database,
    )
    return {r["uid"]: [PathEdge(source=s, type=t, target=e) for s, t, e in r["edges"]] for r in records}
