"""All read-side Cypher (the ingest's writes stay in core.stores.neo4j_store).

All values are parameters. Relationship types are spliced into typed patterns only after `checked_types` turned
them into EdgeType names. `expand` walks up to HOPS_PER_QUERY hops per query (breadth-first, visited set and node
cap kept in Cypher), so an expansion is one round trip.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, Literal

from neo4j import Driver, Record, RoutingControl
from pydantic import BaseModel, Field

from core.as_of import LawAsOf, WordingRow, from_edges, from_wordings
from core.current_law import ACT_WIDE, NEW_TEXT, CurrentLaw, Incoming, act_wide, amending_date, instruction_wording, read
from core.domain import CITATION_EDGE_TYPES, Edge, EdgeType, LegalUnit
from core.quoted_words import quoted_words

Direction = Literal["out", "in", "both"]
PATTERNS = {"out": "(s)-[r:{types}]->(n:Unit)", "in": "(s)<-[r:{types}]-(n:Unit)", "both": "(s)-[r:{types}]-(n:Unit)"}
# Hops one expansion query walks; longer walks (amendment chains) continue from the returned frontier.
HOPS_PER_QUERY = 4
UNIT_FIELDS = "u.id AS id, u.label AS label, u.title AS title, u.text AS text, u.document_id AS document_id, " \
              "u.type AS type, u.status AS status, u.tier AS tier, u.parent_id AS parent_id, u.corpus AS corpus"


# The unit metadata key ingest sets on a provision whose own words leave a detail to a lower tier ("대통령령으로
# 정하는 …"), as it is written in the stored metadata JSON.
DELEGATES_MARK = '"delegates_to"'


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
    delegates: bool = False  # its own words leave a detail to a lower tier (read with the corpus stores only)


class Reached(BaseModel):
    unit_id: str
    seed_id: str
    hops: int
    path: list[Edge] = Field(default_factory=list)


def checked_types(edge_types: Iterable[str]) -> list[str]:
    """Only names of EdgeType pass: nothing a user or model typed reaches a query unchecked."""
    return [EdgeType(t).value for t in edge_types]


def _pattern(types: list[str], direction: Direction) -> str:
    """A typed relationship pattern from names that passed `checked_types` (never from raw input)."""
    return PATTERNS[direction].format(types="|".join(EdgeType(t).value for t in types))


def _record(row: Record | dict[str, Any]) -> UnitRecord:
    data = {k: v for k, v in dict(row).items() if v is not None}
    return UnitRecord(**data)


def fetch_units(driver: Driver, database: str, unit_ids: Iterable[str]) -> dict[str, UnitRecord]:
    ids = list(dict.fromkeys(unit_ids))
    if not ids:
        return {}
    records, _, _ = driver.execute_query(
        f"MATCH (u:Unit) WHERE u.id IN $ids AND u.pending IS NULL RETURN {UNIT_FIELDS}", ids=ids, database_=database,
        routing_=RoutingControl.READ,
    )
    return {r["id"]: _record(r) for r in records}


def neighbours(
    driver: Driver, database: str, unit_ids: list[str], edge_types: Iterable[str], direction: Direction = "both",
    limit_per_unit: int = 50, within: list[str] | None = None,
) -> list[Edge]:
    """One hop over the given edge types; edges returned as stored (source cites target).
    `within` keeps only neighbours among those ids (e.g. a candidate pool): filtering before the
    per-unit limit means a hub's relevant neighbour is not lost among its hundreds of citers."""
    types = checked_types(edge_types)
    if not unit_ids or not types:
        return []
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS sid MATCH (s:Unit {id: sid}) "
        "CALL (s) { MATCH " + _pattern(types, direction) + " WHERE n.pending IS NULL "
        "AND ($within IS NULL OR n.id IN $within) RETURN r, n LIMIT $limit } "
        "RETURN startNode(r).id AS source, type(r) AS type, endNode(r).id AS target",
        ids=unit_ids, limit=limit_per_unit, within=within, database_=database, routing_=RoutingControl.READ,
    )
    return [Edge(source=r["source"], type=r["type"], target=r["target"]) for r in records]


