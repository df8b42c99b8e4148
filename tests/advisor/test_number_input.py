"""Numbers in the wizard accept thousands separators as people type them ("8,000", "8 000"),
and the review page shows them grouped; an ambiguous "8,5" is refused with the input kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment
from tests.factories import MembershipFactory
from tests.wizard_posts import POSTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(client: Client) -> Assessment:
    membership = MembershipFactory()
    client.force_login(membership.user)
    obj = Assessment.objects.create(
        organization=membership.organization,
        created_by=membership.user,
        title="Numbers",
        answers={"schema_version": 2},
    )
    for slug in ("organization", "workloads", "model"):
        _post(client, obj, slug, POSTS[slug])
    return obj


def _post(client: Client, obj: Assessment, slug: str, data: dict[str, Any]) -> Any:
    obj.refresh_from_db()
    url = reverse("advisor:step", kwargs={"pk": obj.pk, "slug": slug})
    return client.post(url, {**data, "version": obj.version})


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("20,000,000", 20_000_000), ("20 000 000", 20_000_000), ("20\u00a0000\u00a0000", 20_000_000)],
)
def test_grouped_numbers_are_read_as_numbers(
    client: Client, draft: Assessment, typed: str, stored: int
) -> None:
    data = {**POSTS["inference"], "tokens_per_day": typed, "p95_latency_ms": "8,000"}
    assert _post(client, draft, "inference", data).status_code == 302
    draft.refresh_from_db()
    assert draft.answers["inference"]["tokens_per_day"] == stored
    assert draft.answers["inference"]["p95_latency_ms"] == 8000
    review = client.get(reverse("advisor:step", kwargs={"pk": draft.pk, "slug": "review"}))
    assert "20,000,000" in review.text


def test_a_comma_that_is_not_a_thousands_group_is_refused_and_kept(
    client: Client, draft: Assessment
) -> None:
    data = {**POSTS["inference"], "concurrent_sequences": "8,5"}
    response = _post(client, draft, "inference", data)
    # Refused input sends the person back to the same step, their text shown with the reason.
    assert response["Location"].endswith("/steps/inference/")
    page = client.get(response["Location"])
    assert 'value="8,5"' in page.text
    assert "whole number" in page.text
    draft.refresh_from_db()
    assert "concurrent_sequences" not in draft.answers.get("inference", {})
