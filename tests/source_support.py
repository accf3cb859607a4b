"""Two small documents written through the project's writer for the source-view tests: an act whose article
(full of markup) cites a unit of another corpus, and an amending act that replaces that article's words."""
from __future__ import annotations

from pathlib import Path

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


def write_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A PDF with a text layer (Helvetica, one line per string, each page a list of lines), built with pypdf."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    font = writer._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"), NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))
    for lines in pages:
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        shown = "".join(f"({line.replace(chr(92), chr(92) * 2).replace('(', chr(92) + '(').replace(')', chr(92) + ')')}) Tj T* "
                        for line in lines)
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 16 TL 72 720 Td {shown}ET".encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream)
    with path.open("wb") as out:
        writer.write(out)
    return path


PDF_CORPUS = "source-view-pdf-test"
PDF_DOCUMENT = "a-source-test/pdf-act"
PDF_UNIT = f"{PDF_DOCUMENT}/art-2"
PDF_PAGES = [["Part 1 General", "Article 1 Scope. This Act applies to (all) persons."],
             ["Article 2 Records", "A firm must keep records of every transaction", "for six years after it ends.",
              "Article 3 Fees. Fees are set by the Authority."]]
PDF_UNIT_TEXT = "A firm must keep records of every transaction for six years after it ends."


def write_pdf_document(driver: Driver, database: str, pdf: Path, cited_unit: str) -> None:
    """A two-page PDF act (written to `pdf`) whose Article 2, on page 2, cites `cited_unit`."""
    write_pdf(pdf, PDF_PAGES)
    units = [
        LegalUnit(id=PDF_DOCUMENT, corpus=PDF_CORPUS, document_id=PDF_DOCUMENT, type=UnitType.DOCUMENT,
                  label="PDF Act", title="PDF Act"),
        LegalUnit(id=f"{PDF_DOCUMENT}/art-1", corpus=PDF_CORPUS, document_id=PDF_DOCUMENT, type=UnitType.ARTICLE,
                  label="PDF Act Art 1", text=PDF_PAGES[0][1], parent_id=PDF_DOCUMENT, order=1),
        LegalUnit(id=PDF_UNIT, corpus=PDF_CORPUS, document_id=PDF_DOCUMENT, type=UnitType.ARTICLE,
                  label="PDF Act Art 2", title="Records", text=PDF_UNIT_TEXT, parent_id=PDF_DOCUMENT, order=2),
    ]
    edges = [Edge(source=PDF_DOCUMENT, type=EdgeType.CONTAINS, target=u.id) for u in units[1:]]
    edges.append(Edge(source=PDF_UNIT, type=EdgeType.REFERENCES, target=cited_unit))
    write_document(driver, database, Document(id=PDF_DOCUMENT, corpus=PDF_CORPUS, title="PDF Act",
                                              source_path=str(pdf), units=units), edges, [], "h3")


def remove_pdf_document(driver: Driver, database: str) -> None:
    driver.execute_query("MATCH (n) WHERE n.corpus = $corpus DETACH DELETE n", corpus=PDF_CORPUS, database_=database)