def _expand_query(types: list[str], hops: int, direction: Direction) -> str:
    """`hops` breadth-first hops from $front in one query.
    Per hop: each frontier unit's first $limit edges (stored order), then in that order a neighbour not
    yet seen joins the next frontier while fewer than $cap units were reached. Returns the units reached
    (id, seed, path of [source, type, target]) and the frontier left for a caller that walks on."""
    hop = (
        "CALL (front, reached) { "
        "UNWIND CASE WHEN size(reached) < $cap THEN front ELSE [] END AS f WITH f, f.node AS s "
        "CALL (s) { MATCH " + _pattern(types, direction) + " WHERE n.pending IS NULL RETURN r, n LIMIT $limit } "
        "WITH f, n, n.id AS nid, CASE WHEN startNode(r) = s THEN [f.id, type(r), n.id] "
        "ELSE [n.id, type(r), f.id] END AS edge "
        "RETURN collect({f: f, n: n, id: nid, edge: edge}) AS rows } "
        "WITH reduce(acc = {seen: seen, front: [], reached: reached}, row IN rows | "
        "CASE WHEN size(acc.reached) >= $cap OR row.id IN acc.seen THEN acc ELSE {seen: acc.seen + row.id, "
        "front: acc.front + {node: row.n, id: row.id, seed: row.f.seed, path: row.f.path + [row.edge]}, "
        "reached: acc.reached + {id: row.id, seed: row.f.seed, path: row.f.path + [row.edge]}} END) AS acc "
        "WITH acc.seen AS seen, acc.front AS front, acc.reached AS reached "
    )
    return (
        "CALL () { UNWIND $front AS f MATCH (s:Unit {id: f.id}) "
        "RETURN collect({node: s, id: f.id, seed: f.seed, path: f.path}) AS front } "
        "WITH front, $seen AS seen, [] AS reached " + hop * hops
        + "RETURN reached, [f IN front | {id: f.id, seed: f.seed, path: f.path}] AS front"
    )


def expand(
    driver: Driver, database: str, seed_ids: list[str], edge_types: Iterable[str] = CITATION_EDGE_TYPES,
    max_hops: int = 1, node_cap: int = 50, direction: Direction = "both", limit_per_unit: int = 30,
) -> list[Reached]:
    """Breadth-first expansion from the seeds with visited tracking and a cap on new nodes.
    One query per HOPS_PER_QUERY hops: a 1- or 2-hop expansion is one round trip to Neo4j."""
    types = checked_types(edge_types)
    hops, cap, limit = max(0, int(max_hops)), int(node_cap), int(limit_per_unit)
    seeds = list(dict.fromkeys(seed_ids))
    front: list[dict[str, Any]] = [{"id": s, "seed": s, "path": []} for s in seeds]
    seen: list[str] = list(seeds)
    reached: list[Reached] = []
    walked = 0
    while types and front and walked < hops and len(reached) < cap:
        step = min(HOPS_PER_QUERY, hops - walked)
        records, _, _ = driver.execute_query(
            _expand_query(types, step, direction), front=front, seen=seen, cap=cap - len(reached), limit=limit,
            database_=database, routing_=RoutingControl.READ,
        )
        row = records[0]
        for item in row["reached"]:
            path = [Edge(source=a, type=t, target=b) for a, t, b in item["path"]]
            reached.append(Reached(unit_id=item["id"], seed_id=item["seed"], hops=len(path), path=path))
            seen.append(item["id"])
        front = row["front"]
        walked += step
    return reached


def ancestors(driver: Driver, database: str, unit_id: str) -> list[UnitRecord]:
    """Parent headings from the top down (document/part … direct parent)."""
    return ancestors_of(driver, database, [unit_id]).get(unit_id, [])


def ancestors_of(driver: Driver, database: str, unit_ids: list[str]) -> dict[str, list[UnitRecord]]:
    """`ancestors` of many units in one query: unit id → its parent headings from the top down (units not
    stored, or without a parent, are absent)."""
    ids = list(dict.fromkeys(unit_ids))
    if not ids:
        return {}
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS cid MATCH (c:Unit {id: cid}) "
        "CALL (c) { MATCH p = (:Unit)-[:CONTAINS*1..10]->(c) WITH p ORDER BY length(p) DESC LIMIT 1 "
        "UNWIND range(0, length(p) - 1) AS depth WITH nodes(p)[depth] AS u, depth "
        "RETURN u, depth } "
        "RETURN cid AS child, depth, " + UNIT_FIELDS,
        ids=ids, database_=database, routing_=RoutingControl.READ,
    )
    out: dict[str, list[tuple[int, UnitRecord]]] = {}
    for r in records:
        row = {k: r[k] for k in r.keys() if k not in ("child", "depth")}
        out.setdefault(r["child"], []).append((r["depth"], _record(row)))
    return {child: [u for _, u in sorted(rows, key=lambda x: x[0])] for child, rows in out.items()}


