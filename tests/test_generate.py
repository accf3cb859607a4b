"""Benchmark builder: paths are real graph paths, records are in the units format, verification bites."""
from __future__ import annotations

import json

import pytest

from bench.generator.build import BuildOptions, build, template_generator
from bench.generator.cluster import reasoning_type
from bench.generator.models import GraphPath, PathHop, ReasoningType
from bench.generator.paths import load_graph, walk_paths
from bench.generator.verify import verify_template

CORPUS = "gentest"
# Three short rules citing each other across documents: records 3(1) → complaints 4(1) → records 2(1)
# → security 3(1) → security 4(1) is a 4-hop chain; complaints 5(1) → security 4(1) is a single hop.
FILES = {
    "records.md": """# Clinic Records Rules 2026

A short regulation written for the Citewalk tests. It is not real law.

## Chapter 1 General

### Article 2 Retention

1. A clinic must keep each patient file for ten years and store it in accordance with Article 3(1) of the Clinic Security Rules 2026.

### Article 3 Inspection

1. A patient may inspect the patient file within fourteen days of a written request made under Article 4(1) of the Clinic Complaints Rules 2026.
""",
    "security.md": """# Clinic Security Rules 2026

A short regulation written for the Citewalk tests. It is not real law.

## Chapter 1 Safeguards

### Article 3 Storage

1. Stored records must be encrypted with a cipher key that is rotated every ninety days under Article 4(1).

### Article 4 Key custody

1. Encryption keys are held by a named custodian who reports any breach to the ombudsman within seventy-two hours.
""",
    "complaints.md": """# Clinic Complaints Rules 2026

A short regulation written for the Citewalk tests. It is not real law.

## Chapter 1 Requests

### Article 4 Written requests

1. A written request names the patient, the clinic and the records sought, and is answered as set out in Article 2(1) of the Clinic Records Rules 2026.

### Article 5 Appeals

1. A refused request may be appealed to the tribunal, which applies the custody duties in Article 4(1) of the Clinic Security Rules 2026.
""",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, test_settings, neo4j_driver) -> str:
    from ingest.pipeline import run_ingest

    folder = tmp_path_factory.mktemp("gen-corpus")
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    summary = run_ingest([folder], CORPUS, test_settings, quiet=True)
    assert not summary.failures, summary.failures
    return CORPUS


@pytest.fixture(scope="module")
def graph(corpus, neo4j_driver, test_settings):
    return load_graph(neo4j_driver, test_settings.neo4j_database, corpus)


@pytest.fixture(scope="module")
def pool(corpus, test_settings):
    """BM25 over the test stores: a real retrieval pool without waiting on the retriever registry."""
    from core.lexical import LexicalIndex

    index = LexicalIndex.load(test_settings.lexical_path / corpus)
    return lambda question: [unit_id for unit_id, _ in index.search(question, 50)]


@pytest.fixture(scope="module")
def built(graph, neo4j_driver, test_settings, pool):
    options = BuildOptions(corpus=CORPUS, n=5, seed=3, pool_k=10, max_unit_uses=5)
    db = test_settings.neo4j_database
    return build(neo4j_driver, db, options, lambda g: template_generator(neo4j_driver, db, g, pool, options))


def test_walked_paths_exist_in_neo4j(graph, neo4j_driver, test_settings):
    paths = list(walk_paths(graph, seed=1))
    assert paths, "the cross-referencing test corpus must yield paths"
    assert max(p.hop_count for p in paths) == 4
    assert all(2 <= p.hop_count <= 4 and p.documents >= 1 for p in paths)
    for path in paths:
        for hop in path.hops:
            records, _, _ = neo4j_driver.execute_query(
                "MATCH (s:Unit {id: $s})-[r]->(t:Unit {id: $t}) WHERE type(r) = $type AND t.pending IS NULL "
                "RETURN count(r) AS n", s=hop.source, t=hop.target, type=hop.type,
                database_=test_settings.neo4j_database,
            )
            assert records[0]["n"] >= 1, hop
    # Document-level and external citations never become evidence.
    assert not any(u.startswith(f"{CORPUS}/external") for p in paths for u in p.units)


