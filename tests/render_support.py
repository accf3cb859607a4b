"""Answers built from real stored units (for rendering tests): a REFERENCES → DEFINES walk and a hostile unit."""
from __future__ import annotations

from neo4j import Driver

from core.answer.models import AnswerEnvelope, AttributedAnswer, Claim, RuleClaims
from core.domain import Edge
from core.render.chain import chain_segments
from core.render.templating import render
from core.render.view import AnswerView, ClaimView, NodeView, RuleCardView
from core.stores.queries import UnitRecord, fetch_units


def answer_html(view: AnswerView) -> str:
    """The share page's answer block alone (templates/answer.html.j2): cards, chain, collapsed text."""
    return render("answer.html.j2", view=view, segments=chain_segments(view.chain, view.labels))


HOSTILE = (
    '<script>alert("x")</script> <img src=x onerror="alert(1)"> [click](javascript:alert(2)) '
    '<a href="javascript:alert(3)">link</a> </textarea></iframe>"\' & done'
)


def real_walk(driver: Driver, database: str, corpus: str = "hipaa") -> tuple[AnswerEnvelope, dict[str, UnitRecord]]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Unit {corpus: $corpus})-[:REFERENCES]->(b:Unit)-[:DEFINES]->(c:Unit) "
        "WHERE a.text <> '' AND b.text <> '' AND a.pending IS NULL AND b.pending IS NULL AND c.pending IS NULL "
        "RETURN a.id AS a, b.id AS b, c.id AS c ORDER BY a.id LIMIT 1",
        corpus=corpus, database_=database,
    )
    assert records, "the corpus has no REFERENCES → DEFINES walk"
    a, b, c = records[0]["a"], records[0]["b"], records[0]["c"]
    units = fetch_units(driver, database, [a, b, c])
    envelope = AnswerEnvelope(
        question=f"What does {units[a].label} require?",
        corpus=corpus,
        answer=AttributedAnswer(
            answer=f"{units[a].label} applies {units[b].label}.",
            rules=[
                RuleClaims(unit_id=a, label=units[a].label, claims=[Claim(text=units[a].text[:120])]),
                RuleClaims(unit_id=b, label=units[b].label, claims=[Claim(text=units[b].text[:120], paragraph="(b)")]),
            ],
            chain=[Edge(source=a, type="REFERENCES", target=b), Edge(source=b, type="DEFINES", target=c)],
        ),
        mode="extractive", model="extractive", seed_ids=[a], evidence_ids=[a, b, c],
    )
    return envelope, units


def hostile_view() -> AnswerView:
    """Every text field carries markup a regulation could contain; renderers must show it as text."""
    return AnswerView(
        question=f"Q {HOSTILE}", corpus="hipaa", answer=f"A {HOSTILE}", mode="extractive", model="extractive",
        notices=[f"N {HOSTILE}"], caveats=[f"C {HOSTILE}"],
        cards=[RuleCardView(unit_id="u1", label=f"L {HOSTILE}", document_title=f"D {HOSTILE}", text=f"T {HOSTILE}",
                            claims=[ClaimView(text=f"claim {HOSTILE}", paragraph="(a)")])],
        chain=[Edge(source="u1", type="REFERENCES", target="u2")],
        labels={"u1": f"L {HOSTILE}", "u2": "U2"},
        nodes=[NodeView(id="u1", label=f"L {HOSTILE}", text=f"T {HOSTILE} href", document_id="d1", seed=True),
               NodeView(id="u2", label="U2", text="plain", document_id="d2")],
        edges=[Edge(source="u1", type="REFERENCES", target="u2")],
    )
