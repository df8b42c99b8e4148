"""Hostile and random posts to every wizard step: never a 500, never a stored invalid draft."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.engine.answers.problems import check_partial
from advisor.models import Assessment
from advisor.wizard.forms_by_step import FORMS
from advisor.wizard.steps import STEPS
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
FIELD_NAMES = sorted(
    {name for form in FORMS.values() for name in form().fields}
    | {"fine_tuning", "pretraining", "source", "action", "version"}
)
HOSTILE = st.sampled_from(
    [
        "",
        "-1",
        "0",
        "1e308",
        "nan",
        "inf",
        "1" * 400,
        "<script>alert(1)</script>",
        "'; DROP TABLE advisor_assessment; --",
        "\x00",
        "yes",
        "no",
        "lora",
        "public_cloud",
        "llama-3-8b",
        "架構",
        "10000000000000000",
    ]
)
VALUES = st.one_of(HOSTILE, st.text(max_size=40), st.integers().map(str))
POST = st.dictionaries(
    st.sampled_from(FIELD_NAMES), st.lists(VALUES, min_size=1, max_size=3), max_size=12
)


@pytest.fixture
def logged_in(client: Client) -> tuple[Client, Assessment]:
    membership = MembershipFactory()
    client.force_login(membership.user)
    obj = AssessmentFactory(membership=membership, title="Fuzz", starter="llm-fine-tuning-startup")
    return client, obj


@pytest.mark.parametrize("slug", [s.slug for s in STEPS])
def test_random_and_hostile_posts_never_break_a_step(
    logged_in: tuple[Client, Assessment], slug: str
) -> None:
    client, obj = logged_in

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(data=POST, htmx=st.booleans(), keep_version=st.booleans())
    def run(data: dict[str, list[str]], htmx: bool, keep_version: bool) -> None:
        obj.refresh_from_db()
        body: dict[str, Any] = dict(data)
        if keep_version:
            body["version"] = str(obj.version)
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "wizard"} if htmx else {}
        response = client.post(f"/assessments/{obj.pk}/steps/{slug}/", body, **headers)
        assert response.status_code < 500
        obj.refresh_from_db()
        assert check_partial(obj.answers) == []
        if obj.status == Assessment.Status.DRAFT:
            page = client.get(f"/assessments/{obj.pk}/steps/{slug}/", follow=True)
            assert page.status_code == 200

    run()