def test_records_are_in_the_units_format(built, tmp_path):
    kept, _, report = built
    assert kept, report
    out = tmp_path / "gen.jsonl"
    out.write_text("".join(json.dumps(i.model_dump(mode="json")) + "\n" for i in kept))
    for line in out.read_text().splitlines():
        row = json.loads(line)
        assert {"id", "question", "gold_unit_ids", "answer", "evidence_units", "evidence_path", "reasoning_type",
                "hop_count", "generator", "verification"} <= set(row)
        assert row["gold_unit_ids"] == row["evidence_units"]
        assert row["hop_count"] == len(row["evidence_path"]) == len(row["evidence_units"]) - 1
        assert row["generator"] == "template" and row["verification"]["passed"]
    assert sum(report.distribution["reasoning_type"].values()) == len(kept)
    assert len({i.question for i in kept}) == len(kept)


def test_verification_rejects_a_path_missing_a_unit(built, graph, neo4j_driver, test_settings, pool):
    kept, _, _ = built
    item = max(kept, key=lambda i: i.hop_count)
    path = GraphPath(units=item.evidence_units, hops=item.evidence_path, documents=item.documents)
    db = test_settings.neo4j_database
    assert verify_template(neo4j_driver, db, graph, path, item.question, pool, pool_k=10).passed
    # Drop the second unit from the evidence (and the hop into it): the chain breaks and the question
    # keeps words only that unit supplies.
    cut = GraphPath(units=[path.units[0], *path.units[2:]], hops=path.hops[1:], documents=path.documents)
    result = verify_template(neo4j_driver, db, graph, cut, item.question, pool, pool_k=10)
    assert not result.passed
    assert any(r.startswith("structure") for r in result.reasons)
    assert any(r.startswith(("coverage", "necessity")) for r in result.reasons)


def test_verification_rejects_an_item_whose_unit_left_the_graph(built, graph, neo4j_driver, test_settings, pool):
    """Runs last: it deletes a unit of the test corpus."""
    kept, _, _ = built
    item = kept[0]
    path = GraphPath(units=item.evidence_units, hops=item.evidence_path, documents=item.documents)
    gone = path.units[-1]
    db = test_settings.neo4j_database
    neo4j_driver.execute_query("MATCH (u:Unit {id: $id}) DETACH DELETE u", id=gone, database_=db)
    result = verify_template(neo4j_driver, db, graph, path, item.question, pool, pool_k=10)
    assert not result.passed
    assert any(gone in r and r.startswith("structure") for r in result.reasons)


@pytest.mark.parametrize(("types", "cue", "expected"), [
    (["REFERENCES", "AMENDS"], "", ReasoningType.AMENDMENT_TRACING),
    (["REFERENCES", "DEFINES"], "in accordance with ", ReasoningType.DEFINITION_LOOKUP),
    (["REFERENCES", "REFERENCES"], "must be logged in accordance with ", ReasoningType.PROCEDURAL_SYNTHESIS),
    (["DELEGATES_TO", "REFERENCES"], "", ReasoningType.PROCEDURAL_SYNTHESIS),
    (["REFERENCES", "REFERENCES"], "has the meaning given in ", ReasoningType.CROSS_REFERENCE_RESOLUTION),
])
def test_reasoning_type_rule(types, cue, expected):
    units = ["a", "b", "c"]
    hops = [PathHop(source=s, type=t, target=e, cue=cue) for s, t, e in zip(units, types, units[1:])]
    assert reasoning_type(GraphPath(units=units, hops=hops, documents=2)) is expected


def test_llm_checker_needs_every_unit(graph):
    """The ablation pass with a scripted model: a judge that needs all units passes, a lax one fails."""
    from pydantic_ai.messages import ModelResponse, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    from bench.generator import llm

    path = next(p for p in walk_paths(graph, seed=1) if p.hop_count == 2)
    labels = [graph.units[u].label for u in path.units]

    def judge(strict: bool):
        def respond(messages, info):
            prompt = messages[-1].parts[-1].content
            answerable = all(f"[{label}]" in prompt for label in labels) or not strict
            return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {"answerable": answerable})])
        return FunctionModel(respond)

    assert llm.verify(judge(strict=True), graph, path, "q").passed
    lax = llm.verify(judge(strict=False), graph, path, "q")
    assert not lax.passed and all(r.startswith("necessity") for r in lax.reasons)
