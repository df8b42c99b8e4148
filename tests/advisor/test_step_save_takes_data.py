from __future__ import annotations

import pytest

from advisor.engine.answers.problems import Problem
from advisor.models import Assessment
from advisor.services import assessments
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

STARTER = "llm-fine-tuning-startup"
COST = {
    "billing": "pay_as_you_go",
    "monthly_budget_usd": 12000,
    "hours_per_day": 10,
    "ops_capacity": "part_time",
}


def _draft() -> Assessment:
    membership = MembershipFactory()
    return assessments.assessment_create(
        organization=membership.organization, user=membership.user, title="Data", starter=STARTER
    )


def test_a_section_is_saved_from_plain_data() -> None:
    assessment = _draft()
    outcome = assessments.step_save(
        assessment=assessment,
        section="cost",
        value=COST,
        raw_input={"hours_per_day": ["10"]},
        expected_version=assessment.version,
        strict=True,
    )
    assessment.refresh_from_db()
    assert outcome.ok and outcome.version == assessment.version
    assert assessment.answers["cost"] == COST
    assert assessment.pending_input == {}


def test_a_refused_value_is_dropped_and_what_was_typed_waits() -> None:
    assessment = _draft()
    typed = {"hours_per_day": ["30"], "billing": ["pay_as_you_go"]}
    outcome = assessments.step_save(
        assessment=assessment,
        section="cost",
        value=COST | {"hours_per_day": 30},
        raw_input=typed,
        expected_version=assessment.version,
        strict=False,
    )
    assessment.refresh_from_db()
    assert [p.path for p in outcome.problems] == ["cost.hours_per_day"]
    assert "hours_per_day" not in assessment.answers["cost"]
    assert assessment.answers["cost"]["monthly_budget_usd"] == 12000
    assert assessment.pending_input == {"cost": {"data": typed, "strict": False}}


def test_input_no_form_could_convert_is_reported_with_the_engines_problems() -> None:
    assessment = _draft()
    unreadable = Problem("cost.hours_per_day", "form", {"messages": ["Enter a whole number."]})
    outcome = assessments.step_save(
        assessment=assessment,
        section="cost",
        value={k: v for k, v in COST.items() if k != "hours_per_day"},
        raw_input={"hours_per_day": ["ten"]},
        input_problems=[unreadable],
        expected_version=assessment.version,
        strict=False,
    )
    assessment.refresh_from_db()
    assert outcome.problems == [unreadable]
    assert assessment.pending_input["cost"]["data"] == {"hours_per_day": ["ten"]}
