"""Start-up faults give one clear line naming the setting to fix, never a bare traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import Settings
from core.stores import chroma_store, neo4j_store
from tests.conftest import free_port


def test_wrong_neo4j_password_names_the_setting(test_settings: Settings, neo4j_driver):
    wrong = test_settings.model_copy(update={
        "neo4j_uri": f"bolt://127.0.0.1:{test_settings.neo4j_bolt_port}", "neo4j_password": "not-the-password"})
    with pytest.raises(neo4j_store.GraphStoreError, match="NEO4J_PASSWORD"):
        neo4j_store.connect(wrong)


def test_neo4j_not_answering_names_the_setting(tmp_path: Path):
    dead = Settings(data_dir=tmp_path, neo4j_uri=f"bolt://127.0.0.1:{free_port()}", neo4j_password="x")
    with pytest.raises(neo4j_store.GraphStoreError, match="NEO4J_URI"):
        neo4j_store.connect(dead)


def test_corrupted_chroma_directory_names_the_setting(tmp_path: Path):
    (tmp_path / "chroma").mkdir()
    (tmp_path / "chroma" / "chroma.sqlite3").write_bytes(b"not a database" * 500)
    with pytest.raises(chroma_store.VectorStoreError, match="CITEWALK_DATA_DIR"):
        chroma_store.collection(chroma_store.client(Settings(data_dir=tmp_path)), "x")


def test_unwritable_chroma_location_names_the_setting(tmp_path: Path):
    blocker = tmp_path / "a-file"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(chroma_store.VectorStoreError, match="CITEWALK_DATA_DIR"):
        chroma_store.client(Settings(data_dir=blocker))
