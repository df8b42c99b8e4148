"""The plugin that keeps parallel test workers apart (tests/xdist_isolation.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.xdist_isolation import isolate


def test_each_worker_gets_its_own_redis_database_above_the_given_one() -> None:
    urls = set()
    for worker in range(4):
        env = {"REDIS_URL": "redis://127.0.0.1:63799/0", "VAR_DIR": "/v"}
        isolate(env, worker)
        urls.add(env["REDIS_URL"])
        assert env["REDIS_URL"] == f"redis://127.0.0.1:63799/{worker + 1}"
    assert len(urls) == 4


def test_a_password_and_a_base_index_survive() -> None:
    env = {"REDIS_URL": "redis://:secret@host:6379/5"}
    isolate(env, 1)
    assert env["REDIS_URL"] == "redis://:secret@host:6379/7"


def test_each_worker_gets_its_own_media_folder(tmp_path: Path) -> None:
    roots = set()
    for worker in range(2):
        env = {"VAR_DIR": str(tmp_path)}
        isolate(env, worker)
        roots.add(env["MEDIA_ROOT"])
        assert Path(env["MEDIA_ROOT"]).parent == tmp_path
    assert len(roots) == 2


def test_a_worker_beyond_the_redis_databases_is_refused() -> None:
    with pytest.raises(RuntimeError, match="database 16"):
        isolate({"REDIS_URL": "redis://127.0.0.1:6379/12"}, 3)


def test_without_redis_only_the_media_folder_moves() -> None:
    env = {"VAR_DIR": "/v"}
    isolate(env, 0)
    assert "REDIS_URL" not in env
    assert env["MEDIA_ROOT"] == "/v/media-gw0"
