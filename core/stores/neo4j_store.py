"""The Neo4j side: connecting, schema, and the per-document atomic write of units and edges.

Every value travels as a query parameter. Relationship types cannot be parameters in Cypher, so
they are only ever taken from the EdgeType enum, never from text.
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from neo4j import Driver, GraphDatabase, ManagedTransaction
from neo4j.exceptions import AuthError, ClientError, ServiceUnavailable

from core.domain import Document, Edge, EdgeType, ExternalRef, LegalUnit, StoreError
from core.settings import Settings, neo4j_connection


class GraphStoreError(StoreError):
    pass


SCHEMA = (
    "CREATE CONSTRAINT unit_id IF NOT EXISTS FOR (u:Unit) REQUIRE u.id IS UNIQUE",
    "CREATE CONSTRAINT external_id IF NOT EXISTS FOR (e:External) REQUIRE e.id IS UNIQUE",
    "CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE",
    "CREATE INDEX unit_document IF NOT EXISTS FOR (u:Unit) ON (u.document_id)",
    "CREATE INDEX unit_corpus IF NOT EXISTS FOR (u:Unit) ON (u.corpus)",
    "CREATE INDEX unit_label IF NOT EXISTS FOR (u:Unit) ON (u.label)",
    "CREATE INDEX unit_type IF NOT EXISTS FOR (u:Unit) ON (u.corpus, u.type)",
    "CREATE INDEX document_corpus IF NOT EXISTS FOR (d:Document) ON (d.corpus)",
    "CREATE INDEX wording_unit IF NOT EXISTS FOR (w:Wording) ON (w.unit_id)",
    "CREATE INDEX wording_document IF NOT EXISTS FOR (w:Wording) ON (w.document_id)",
)


# Serving processes (serving=True) fail a query at once when Neo4j is down: every graph read there
# degrades to "no expansion", and the driver's default 30 s of retries per query would hang each answer.
SERVING_RETRY_S = 0.0


def connect(settings: Settings, *, serving: bool = False) -> Driver:
    """A verified driver: NEO4J_URI when set, else the project's local server on loopback.
    It starts nothing: tools that want the local server up start it first (core.neo4j_local, `make neo4j`)."""
    conn = neo4j_connection(settings)
    retry: dict[str, Any] = {"max_transaction_retry_time": SERVING_RETRY_S} if serving else {}
    # Schema-less property warnings ("property `pending` does not exist") are expected and not for users.
    driver = GraphDatabase.driver(conn.uri, auth=(conn.user, conn.password), notifications_min_severity="OFF", **retry)
    try:
        driver.verify_connectivity()
    except AuthError as exc:
        driver.close()
        raise GraphStoreError(
            f"Neo4j at {conn.uri} rejected user {conn.user!r}: set NEO4J_PASSWORD (or NEO4J_USER) to the right value"
        ) from exc
    except (ServiceUnavailable, OSError) as exc:
        driver.close()
        raise GraphStoreError(
            f"Neo4j at {conn.uri} is not answering ({exc}); start it with `make neo4j` or fix NEO4J_URI"
        ) from exc
    return driver


# What Neo4j answers "IF NOT EXISTS" with when another client created the same rule between its check and its
# own creation (two hosts ingesting into one server): the rule is there, which is all the schema asks.
CREATED_MEANWHILE = frozenset({"Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
                               "Neo.ClientError.Schema.IndexAlreadyExists",
                               "Neo.ClientError.Schema.ConstraintAlreadyExists"})


def ensure_schema(driver: Driver, database: str) -> None:
    with driver.session(database=database) as session:
        for statement in SCHEMA:
            try:
                session.run(statement).consume()
            except ClientError as exc:
                if exc.code not in CREATED_MEANWHILE:
                    raise


def _unit_row(unit: LegalUnit) -> dict[str, Any]:
    return {
        "id": unit.id,
        "props": {
            "corpus": unit.corpus,
            "document_id": unit.document_id,
            "type": unit.type.value,
            "label": unit.label,
            "title": unit.title,
            "text": unit.text,
            "parent_id": unit.parent_id,
            "order": unit.order,
            "tier": unit.tier,
            "status": unit.metadata.get("status", "in_force"),
            "metadata": json.dumps(unit.metadata, sort_keys=True),
            "keys": unit.keys,
        },
    }


def _edge_row(edge: Edge) -> dict[str, Any]:
    return {
        "source": edge.source,
        "target": edge.target,
        "props": {
            "citation": edge.citation,
            "start": edge.start,
            "end": edge.end,
            "resolution": edge.resolution,
            "in_cycle": edge.in_cycle,
            "action": edge.action,
        },
    }


def edges_owned_by(documents: Iterable[Document], edges: Iterable[Edge]) -> dict[str, list[Edge]]:
    """Each edge belongs to one document: a citation to its citing unit's, CONTAINS to the child's."""
    owner: dict[str, str] = {unit.id: doc.id for doc in documents for unit in doc.units}
    owned: dict[str, list[Edge]] = defaultdict(list)
    for edge in edges:
        unit = edge.target if edge.type is EdgeType.CONTAINS else edge.source
        if unit in owner:
            owned[owner[unit]].append(edge)
    return owned


def write_document(
    driver: Driver, database: str, document: Document, edges: list[Edge], externals: list[ExternalRef], content_hash: str
) -> None:
    """Replace one document's units and owned edges in a single transaction (all or nothing)."""
    with driver.session(database=database) as session:
        session.execute_write(_write_document_tx, document, edges, externals, content_hash)


