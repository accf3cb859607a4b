"""The worker launcher: each host:port gets its own Chainlit app root under the data dir, linking the clone's
config, public files and chainlit.md, so `.files` (which Chainlit deletes at shutdown) is never shared."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.serve import LINKED, MALLOC_ARENAS, command, prepare_root, remove_root, worker_env, worker_root
from core.settings import REPO_ROOT, Settings


def test_each_port_has_its_own_root_under_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    one, two = worker_root(settings, 8020), worker_root(settings, 8021)
    assert one != two and one.parent == two.parent
    assert one.is_relative_to(settings.app_path.resolve()) and not one.is_relative_to(REPO_ROOT)
    assert worker_root(settings, 8020) == one  # a restart on the same port reuses its folder


def test_root_links_back_to_the_clone(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    (clone / ".chainlit").mkdir(parents=True)
    (clone / ".chainlit" / "config.toml").write_text("[project]\n")
    (clone / "public").mkdir()
    (clone / "chainlit.md").write_text("# hi\n")
    root = prepare_root(tmp_path / "root", clone)
    assert all(Path(os.readlink(root / name)) == clone / name for name in LINKED)
    assert (root / ".chainlit" / "config.toml").read_text() == "[project]\n"
    moved = tmp_path / "moved"
    clone.rename(moved)
    prepare_root(root, moved)  # a clone moved elsewhere: stale links are replaced, not kept
    assert Path(os.readlink(root / "public")) == moved / "public"
    assert not (root / ".files").exists()  # Chainlit makes it; the launcher only points at its parent


def test_a_real_folder_in_the_way_is_named(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "public").mkdir(parents=True)
    with pytest.raises(SystemExit, match="public"):
        prepare_root(root)


def test_command_runs_the_clones_app() -> None:
    argv = command("127.0.0.1", 8022)
    assert argv[1:3] == ["run", str(REPO_ROOT / "app.py")] and "8022" in argv and "--headless" in argv


def test_a_stopped_workers_folder_is_removed_only_when_it_holds_just_the_links(tmp_path: Path) -> None:
    clean = prepare_root(tmp_path / "clean")
    assert remove_root(clean) and not clean.exists()
    crashed = prepare_root(tmp_path / "crashed")
    (crashed / ".files").mkdir()  # a worker killed before its shutdown: left for the next start on the port
    assert not remove_root(crashed) and (crashed / ".files").is_dir()


def test_the_worker_caps_the_allocators_arenas_and_shares_reads_unless_the_operator_said_otherwise(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    env = worker_env({"PATH": "/bin"}, tmp_path, settings)
    assert env == {"PATH": "/bin", "MALLOC_ARENA_MAX": MALLOC_ARENAS, "CHAINLIT_APP_ROOT": str(tmp_path),
                   "CITEWALK_SHARED_READS_DIR": str(settings.app_path / "token_reads")}
    assert worker_env({"MALLOC_ARENA_MAX": "8"}, tmp_path, settings)["MALLOC_ARENA_MAX"] == "8"
    assert worker_env({"CITEWALK_SHARED_READS_DIR": "/elsewhere"}, tmp_path, settings)["CITEWALK_SHARED_READS_DIR"] == "/elsewhere"
