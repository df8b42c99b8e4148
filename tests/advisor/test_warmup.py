"""A fresh web or worker process compiles the published catalog and scoring model before the
first request; a database that is not there only skips that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from advisor import warmup
from advisor.decisions import live

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_warm_up_compiles_what_the_first_request_would() -> None:
    live._compiled.clear()
    warmup.web()
    assert {kind for kind, *_ in live._compiled} == {"catalog", "scoring"}
    # The first request then only asks which versions are published: one query, no compiling.
    with CaptureQueriesContext(connection) as queries:
        catalog, scoring = live.active_both()
    assert len(queries) == 1
    assert catalog is live.active_catalog() and scoring is live.active_scoring_model()


def test_a_server_starts_even_when_its_database_is_not_there_yet() -> None:
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://nobody:nothing@127.0.0.1:9/none",
        "DJANGO_SETTINGS_MODULE": "advisor.settings",
    }
    done = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-c", "import advisor.wsgi; print('serving')"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "serving"
    assert "warm-up: the published catalog was not compiled" in done.stderr
