"""An EU act named by its short title ("the General Data Protection Regulation") is the numbered act that title
belongs to: the ingested act whose own title line gives it, else the act a full citation gives it to.

The GDPR lines are the Official Journal's (its title line ends "(General Data Protection Regulation)"); the amending
act is written in the form of DORA's amending articles, with the GDPR named by its short title."""
from __future__ import annotations

from pathlib import Path

from core.domain import EdgeType
from ingest.graph import CorpusGraph, build_graph
from tests.eu_texts import regulation

GDPR = """4.5.2016
EN
Official Journal of the European Union
REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 27 April 2016
on the protection of natural persons with regard to the processing of personal data and on the free movement of such data, and repealing Directive 95/46/EC (General Data Protection Regulation)
HAVE ADOPTED THIS REGULATION:
Article 4
Definitions
For the purposes of this Regulation:
(11) ‘consent’ of the data subject means any freely given, specific, informed and unambiguous indication of the data subject's wishes;
(12) ‘personal data breach’ means a breach of security leading to the accidental or unlawful destruction of personal data;
Article 6
Lawfulness of processing
1. Processing shall be lawful only if and to the extent that at least one of the following applies:
(a) the data subject has given consent to the processing of his or her personal data for one or more specific purposes;
"""

AMENDING = regulation(
    "2021/88", "bird-ringing data",
    "Regulation (EU) 2016/679 of the European Parliament and of the Council of 27 April 2016 on the protection of natural "
    "persons with regard to the processing of personal data and on the free movement of such data, and repealing "
    "Directive 95/46/EC (General Data Protection Regulation) (OJ L 119, 4.5.2016, p. 1) applies to ringing records.",
    """Article 1
Processing of ringing records
Ringers may process ringing records on the ground in point (a) of Article 6(1) of the General Data Protection Regulation.
Article 2
Amendments to the General Data Protection Regulation
The General Data Protection Regulation is amended as follows:
(1) in Article 6(1), point (a) is replaced by the following:
‘(a) the data subject has given consent to the processing of his or her personal data;’;
(2) in Article 4, point (12) is deleted.
""")


def _graph(tmp_path: Path, files: dict[str, str]) -> CorpusGraph:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return build_graph([tmp_path], "t", "generic")


def _edges(graph: CorpusGraph) -> set[tuple[str, str, str]]:
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    labels.update({x.id: x.raw for x in graph.externals})
    return {(labels.get(e.source, e.source), str(e.type), labels.get(e.target, e.target)) for e in graph.edges
            if e.source.startswith("t/amending") and e.type in (EdgeType.AMENDS, EdgeType.REPLACES, EdgeType.REFERENCES)}


def test_the_short_title_finds_the_ingested_act(tmp_path: Path) -> None:
    edges = _edges(_graph(tmp_path, {"amending.txt": AMENDING, "gdpr.txt": GDPR}))
    gdpr = "Regulation (EU) 2016/679"
    assert ("Regulation (EU) 2021/88, Article 2(1)", "REPLACES", f"{gdpr}, Article 6(1)(a)") in edges, edges
    # The GDPR's numbered definitions are parsed as its Article 4's paragraphs: the point lands on Article 4.
    assert ("Regulation (EU) 2021/88, Article 2(2)", "AMENDS", f"{gdpr}, Article 4") in edges
    assert ("Regulation (EU) 2021/88, Article 1", "REFERENCES", f"{gdpr}, Article 6(1)(a)") in edges
    # Never the citing act's own Article 6 or 4.
    assert not any(target.startswith("Regulation (EU) 2021/88, Article") for _, _, target in edges)


def test_the_short_title_a_full_citation_gives_names_the_numbered_act(tmp_path: Path) -> None:
    edges = _edges(_graph(tmp_path, {"amending.txt": AMENDING}))
    assert ("Regulation (EU) 2021/88, Article 2(1)", "REPLACES", "Regulation (EU) 2016/679, Article 6(1)(a)") in edges, edges
    assert not any("General Data Protection Regulation" in target for _, _, target in edges)