def children(driver: Driver, database: str, unit_ids: list[str], limit_per_unit: int = 40) -> dict[str, list[UnitRecord]]:
    """Direct sub-units (CONTAINS) of each unit, in document order: the items under a lead-in."""
    if not unit_ids:
        return {}
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS pid MATCH (p:Unit {id: pid}) "
        "CALL (p) { MATCH (p)-[:CONTAINS]->(u:Unit) WHERE u.pending IS NULL "
        "RETURN u ORDER BY u.order LIMIT $limit } "
        "RETURN pid AS parent, " + UNIT_FIELDS,
        ids=list(dict.fromkeys(unit_ids)), limit=limit_per_unit, database_=database, routing_=RoutingControl.READ,
    )
    out: dict[str, list[UnitRecord]] = {}
    for r in records:
        row = {k: r[k] for k in r.keys() if k != "parent"}
        out.setdefault(r["parent"], []).append(_record(row))
    return out


# An edge hands its target new words unless its grammar read a removing or plain-amending action
# (core.current_law.gives_text; edges of grammars that record no action always pass).
_TEXT_GIVING = ("(r.action IS NULL OR (r.action IN $new_text AND coalesce(r.resolution, 'exact') = 'exact' AND "
                "startNode(r).document_id <> endNode(r).document_id))")
_GIVES_TEXT = "all(r IN relationships(p) WHERE " + _TEXT_GIVING + ")"


def current_version(driver: Driver, database: str, unit_id: str) -> list[Edge]:
    """The amendment chain that gives a unit its newest text, oldest first (empty when it is current)."""
    return latest_versions(driver, database, [unit_id]).get(unit_id, ([], False))[0]


def current_law(driver: Driver, database: str, unit_id: str) -> CurrentLaw | None:
    """In force or repealed, every recorded amendment in date order, and the newest text (core.current_law)."""
    found = _law_inputs(driver, database, unit_id)
    if found is None:
        return None
    row, incoming = found
    return read(unit_id, row["label"] or "", row["status"] or "in_force", _metadata(row["metadata"]), incoming,
                current_version(driver, database, unit_id), row["text"] or "")


def _law_inputs(driver: Driver, database: str, unit_id: str) -> tuple[dict[str, Any], list[Incoming]] | None:
    """The unit's own record and every amending edge into it, as core.current_law reads them."""
    # The unit's own amending edges, then the act-wide phrase replacements on its act (core.current_law.act_wide).
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {id: $id}) "
        "OPTIONAL MATCH (s:Unit)-[r:AMENDS|REPLACES]->(u) "
        "OPTIONAL MATCH (d:Unit {id: s.document_id}) "
        "WITH u, collect(CASE WHEN s IS NULL THEN NULL ELSE {source: s.id, label: s.label, type: type(r), action: r.action, "
        "resolution: r.resolution, own: s.metadata, doc: d.metadata, same: s.document_id = u.document_id, "
        "order: s.order} END) AS incoming "
        "OPTIONAL MATCH (a:Unit)-[w:AMENDS]->(:Unit {id: u.document_id}) WHERE u.id <> u.document_id AND w.action = $act_wide "
        "OPTIONAL MATCH (ad:Unit {id: a.document_id}) "
        "OPTIONAL MATCH (root:Unit {id: u.document_id}) "
        "RETURN u.label AS label, u.status AS status, u.metadata AS metadata, u.text AS text, incoming, "
        "root.metadata AS act, "
        "collect(CASE WHEN a IS NULL THEN NULL ELSE {source: a.id, label: a.label, type: type(w), action: w.action, "
        "resolution: w.resolution, own: a.metadata, doc: ad.metadata, same: false, order: a.order} END) AS to_act",
        id=unit_id, act_wide=ACT_WIDE, database_=database, routing_=RoutingControl.READ,
    )
    if not records:
        return None
    row = records[0]
    label, text = row["label"] or "", row["text"] or ""
    incoming = [_incoming(i, label) for i in row["incoming"]]
    incoming += act_wide(incoming, [_incoming(i, label) for i in row["to_act"]], text)
    return dict(row), incoming