def _write_document_tx(tx: ManagedTransaction, document: Document, edges: list[Edge], externals: list[ExternalRef], content_hash: str) -> None:
    doc_id = document.id
    tx.run(
        "MERGE (d:Document {id: $id}) SET d.corpus = $corpus, d.title = $title, d.names = $names, "
        "d.source_path = $source, d.content_hash = $hash, d.ingested_at = datetime()",
        id=doc_id, corpus=document.corpus, title=document.title, names=document.names,
        source=document.source_path, hash=content_hash,
    ).consume()
    unit_ids = [u.id for u in document.units]
    # Units that disappeared from the document go, with every edge touching them.
    tx.run(
        "MATCH (u:Unit {document_id: $doc}) WHERE NOT u.id IN $ids DETACH DELETE u", doc=doc_id, ids=unit_ids
    ).consume()
    tx.run("MATCH (:Unit {document_id: $doc})-[r]-() WHERE r.doc = $doc DELETE r", doc=doc_id).consume()
    tx.run(
        "UNWIND $rows AS row MERGE (u:Unit {id: row.id}) SET u += row.props REMOVE u.pending",
        rows=[_unit_row(u) for u in document.units],
    ).consume()
    if externals:
        tx.run(
            "UNWIND $rows AS row MERGE (e:External {id: row.id}) SET e.corpus = row.corpus, e.raw = row.raw",
            rows=[e.model_dump() for e in externals],
        ).consume()
    # A target in a document not written yet becomes a pending placeholder that its own write fills.
    tx.run(
        "UNWIND $ids AS id MERGE (t:Unit {id: id}) ON CREATE SET t.pending = true, t.corpus = $corpus",
        ids=sorted({e.target for e in edges if e.resolution != "external"}), corpus=document.corpus,
    ).consume()
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for edge in edges:
        by_type[edge.type].append(_edge_row(edge))
    for edge_type, rows in by_type.items():
        tx.run(
            "UNWIND $rows AS row "
            "MATCH (s:Unit {id: row.source}) "
            "OPTIONAL MATCH (u:Unit {id: row.target}) "
            "OPTIONAL MATCH (x:External {id: row.target}) "
            "WITH s, row, coalesce(u, x) AS t WHERE t IS NOT NULL "
            f"CREATE (s)-[r:{EdgeType(edge_type).value}]->(t) SET r += row.props, r.doc = $doc",
            rows=rows, doc=doc_id,
        ).consume()


def remove_stale_externals(driver: Driver, database: str, corpus: str) -> int:
    with driver.session(database=database) as session:
        record = session.run(
            "MATCH (e:External {corpus: $corpus}) WHERE NOT (e)--() DELETE e RETURN count(e) AS n", corpus=corpus
        ).single()
        return int(record["n"]) if record else 0


def write_wordings(driver: Driver, database: str, document_id: str, corpus: str, wordings: list[dict[str, Any]]) -> None:
    """Replace the dated wordings of one act's units (ingest.versions) in one transaction: a version slotted in
    rewrites the act's intervals, and a failed write leaves the old ones."""
    with driver.session(database=database) as session:
        session.execute_write(_write_wordings_tx, document_id, corpus, wordings)


def _write_wordings_tx(tx: ManagedTransaction, document_id: str, corpus: str, wordings: list[dict[str, Any]]) -> None:
    tx.run("MATCH (w:Wording {document_id: $doc}) DELETE w", doc=document_id).consume()
    tx.run(
        "UNWIND $rows AS row CREATE (w:Wording) SET w = row, w.document_id = $doc, w.corpus = $corpus",
        rows=wordings, doc=document_id, corpus=corpus,
    ).consume()
