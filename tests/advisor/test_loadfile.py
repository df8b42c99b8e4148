"""`make load`'s locustfile imports, and its simulated people are the flows the load is about.
Run in a child process: importing Locust patches the standard library with gevent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from locust import LoadTestShape
from locust.user.users import User
import loadtest.locustfile as lf
users = {n: c for n, c in vars(lf).items()
         if isinstance(c, type) and issubclass(c, User) and not c.__dict__.get("abstract")}
shapes = [n for n, c in vars(lf).items()
          if isinstance(c, type) and issubclass(c, LoadTestShape) and c is not LoadTestShape]
print(json.dumps({
    "users": {n: sorted(t.__name__ for t in c.tasks) for n, c in users.items()},
    "weights": {n: c.weight for n, c in users.items()},
    "flows": lf.FLOWS,
    "shapes": shapes,
    "steps": sorted(lf.POSTS),
}))
"""


@pytest.fixture(scope="module")
def found() -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_the_locustfile_names_the_people_and_their_flows(found: dict[str, Any]) -> None:
    assert found["users"] == {
        "Person": ["fill_in_an_assessment_and_read_its_report"],
        "SalesEngineer": ["share_a_report"],
        "Visitor": ["open_a_shared_report"],
    }
    assert set(found["flows"]) == set(found["users"])
    assert all(weight > 0 for weight in found["weights"].values())
    assert found["shapes"] == ["StepLoad"]


def test_the_locustfile_answers_every_step_of_the_wizard(found: dict[str, Any]) -> None:
    from advisor.wizard.steps import STEPS

    assert set(found["steps"]) == {step.slug for step in STEPS if step.section is not None}