def law_as_of(driver: Driver, database: str, unit_id: str, day: str, label: str = "") -> LawAsOf | None:
    """One unit as the law stood on `day` (core.as_of): its dated wordings when its act has versions, else its
    amending edges with their dates."""
    found = _law_inputs(driver, database, unit_id)
    if found is None:
        return None
    row, incoming = found
    shown = label or row["label"] or unit_id
    rows = wordings(driver, database, [unit_id]).get(unit_id)
    if rows:
        try:
            starts = [v["effective"] for v in json.loads(_metadata(row["act"]).get("versions") or "[]")]
        except (json.JSONDecodeError, KeyError, TypeError):
            starts = []
        return from_wordings(shown, unit_id, [WordingRow(**r) for r in rows], day, min(starts, default=None))
    metadata = _metadata(row["metadata"])
    law = read(unit_id, row["label"] or "", row["status"] or "in_force", metadata, incoming,
               current_version(driver, database, unit_id), row["text"] or "")

    def words_of(source_id: str) -> str | None:
        unit = fetch_units(driver, database, [source_id]).get(source_id)
        return quoted_words(unit.text, row["label"] or "") if unit is not None else None

    return from_edges(law, shown, row["text"] or "", row["status"] or "in_force", incoming, day, words_of,
                      metadata.get("inserted_by_id"))


def find_labelled(driver: Driver, database: str, corpus: str, label: str) -> str | None:
    """The unit a label names: its id, its label as stored (case, spaces and commas aside), or an act's name
    (a document's title or alias) followed by the provision as the act's labels write it."""
    wanted = _squeezed(label)
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL AND (u.id = $label OR "
        "replace(replace(replace(toLower(u.label), ' ', ''), ',', ''), '.', '') = $wanted) "
        "RETURN u.id AS id ORDER BY u.id = $label DESC, size(u.id) LIMIT 1",
        corpus=corpus, label=label, wanted=wanted, database_=database, routing_=RoutingControl.READ,
    )
    if records:
        return str(records[0]["id"])
    provision = _PROVISION_START.search(label)
    if provision is None:
        return None
    act, tail = _squeezed(label[: provision.start()]), _squeezed(label[provision.start():])
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL AND "
        "replace(replace(replace(toLower(u.label), ' ', ''), ',', ''), '.', '') ENDS WITH $tail "
        "MATCH (d:Document {id: u.document_id}) RETURN u.id AS id, u.label AS label, d.title AS title, d.names AS names "
        "ORDER BY size(u.label)",
        corpus=corpus, tail=tail, database_=database, routing_=RoutingControl.READ,
    )
    for record in records:
        names = [record["title"] or "", *(record["names"] or [])]
        label_act = _squeezed(record["label"] or "")[: -len(tail)] if tail else ""
        if not act or any(_squeezed(n) == act for n in names if n) or label_act == act:
            return str(record["id"])
    return None


# Where a provision's number begins in a label as lawyers write it, after the act's name.
_PROVISION_START = re.compile(r"(?:,\s*)?(?:제\s?\d|\b(?:Article|Art\.|Section|Điều|Khoản|Rule|Regulation\s\d)\s?\d|§)", re.I)


def _squeezed(label: str) -> str:
    return re.sub(r"[\s,.]", "", label.lower())


def _incoming(row: dict[str, Any], label: str) -> Incoming:
    new_text, words = instruction_wording(_metadata(row["own"]), label)
    return Incoming(source_id=row["source"], source_label=row["label"] or "", type=row["type"], action=row["action"],
                    resolution=row["resolution"] or "exact", date=amending_date(_metadata(row["own"]), _metadata(row["doc"])),
                    same_document=bool(row["same"]), new_text=new_text, words=words, order=int(row.get("order") or 0))


