"""Ingest into the real Neo4j and Chroma: idempotence, in-place updates, removals, bad input."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.lexical import LexicalIndex
from core.stores import chroma_store
from ingest.pipeline import run_ingest

SECTIONS = ["164-508-uses-disclosures-authorization.md", "164-501-definitions.md", "164-502-uses-disclosures-general.md"]


@pytest.fixture()
def mini_hipaa(hipaa_dir: Path, tmp_path: Path) -> Path:
    """A three-section copy of the HIPAA corpus that a test may edit."""
    root = tmp_path / "mini-hipaa"
    (root / "regulations").mkdir(parents=True)
    shutil.copy(hipaa_dir / "hipaa.yml", root / "hipaa.yml")
    for name in SECTIONS:
        shutil.copy(hipaa_dir / "regulations" / name, root / "regulations" / name)
    return root


def _unit_ids(driver, database: str, document_id: str) -> set[str]:
    with driver.session(database=database) as session:
        return {r["id"] for r in session.run("MATCH (u:Unit {document_id: $d}) RETURN u.id AS id", d=document_id)}


def _count(driver, database: str, query: str, **params) -> int:
    with driver.session(database=database) as session:
        return session.run(query, **params).single()[0]


def test_ingest_is_idempotent_and_updates_in_place(mini_hipaa, test_settings, neo4j_driver, chroma_client):
    db = test_settings.neo4j_database
    first = run_ingest([mini_hipaa], "mini", test_settings, quiet=True)
    assert not first.failures
    assert first.documents_written == first.documents > 3
    units = _count(neo4j_driver, db, "MATCH (u:Unit {corpus: 'mini'}) WHERE u.pending IS NULL RETURN count(u)")
    edges = _count(neo4j_driver, db, "MATCH (:Unit {corpus: 'mini'})-[r]->() RETURN count(r)")
    assert units == sum(first.units_by_type.values())
    assert edges > units  # containment alone gives units-1 edges; citations add more
    vectors = chroma_store.collection(chroma_client, "mini").count()
    assert vectors >= units

    second = run_ingest([mini_hipaa], "mini", test_settings, quiet=True)
    assert second.documents_unchanged == second.documents and second.vectors_embedded == 0
    assert _count(neo4j_driver, db, "MATCH (u:Unit {corpus: 'mini'}) WHERE u.pending IS NULL RETURN count(u)") == units
    assert _count(neo4j_driver, db, "MATCH (:Unit {corpus: 'mini'})-[r]->() RETURN count(r)") == edges
    assert chroma_store.collection(chroma_client, "mini").count() == vectors

    # Drop paragraph (c) of 164.508 and change a word: the unit set shrinks, text updates in place.
    path = mini_hipaa / "regulations" / SECTIONS[0]
    text = path.read_text()
    cut = text.rindex("\n&#40;c)")
    path.write_text(text[:cut].replace("psychotherapy notes", "psychotherapy NOTES", 1) + "\n")
    before = _unit_ids(neo4j_driver, db, "mini/164.508")
    third = run_ingest([mini_hipaa], "mini", test_settings, quiet=True)
    after = _unit_ids(neo4j_driver, db, "mini/164.508")
    assert third.documents_written >= 1
    assert after < before and not any(uid.startswith("mini/164.508/c") for uid in after)
    assert _count(neo4j_driver, db, "MATCH (u:Unit) WHERE u.document_id = 'mini/164.508' AND u.text CONTAINS 'psychotherapy NOTES' RETURN count(u)") == 1
    stale_vectors = chroma_store.collection(chroma_client, "mini").get(where={"document_id": "mini/164.508"})["ids"]
    assert all(v.split("#")[0] in after for v in stale_vectors)

    index = LexicalIndex.load(test_settings.lexical_path / "mini")
    assert set(index.unit_ids) >= after
    assert index.search("authorization psychotherapy notes", 5)


def test_bad_file_fails_alone_and_keeps_previous_version(mini_hipaa, test_settings, neo4j_driver):
    db = test_settings.neo4j_database
    run_ingest([mini_hipaa], "mini2", test_settings, quiet=True)
    before = _unit_ids(neo4j_driver, db, "mini2/164.502")
    assert before
    (mini_hipaa / "regulations" / SECTIONS[2]).write_bytes(b"\x00\x01\x02\xff\xfe binary junk")
    summary = run_ingest([mini_hipaa], "mini2", test_settings, quiet=True)
    assert len(summary.failures) == 1 and SECTIONS[2] in summary.failures[0].path
    assert _unit_ids(neo4j_driver, db, "mini2/164.502") == before
    # Citations into the failed document still resolve to its stored units, not to External nodes.
    assert _count(neo4j_driver, db, "MATCH (:Unit {document_id: 'mini2/164.508'})-[r]->(t:Unit {document_id: 'mini2/164.502'}) "
                  "WHERE type(r) <> 'CONTAINS' RETURN count(r)") > 0


def test_a_failing_side_of_the_pipeline_fails_the_ingest_and_a_rerun_completes(mini_hipaa, test_settings, neo4j_driver,
                                                                              chroma_client, monkeypatch):
    """The graph writes and the vectors run at once (ingest/pipeline.py): an error on either side is the ingest's
    error, the other side stops, and a second run writes what the first did not."""
    from core.embeddings.base import Embedder
    from core.stores import neo4j_store

    def embedding_fails(self, texts, show_progress=False, cache=None):
        raise RuntimeError("model crashed")

    with monkeypatch.context() as patch:
        patch.setattr(Embedder, "embed", embedding_fails)
        with pytest.raises(RuntimeError, match="model crashed"):
            run_ingest([mini_hipaa], "pipe", test_settings, quiet=True)
    assert chroma_store.collection(chroma_client, "pipe").count() == 0

    original = neo4j_store.write_document

    def graph_fails(*args, **kwargs):
        raise RuntimeError("graph write refused")

    with monkeypatch.context() as patch:
        patch.setattr(neo4j_store, "write_document", graph_fails)
        with pytest.raises(RuntimeError, match="graph write refused"):
            run_ingest([mini_hipaa], "pipe2", test_settings, quiet=True)
    assert neo4j_store.write_document is original

    done = run_ingest([mini_hipaa], "pipe", test_settings, quiet=True)
    units = sum(done.units_by_type.values())
    assert done.documents_written + done.documents_unchanged == done.documents and done.vectors_embedded >= units
    assert chroma_store.collection(chroma_client, "pipe").count() == done.vectors_embedded
