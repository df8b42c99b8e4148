"""Settings are read from the environment: each mode is checked in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'broker': s.CELERY_BROKER_URL, "
    "'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG, "
    "'secure_cookies': s.SESSION_COOKIE_SECURE, 'hsts': s.SECURE_HSTS_SECONDS}))"
)
SERVICE_VARS = (
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "EMAIL_BACKEND",
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    env.update({"DJANGO_SETTINGS_MODULE": "advisor.settings", "VAR_DIR": str(tmp_path)}, **extra)
    return env


def _probe(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_without_service_urls_it_runs_on_sqlite_and_the_filesystem_broker(tmp_path: Path) -> None:
    found = _probe(_env(tmp_path, DEBUG="true"))
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"] == str(ROOT / "db.sqlite3")
    assert found["broker"] == "filesystem://"
    assert (tmp_path / "dev-secret-key").exists()


def test_database_and_redis_urls_select_postgresql_and_redis(tmp_path: Path) -> None:
    found = _probe(
        _env(
            tmp_path,
            DEBUG="true",
            DATABASE_URL="postgres://u:p@db.internal:5432/advisor",
            REDIS_URL="redis://cache.internal:6379/0",
        )
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["name"] == "advisor"
    assert found["broker"] == "redis://cache.internal:6379/0"
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_production_defaults_are_secure_and_pass_check_deploy(tmp_path: Path) -> None:
    env = _env(tmp_path, SECRET_KEY="k" * 20 + "-not-a-real-secret-but-long-enough-for-the-check")
    found = _probe(env)
    assert found["debug"] is False
    assert found["secure_cookies"] is True
    assert found["hsts"] == 31_536_000
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def test_production_without_a_secret_key_refuses_to_start(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_a_malformed_boolean_setting_names_the_variable(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(tmp_path, DEBUG="maybe"),
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


@pytest.mark.slow
def test_embedded_mode_migrates_sqlite_and_a_real_worker_answers(tmp_path: Path) -> None:
    from tests.conftest import start_worker, stop_worker

    env = _env(tmp_path, DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    worker = start_worker(env, tmp_path / "worker.log")
    try:
        result = subprocess.run(
            [sys.executable, "manage.py", "healthcheck", "--worker", "--timeout", "20"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        stop_worker(worker)
    assert result.returncode == 0, result.stderr
    assert "worker: ok" in result.stdout