def _metadata(stored: str | None) -> dict[str, str]:
    try:
        data = json.loads(stored or "{}")
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def existing_edges(driver: Driver, database: str, edges: list[Edge]) -> set[tuple[str, str, str]]:
    """Which of these (source, type, target) triples exist in the graph, in either stored direction."""
    if not edges:
        return set()
    rows = [{"source": e.source, "type": e.type, "target": e.target} for e in edges]
    records, _, _ = driver.execute_query(
        "UNWIND $rows AS row MATCH (s:Unit {id: row.source})-[r]-(t {id: row.target}) WHERE type(r) = row.type "
        "RETURN DISTINCT row.source AS source, row.type AS type, row.target AS target",
        rows=rows, database_=database, routing_=RoutingControl.READ,
    )
    return {(r["source"], r["type"], r["target"]) for r in records}


def latest_versions(driver: Driver, database: str, unit_ids: list[str], max_hops: int = 10
                    ) -> dict[str, tuple[list[Edge], bool]]:
    """For each unit given new words over AMENDS/REPLACES, the longest chain to its latest version (oldest
    first), and whether the grammar typed that chain's first instruction (replaced / inserted)."""
    if not unit_ids:
        return {}
    hops = max(1, min(int(max_hops), 20))
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS uid MATCH p = (:Unit {id: uid})<-[:AMENDS|REPLACES*1.." + str(hops) + "]-(:Unit) "
        "WHERE " + _GIVES_TEXT + " "
        # Of chains of one length, the one whose amending ids (from the unit outwards) sort last, as
        # core.current_law.chain_order picks among the parse's.
        "WITH uid, p ORDER BY length(p) DESC, [r IN relationships(p) | startNode(r).id] DESC "
        "WITH uid, collect(p)[0] AS p "
        "RETURN uid, [r IN relationships(p) | [startNode(r).id, type(r), endNode(r).id]] AS edges, "
        "relationships(p)[0].action IS NOT NULL AS typed",
        ids=unit_ids, new_text=sorted(NEW_TEXT), database_=database, routing_=RoutingControl.READ,
    )
    return {r["uid"]: ([Edge(source=s, type=t, target=e) for s, t, e in r["edges"]], bool(r["typed"]))
            for r in records}


def chain_starts(driver: Driver, database: str, corpus: str) -> dict[str, bool]:
    """The corpus's units a `latest_versions` chain can start from (a text-giving AMENDS/REPLACES edge comes into
    them), each with whether such an edge carries an instruction's action (the chain's first edge may be typed)."""
    records, _, _ = driver.execute_query(
        "MATCH (t:Unit {corpus: $corpus})<-[r:AMENDS|REPLACES]-() WHERE " + _TEXT_GIVING + " "
        "RETURN t.id AS id, count(r.action) > 0 AS typed",
        corpus=corpus, new_text=sorted(NEW_TEXT), database_=database, routing_=RoutingControl.READ,
    )
    return {r["id"]: bool(r["typed"]) for r in records}


