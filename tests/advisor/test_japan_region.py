"""The wizard offers "Japan outside Tokyo" (the catalog's "japan" region: Sakura
Ishikari, HIGHRESO) in both languages, and a team there gets a report."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _url(obj: Assessment) -> str:
    return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"})


@pytest.mark.parametrize(
    ("accept", "label", "help_text"),
    [
        ("en", "Japan outside Tokyo", "Japan outside Tokyo takes servers anywhere in Japan"),
        ("zh-TW", "日本（東京以外）", "選「日本（東京以外）」也接受日本任何地方的伺服器"),
    ],
)
def test_the_region_step_offers_japan_outside_tokyo(
    client: Client, member: Any, accept: str, label: str, help_text: str
) -> None:
    obj = AssessmentFactory(membership=member, answers={"schema_version": 2})
    page = client.get(_url(obj), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert 'value="japan"' in page and label in page and help_text in page


def test_a_team_anywhere_in_japan_saves_and_gets_a_report_with_tokyo_prices(
    client: Client, member: Any
) -> None:
    from advisor.starters import BY_SLUG

    answers = BY_SLUG["realtime-chatbot"].document()
    answers["deployment"]["data_residency"] = "in_region"
    answers["deployment"]["allowed_modes"] = ["public_cloud"]
    obj = AssessmentFactory(membership=member, answers=answers)
    response = client.post(
        _url(obj), {"industry": "ecommerce", "regions": ["japan"], "version": obj.version}
    )
    assert response.status_code == 302
    obj.refresh_from_db()
    assert obj.answers["organization"]["regions"] == ["japan"]
    review = reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "review"})
    assert "Japan outside Tokyo" in client.get(review).content.decode()
    obj.refresh_from_db()
    obj.status = Assessment.Status.SUBMITTED
    obj.save(update_fields=["status"])
    prices = ReportFactory(assessment=obj).result["cost"]["prices_used"]
    regions = {p["region"] for p in prices}
    assert any("Tokyo" in r for r in regions)
    assert not any("Hong Kong" in r or "Singapore" in r for r in regions)
