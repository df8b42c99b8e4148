"""The red team's 190,000 bad regions through the wizard and `manage.py assess`: the
answer stays small and the work bounded, as it does through the API (tests/api/test_abuse.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from advisor.management.commands.assess import Command
from advisor.models import Assessment
from tests.advisor.test_wizard import FULL, HTMX, _new, _url
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

MAX_ANSWER_BYTES = 64 * 1024


@pytest.fixture
def member(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _hostile(regions: int = 190_000, unknown_keys: int = 0) -> dict[str, Any]:
    answers = copy.deepcopy(FULL)
    answers["organization"]["regions"] = ["x"] * regions
    for section in answers.values():
        if isinstance(section, dict):
            section.update({f"k{i}": 0 for i in range(unknown_keys)})
    return answers


# --- Wizard step posts ---------------------------------------------------------------------------


@pytest.mark.parametrize(("regions", "status"), [(190_000, 413), (5_000, 400)])
def test_a_step_post_with_thousands_of_bad_regions_is_a_small_4xx_and_stores_nothing(
    client: Client, member: Any, regions: int, status: int
) -> None:
    obj = _new(member, FULL)
    # 190,000 values (about 19 MB as a multipart form) are over the body cap of signed-in pages
    # (REQUEST_BODY_MAX_BYTES): refused by its length before Django reads it. 5,000 fit the
    # cap, and Django refuses a form with more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000)
    # values before the view runs.
    response = client.post(_url(obj, "organization"), {"regions": ["x"] * regions})
    assert response.status_code == status
    assert len(response.content) < MAX_ANSWER_BYTES
    obj.refresh_from_db()
    assert obj.answers == FULL and obj.pending_input == {}


def test_a_step_post_with_900_bad_regions_shows_one_error_and_keeps_a_bounded_copy(
    client: Client, member: Any
) -> None:
    obj = _new(member, FULL)
    data = {"industry": "research", "regions": ["x"] * 900, "version": obj.version}
    response = client.post(_url(obj, "organization"), data, **HTMX)
    assert response.status_code == 200
    assert len(response.content) < MAX_ANSWER_BYTES
    assert response.content.count(b"is not one of the available choices") == 1
    obj.refresh_from_db()
    # The refused regions are left out of the answers and wait, cut short, to be fixed.
    assert obj.answers["organization"] == {"industry": "research"}
    assert len(obj.pending_input["organization"]["data"]["regions"]) <= 64


# --- manage.py assess ----------------------------------------------------------------------------


def _assess(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_code:
        Command().run_from_argv(["manage.py", "assess", str(path), *args])
    code = exit_code.value.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


def test_manage_py_assess_reports_190000_bad_regions_as_one_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(_hostile()))
    code, err = _assess(path, capsys)
    assert code == 2
    assert "organization.regions: Regions: at most 10 entries, not 190000" in err.splitlines()
    assert len(err.splitlines()) <= 12 and len(err) < 4_000


def test_manage_py_assess_prints_50_problems_then_how_many_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(_hostile(regions=40_000, unknown_keys=3_000)))
    code, err = _assess(path, capsys)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 51 and len(err) < MAX_ANSWER_BYTES
    assert lines[-1].startswith("(document): ... and ")
    assert lines[-1].endswith("more problem(s), not listed")
    assert not Assessment.objects.exists()