def unit_graph_info(driver: Driver, database: str, corpus: str) -> list[dict[str, Any]]:
    """What the in-memory corpus stores take from the graph: labels, headings, parents, tiers, order, text, and
    whether the unit's own words leave a detail to a lower tier (ingest's `delegates_to` mark)."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL RETURN u.id AS id, u.label AS label, "
        "u.title AS title, u.text AS text, u.parent_id AS parent_id, u.tier AS tier, u.status AS status, "
        "u.order AS order, coalesce(u.metadata CONTAINS $delegates, false) AS delegates",
        corpus=corpus, delegates=DELEGATES_MARK, database_=database,
    )
    return [dict(r) for r in records]


def label_members(driver: Driver, database: str, corpus: str, labels: Iterable[str]) -> dict[str, str]:
    """unit id → label for every unit at or below a unit with one of these labels (CONTAINS), one query.

    Labels match regardless of case: a gold "…, Recital 32" names the unit an ingest labels "…, recital 32"."""
    records, _, _ = driver.execute_query(
        "UNWIND $labels AS label MATCH (u:Unit {corpus: $corpus}) WHERE toLower(u.label) = toLower(label) "
        "MATCH (u)-[:CONTAINS*0..12]->(d:Unit) RETURN DISTINCT d.id AS id, label",
        labels=sorted(labels), corpus=corpus, database_=database,
    )
    return {r["id"]: r["label"] for r in records}


def corpus_unit_records(driver: Driver, database: str, corpus: str) -> dict[str, UnitRecord]:
    """Every stored (not pending) unit of a corpus."""
    rows, _, _ = driver.execute_query(
        f"MATCH (u:Unit {{corpus: $corpus}}) WHERE u.pending IS NULL RETURN {UNIT_FIELDS}",
        corpus=corpus, database_=database,
    )
    return {r["id"]: _record(r) for r in rows}


def corpus_edges(driver: Driver, database: str, corpus: str, edge_types: Iterable[str]) -> list[dict[str, Any]]:
    """Edges of these types between two stored units of the corpus (no self-edges), with citation and offset."""
    rows, _, _ = driver.execute_query(
        "MATCH (s:Unit {corpus: $corpus})-[r]->(t:Unit {corpus: $corpus}) "
        "WHERE type(r) IN $types AND s.pending IS NULL AND t.pending IS NULL AND s.id <> t.id "
        "RETURN s.id AS source, type(r) AS type, t.id AS target, r.citation AS citation, r.start AS start",
        corpus=corpus, types=checked_types(edge_types), database_=database,
    )
    return [dict(r) for r in rows]


def stored_hashes(driver: Driver, database: str, corpus: str) -> dict[str, str]:
    records, _, _ = driver.execute_query(
        "MATCH (d:Document {corpus: $corpus}) RETURN d.id AS id, d.content_hash AS hash", corpus=corpus, database_=database
    )
    return {r["id"]: r["hash"] for r in records}


def stored_keys(driver: Driver, database: str, corpus: str, exclude_documents: list[str]) -> dict[str, str]:
    """Address keys of stored units outside this run, so citations into documents not re-read still resolve."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL AND NOT u.document_id IN $exclude "
        "UNWIND coalesce(u.keys, []) AS key RETURN key, u.id AS id",
        corpus=corpus, exclude=exclude_documents, database_=database,
    )
    return {r["key"]: r["id"] for r in records}


def stored_insertions(driver: Driver, database: str, corpus: str, document_ids: list[str]) -> list[LegalUnit]:
    """Stored units of these documents that an amending provision of another document inserted
    (ingest.citations.vi_inserted): a run that re-reads the amended act without its amender keeps them."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.document_id IN $docs AND u.pending IS NULL "
        "AND u.metadata CONTAINS $mark RETURN u ORDER BY u.order",
        corpus=corpus, docs=document_ids, mark='"inserted_by_document"', database_=database,
    )
    return [_legal_unit(r["u"]) for r in records
            if _metadata(r["u"].get("metadata")).get("inserted_by_document") not in document_ids]


def corpus_units(driver: Driver, database: str, corpus: str) -> list[dict[str, Any]]:
    """All units of a corpus, as the lexical index and retrievers need them."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL "
        "RETURN u.id AS id, u.label AS label, u.title AS title, u.text AS text, u.document_id AS document_id, "
        "u.type AS type, u.status AS status ORDER BY u.document_id, u.order",
        corpus=corpus, database_=database,
    )
    return [dict(r) for r in records]


def corpus_counts(driver: Driver, database: str, corpus: str) -> dict[str, dict[str, int]]:
    def counts(query: str) -> dict[str, int]:
        records, _, _ = driver.execute_query(query, corpus=corpus, database_=database)
        return {r["type"]: r["n"] for r in records}

    return {"units": counts("MATCH (u:Unit {corpus: $corpus}) WHERE u.pending IS NULL RETURN u.type AS type, count(*) AS n"),
            "edges": counts("MATCH (u:Unit {corpus: $corpus})-[r]->() RETURN type(r) AS type, count(*) AS n"),
            # Counted before the type is named: a corpus without externals still has one row, 0.
            "externals": counts("MATCH (e:External {corpus: $corpus}) WITH count(e) AS n RETURN 'External' AS type, n")}


class LinkedUnit(BaseModel):
    """A unit at the other end of a citation edge, as a source view links to it."""

    id: str
    label: str = ""
    type: str
    document_id: str = ""
    document_title: str = ""


class DocumentRecord(BaseModel):
    id: str
    title: str = ""
    source_path: str = ""
    ingested_at: str = ""
    corpus: str = ""


