"""The public re-rank API and the benchmark harness on a tiny units-format file."""
from __future__ import annotations

import json

from bench import retrieval as harness
from core.retrieval.base import RetrievalRequest
from core.retrieval.registry import get_retriever
from core.retrieval.rerank_api import ExternalHit, rerank
from core.stores.graph_reader import UNAVAILABLE

QUESTION = "What must a business associate contract contain?"


def test_rerank_expands_and_keeps_provenance(test_settings, hipaa_corpus, neo4j_driver):
    flat = get_retriever("bm25", test_settings).retrieve(RetrievalRequest(question=QUESTION, corpus=hipaa_corpus, k=5))
    hits = [ExternalHit(unit_id=h.unit_id, score=h.score) for h in flat.hits] + [ExternalHit(unit_id="nope", score=1)]
    result = rerank(QUESTION, hipaa_corpus, hits, k=30, settings=test_settings)
    ids = [h.unit_id for h in result.hits]
    assert set(ids) >= {h.unit_id for h in flat.hits}
    assert any("not in corpus" in d for d in result.degraded) and "nope" not in ids
    kinds = {p.kind for h in result.hits for p in h.provenance}
    assert "external" in kinds
    external = {h.unit_id: p for h in result.hits for p in h.provenance if p.kind == "external"}
    assert external[flat.hits[0].unit_id].rank == 1


def test_rerank_with_neo4j_down_returns_their_hits(test_settings, hipaa_corpus):
    from tests.conftest import free_port

    dead = test_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "neo4j_password": "x"})
    hits = [ExternalHit(unit_id=u, score=s) for u, s in (("hipaa/164.504", 3.0), ("hipaa/164.502", 2.0))]
    result = rerank(QUESTION, hipaa_corpus, hits, settings=dead)
    assert [h.unit_id for h in result.hits] and {h.unit_id for h in result.hits} <= {"hipaa/164.504", "hipaa/164.502"}
    assert any(d == UNAVAILABLE for d in result.degraded)


def test_harness_on_units_file(tmp_path, test_settings, hipaa_corpus, monkeypatch):
    """The bench harness end to end (two methods, the report, its plot). Up to ~65 s on a fresh machine: in its
    worker it is often the first test to load the embedding model (on a fresh machine, its one-time ONNX export)
    and opens the corpus for two retrieval configurations."""
    top = get_retriever("bm25", test_settings).retrieve(RetrievalRequest(question=QUESTION, corpus=hipaa_corpus)).hits
    rows = [
        {"id": "q1", "question": QUESTION, "gold_unit_ids": [top[0].unit_id]},
        {"id": "q2", "question": "Which penalties apply for violations?", "gold_labels": ["45 CFR 160.404"]},
    ]
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(json.dumps(r) for r in rows))
    monkeypatch.setattr(harness, "get_settings", lambda: test_settings)
    out, trec = tmp_path / "r.json", tmp_path / "r.trec"
    assert harness.main(["--questions", str(questions), "--methods", "bm25,citewalk", "--corpus", hipaa_corpus,
                         "--out", str(out), "--run-out", str(trec)]) == 0
    report = json.loads(out.read_text())
    for method in ("bm25", "citewalk"):
        values = report["methods"][method]
        assert {"Recall@10", "nDCG@10", "MAP@10", "MRR", "FullCov@10", "latency_ms"} <= set(values)
        assert 0 <= values["Recall@10"] <= 1 and values["latency_ms"]["p95"] >= values["latency_ms"]["p50"]
    assert out.with_suffix(".png").stat().st_size > 1000
    lines = trec.read_text().splitlines()
    assert lines[0].split()[1] == "Q0" and len(lines[0].split()) == 6
    assert {line.split()[5] for line in lines} == {"bm25", "citewalk"}


def test_label_gold_matches_at_or_below(test_settings, hipaa_corpus):
    members = harness.label_members(test_settings, hipaa_corpus, {"45 CFR 164.508"})
    assert members and set(members.values()) == {"45 CFR 164.508"}
    below = [u for u in members if u != "hipaa/164.508"]
    ranked = harness.as_labels([("other", 3.0), (below[0], 2.0), ("hipaa/164.508", 1.0)], members)
    assert ranked == [("other", 3.0), ("45 CFR 164.508", 2.0)]
    # A gold label names its unit whatever its case ("…, Recital 32" for an ingested "…, recital 32").
    assert set(harness.label_members(test_settings, hipaa_corpus, {"45 cfr 164.508"}).values()) == {"45 cfr 164.508"}


def test_xrefrag_loader_and_scores(tmp_path):
    row = {"id": "x1", "method": "DPEL", "question": "q", "source_passage_id": "a", "target_passage_id": "b",
           "reference_type": "Internal"}
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(row))
    questions, fmt, by_label = harness.load_questions(path, None, None)
    assert fmt == "xrefrag" and not by_label and questions[0].gold == ["a", "b"]
    assert harness.xref_scores(questions, {"x1": [("a", 2.0), ("c", 1.0)]}) == {"Both@10": 0.0, "SRC@10": 1.0, "TGT@10": 0.0}
