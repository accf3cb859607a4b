"""The answer's display model, chain line and Markdown, from real units in Neo4j."""
from __future__ import annotations

import re

from core.chat.evidence import answer_view
from core.domain import Edge
from core.render.chain import chain_line, edge_word
from core.render.markdown import answer_markdown, escape_markdown
from core.render.view import build_view
from tests.render_support import HOSTILE, hostile_view, real_walk


def test_view_from_real_units(neo4j_driver, hipaa_corpus, test_settings):
    envelope, units = real_walk(neo4j_driver, test_settings.neo4j_database)
    a, b, c = envelope.evidence_ids
    view = build_view(envelope, units, {units[a].document_id: "Doc A"})
    assert [card.label for card in view.cards] == [units[a].label, units[b].label]
    assert view.cards[0].text == units[a].text and view.cards[0].document_title == "Doc A"
    assert view.cards[1].claims[0].paragraph == "(b)"
    assert [n.id for n in view.nodes] == [a, b, c]
    assert [n.seed for n in view.nodes] == [True, False, False]
    assert chain_line(view.chain, view.labels) == f"{units[a].label} —references→ {units[b].label} —defines→ {units[c].label}"


def test_answer_view_reads_titles_and_edges_from_the_graph(neo4j_driver, hipaa_corpus, test_settings):
    envelope, units = real_walk(neo4j_driver, test_settings.neo4j_database)
    view = answer_view(neo4j_driver, test_settings.neo4j_database, envelope)
    a, b, c = envelope.evidence_ids
    assert view.cards[0].document_title and view.cards[0].document_title != units[a].document_id
    edges = {(e.source, e.type, e.target) for e in view.edges}
    assert {(a, "REFERENCES", b), (b, "DEFINES", c)} <= edges
    assert all(e.source in {n.id for n in view.nodes} and e.target in {n.id for n in view.nodes} for e in view.edges)


def test_chain_line_breaks_into_walks():
    labels = {"a": "A", "b": "B", "c": "C", "x": "X", "y": "Y"}
    chain = [Edge(source="a", type="REFERENCES", target="b"), Edge(source="b", type="DELEGATES_TO", target="c"),
             Edge(source="x", type="AMENDS", target="y")]
    assert chain_line(chain, labels) == "A —references→ B —delegates to→ C; X —amends→ Y"
    assert chain_line([], labels) == ""
    assert edge_word("DELEGATES_TO") == "delegates to"


def test_markdown_escapes_regulation_markup():
    body = answer_markdown(hostile_view())
    payload = "\n".join(re.sub(r"^(> |- )", "", line) for line in body.splitlines())  # our own Markdown markers
    assert not re.search(r"(?<!\\)[<>\[\]()]", payload), "markup characters must arrive escaped"
    assert escape_markdown("<b>[x](y)</b>") == r"\<b\>\[x\]\(y\)\</b\>"


def test_extractive_mode_is_labelled_and_llm_mode_names_its_model():
    view = hostile_view()
    assert "Extractive answer" in answer_markdown(view) and "no language model" in view.mode_line
    llm = view.model_copy(update={"mode": "llm", "model": "gpt-x"})
    assert "gpt-x" in llm.mode_line and "Extractive" not in llm.mode_line
    assert HOSTILE not in answer_markdown(llm)