class SourceContext(BaseModel):
    """One unit in its document: the units above and below it in document order, the document's size,
    and the units it cites and is cited by (all stored, none pending)."""

    unit: UnitRecord
    metadata: dict[str, str] = Field(default_factory=dict)
    document: DocumentRecord | None = None
    headings: list[UnitRecord] = Field(default_factory=list, description="the units containing it, top down")
    above: list[UnitRecord] = Field(default_factory=list, description="nearest first reversed: document order")
    below: list[UnitRecord] = Field(default_factory=list)
    hidden_above: int = 0
    hidden_below: int = 0
    cites: list[LinkedUnit] = Field(default_factory=list)
    cited_by: list[LinkedUnit] = Field(default_factory=list)


_CITATION_TYPES = "|".join(t.value for t in CITATION_EDGE_TYPES)
_UNIT_MAP = "{.id, .label, .title, .text, .document_id, .type, .status, .tier, .parent_id, .corpus}"


def _links_query(arrow: str, name: str) -> str:
    """A subquery collecting the stored units at the other end of the unit's citation edges (`arrow` is one of
    two fixed patterns), nearest document first, each with its document's title."""
    return (
        "CALL (u) { OPTIONAL MATCH " + arrow + " WHERE n.pending IS NULL "
        "OPTIONAL MATCH (nd:Document {id: n.document_id}) WITH r, n, nd ORDER BY n.document_id, n.order "
        "RETURN collect(DISTINCT {id: n.id, label: n.label, type: type(r), document_id: n.document_id, "
        "document_title: nd.title})[..$links] AS " + name + " } "
    )


def source_context(driver: Driver, database: str, unit_id: str, above: int, below: int,
                   link_limit: int = 60) -> SourceContext | None:
    """The unit with `above`/`below` neighbours of its document (by stored order), the headings above it
    (CONTAINS) and its citation links, in one round trip; None when the unit is not stored."""
    records, _, _ = driver.execute_query(
        "MATCH (u:Unit {id: $id}) WHERE u.pending IS NULL "
        "OPTIONAL MATCH (d:Document {id: u.document_id}) "
        "CALL (u) { MATCH (n:Unit {document_id: u.document_id}) WHERE n.order < u.order AND n.pending IS NULL "
        "WITH n ORDER BY n.order DESC LIMIT $above RETURN collect(n " + _UNIT_MAP + ") AS above } "
        "CALL (u) { MATCH (n:Unit {document_id: u.document_id}) WHERE n.order > u.order AND n.pending IS NULL "
        "WITH n ORDER BY n.order LIMIT $below RETURN collect(n " + _UNIT_MAP + ") AS below } "
        "CALL (u) { MATCH (n:Unit {document_id: u.document_id}) WHERE n.pending IS NULL "
        "RETURN count(CASE WHEN n.order < u.order THEN 1 END) AS ups, count(CASE WHEN n.order > u.order THEN 1 END) AS downs } "
        "CALL (u) { OPTIONAL MATCH p = (:Unit)-[:CONTAINS*1..10]->(u) WITH p ORDER BY length(p) DESC LIMIT 1 "
        "RETURN CASE WHEN p IS NULL THEN [] ELSE [a IN nodes(p)[..-1] | a " + _UNIT_MAP + "] END AS heads } "
        + _links_query("(u)-[r:" + _CITATION_TYPES + "]->(n:Unit)", "cites")
        + _links_query("(u)<-[r:" + _CITATION_TYPES + "]-(n:Unit)", "cited_by")
        + "RETURN u " + _UNIT_MAP + " AS unit, u.metadata AS metadata, "
        "d {.id, .title, .source_path, .corpus, ingested_at: toString(d.ingested_at)} AS doc, heads, "
        "above, below, ups, downs, cites, cited_by",
        id=unit_id, above=max(0, int(above)), below=max(0, int(below)), links=int(link_limit),
        database_=database, routing_=RoutingControl.READ,
    )
    if not records:
        return None
    row = records[0]
    ups = [_record(r) for r in reversed(row["above"])]
    downs = [_record(r) for r in row["below"]]
    return SourceContext(
        unit=_record(row["unit"]), metadata=_metadata(row["metadata"]),
        document=DocumentRecord(**{k: v for k, v in row["doc"].items() if v is not None}) if row["doc"] else None,
        headings=[_record(h) for h in row["heads"]],
        above=ups, below=downs, hidden_above=row["ups"] - len(ups), hidden_below=row["downs"] - len(downs),
        cites=_linked(row["cites"]), cited_by=_linked(row["cited_by"]),
    )


