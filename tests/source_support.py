"""Two small documents written through the project's writer for the source-view tests: an act whose article
(full of markup) cites a unit of another corpus, and an amending act that replaces that article's words."""
from __future__ import annotations

from neo4j import Driver

from core.domain import Document, Edge, EdgeType, LegalUnit, UnitType
from core.stores.neo4j_store import write_document
from tests.render_support import HOSTILE

CORPUS = "source-view-test"
AMENDED = "a-source-test/act/art-3"
AMENDING = "a-source-test/amending/art-1"
AMENDED_TEXT = f"Article 3 words before the change {HOSTILE} and the rule that stood."
NEW_TEXT = "Article 3 now reads: the controller shall keep a record of every disclosure."
EFFECTIVE = "2024-07-01"


def _unit(uid: str, doc: str, label: str, text: str, order: int, **extra) -> LegalUnit:
    return LegalUnit(id=uid, corpus=CORPUS, document_id=doc, type=UnitType.ARTICLE, label=label, text=text,
                     parent_id=doc, order=order, **extra)


def write_amended_pair(driver: Driver, database: str, cited_unit: str | None = None) -> None:
    """The amended act (articles 2–4, article 3 citing `cited_unit` when given) and its amending act."""
    act, amending = "a-source-test/act", "a-source-test/amending"
    act_units = [
        LegalUnit(id=act, corpus=CORPUS, document_id=act, type=UnitType.DOCUMENT, label="Test Act", title="Test Act"),
        _unit(f"{act}/art-2", act, "Test Act Art 2", "Article 2 comes before.", 1),
        _unit(AMENDED, act, "Test Act Art 3", AMENDED_TEXT, 2),
        _unit(f"{act}/art-4", act, "Test Act Art 4", "Article 4 comes after.", 3),
    ]
    edges = [Edge(source=act, type=EdgeType.CONTAINS, target=u.id) for u in act_units[1:]]
    if cited_unit:
        edges.append(Edge(source=AMENDED, type=EdgeType.REFERENCES, target=cited_unit))
    write_document(driver, database, Document(id=act, corpus=CORPUS, title=f"Test Act {HOSTILE}",
                                              source_path="/nowhere/test-act.md", units=act_units), edges, [], "h1")
    amending_units = [
        LegalUnit(id=amending, corpus=CORPUS, document_id=amending, type=UnitType.DOCUMENT, label="Amending Act",
                  title="Amending Act", metadata={"effective_date": EFFECTIVE}),
        _unit(AMENDING, amending, "Amending Act Art 1", NEW_TEXT, 1),
    ]
    write_document(driver, database, Document(id=amending, corpus=CORPUS, title="Amending Act",
                                              source_path="/nowhere/amending.md", units=amending_units),
                   [Edge(source=amending, type=EdgeType.CONTAINS, target=AMENDING),
                    Edge(source=AMENDING, type=EdgeType.AMENDS, target=AMENDED, action="replaced")], [], "h2")


def remove_amended_pair(driver: Driver, database: str) -> None:
    driver.execute_query("MATCH (n) WHERE n.corpus = $corpus DETACH DELETE n", corpus=CORPUS, database_=database)
