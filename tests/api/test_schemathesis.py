"""Schemathesis, a tool we did not write, holds the API to its published OpenAPI document.

It reads /api/v1/openapi.json from a live server as a member would (with their token), generates
requests from it (schema examples, boundary coverage, random fuzzing and a stateful phase that
creates assessments and reads them back) and runs every one of its checks on each answer: no 5xx,
only documented status codes, headers and bodies, schema-valid requests accepted, schema-invalid
ones refused, the token enforced. Any failure fails the build. The seed and the example counts
are fixed so that a run is repeatable; it takes about four minutes on a loaded 2-core box (the
coverage phase walks both answers versions a create accepts), hence the ten-minute limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.factories import MembershipFactory, api_token_for

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "20261130"))
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))


@pytest.mark.django_db(transaction=True)
def test_the_api_keeps_its_openapi_contract(
    live_server: Any, settings: Any, tmp_path: Path
) -> None:
    # Schemathesis sends a few thousand requests in a minute with one token; the per-token
    # limit (tested on its own in test_abuse.py) would answer most of them 429.
    settings.API_RATE_LIMIT_READS = 1_000_000
    settings.API_RATE_LIMIT_WRITES = 1_000_000
    # Its creates submit, and each submit counts against the report limits (test_costly_limits).
    settings.REPORT_REQUESTS_PER_USER = settings.REPORT_REQUESTS_PER_ORGANIZATION = 1_000_000
    # Its authentication checks send invalid tokens from one address; so is that limit.
    settings.API_INVALID_TOKENS_PER_ADDRESS = 1_000_000
    member = MembershipFactory()
    key = api_token_for(member.user)
    report = tmp_path / "report"
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{live_server.url}/api/v1/openapi.json",
        "--checks=all",
        f"--seed={SEED}",
        f"--max-examples={EXAMPLES}",
        "--phases=examples,coverage,fuzzing,stateful",
        "--workers=1",
        "--generation-database=none",
        "--no-color",
        "--output-truncate=false",
        f"--header=Authorization: Bearer {key}",
        "--report=junit",
        f"--report-dir={report}",
    ]
    # Run from an empty directory: Schemathesis keeps the failures it found under
    # ./.schemathesis and replays them first next time, which would make runs depend on history.
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
    }
    run = subprocess.run(  # noqa: S603 - our own interpreter and arguments
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    output = run.stdout + run.stderr
    print(output)  # the figures (operations, cases, time) show with `pytest -s` or on failure
    assert run.returncode == 0, output[-20_000:]