def _linked(rows: list[dict[str, Any]]) -> list[LinkedUnit]:
    return [LinkedUnit(**{k: v for k, v in row.items() if v is not None}) for row in rows if row.get("id")]


def document_records(driver: Driver, database: str, document_ids: Iterable[str]) -> dict[str, DocumentRecord]:
    """Title, source file and ingest time of each stored document (the export's provenance lines)."""
    ids = sorted({d for d in document_ids if d})
    if not ids:
        return {}
    records, _, _ = driver.execute_query(
        "MATCH (d:Document) WHERE d.id IN $ids RETURN d.id AS id, d.title AS title, d.source_path AS source_path, "
        "toString(d.ingested_at) AS ingested_at, d.corpus AS corpus",
        ids=ids, database_=database, routing_=RoutingControl.READ,
    )
    return {r["id"]: DocumentRecord(**{k: v for k, v in dict(r).items() if v is not None}) for r in records}


WORDING_FIELDS = "w.unit_id AS unit_id, w.valid_from AS valid_from, w.valid_until AS valid_until, w.text AS text, " \
                 "w.title AS title, w.versions AS versions, w.staged AS staged"


def stored_acts(driver: Driver, database: str, corpus: str, name_keys: list[str]) -> list[dict[str, Any]]:
    """Stored documents whose root names one of these keys, with every unit and dated wording
    (ingest.versions merges a new version of the act with them)."""
    records, _, _ = driver.execute_query(
        "MATCH (r:Unit {corpus: $corpus}) WHERE r.id = r.document_id AND any(k IN r.keys WHERE k IN $keys) "
        "MATCH (d:Document {id: r.id}) "
        "MATCH (u:Unit {document_id: r.id}) WHERE u.pending IS NULL "
        "WITH d, r, u ORDER BY u.order WITH d, r, collect(u) AS units "
        "OPTIONAL MATCH (w:Wording {document_id: r.id}) "
        f"RETURN d.id AS id, d.title AS title, d.names AS names, d.source_path AS source, units, "
        f"collect(CASE WHEN w IS NULL THEN NULL ELSE {{{_map(WORDING_FIELDS)}}} END) AS wordings",
        corpus=corpus, keys=name_keys, database_=database, routing_=RoutingControl.READ,
    )
    return [{"id": r["id"], "title": r["title"] or "", "names": list(r["names"] or []), "source": r["source"] or "",
             "units": [_legal_unit(u) for u in r["units"]], "wordings": list(r["wordings"])} for r in records]


def _map(fields: str) -> str:
    """"w.a AS a, w.b AS b" → "a: w.a, b: w.b" (a map projection of the same fields)."""
    return ", ".join(f"{name}: {expr}" for expr, name in (f.split(" AS ") for f in fields.split(", ")))


def _legal_unit(node: Any) -> LegalUnit:
    return LegalUnit(id=node["id"], corpus=node["corpus"], document_id=node["document_id"], type=node["type"],
                     label=node.get("label") or "", title=node.get("title") or "", text=node.get("text") or "",
                     parent_id=node.get("parent_id"), order=node.get("order") or 0, tier=node.get("tier") or 1,
                     metadata=_metadata(node.get("metadata")), keys=list(node.get("keys") or []))


def wordings(driver: Driver, database: str, unit_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every dated wording of these units, oldest first (units without versions have none)."""
    records, _, _ = driver.execute_query(
        f"MATCH (w:Wording) WHERE w.unit_id IN $ids RETURN {WORDING_FIELDS} ORDER BY w.valid_from",
        ids=list(unit_ids), database_=database, routing_=RoutingControl.READ,
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        out.setdefault(record["unit_id"], []).append(dict(record))
    return out


def versioned_units(driver: Driver, database: str, corpus: str) -> dict[str, list[dict[str, Any]]]:
    """Every dated wording of the corpus, by unit: what a search as of a date reads its hits' words from."""
    records, _, _ = driver.execute_query(
        f"MATCH (w:Wording {{corpus: $corpus}}) RETURN {WORDING_FIELDS} ORDER BY w.valid_from",
        corpus=corpus, database_=database, routing_=RoutingControl.READ,
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        out.setdefault(record["unit_id"], []).append(dict(record))
    return out
