"""Dead ends through the API: a dead-end workload's result carries what rules its options
out, the relaxations that bring them back, and (where the operator sells) the quote."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.engine.test_dead_ends import LA_70B_DEDICATED
from tests.factories import MembershipFactory, api_token_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_the_api_result_carries_the_dead_end_block(client: Client, language: str) -> None:
    headers = {
        "Authorization": f"Bearer {api_token_for(MembershipFactory().user)}",
        "Accept-Language": language,
    }
    body = {"title": "LA 70B on dedicated servers", "answers": LA_70B_DEDICATED}
    response = client.post(
        "/api/v1/assessments", json.dumps(body), content_type="application/json", headers=headers
    )
    assert response.status_code == 201, response.content
    (w,) = response.json()["result"]["workloads"]
    dead = w["dead_end"]
    assert dead["status"] == "no_option" and dead["blocking"]
    assert dead["statement"].startswith("real-time inference" if language == "en" else "即時推論")
    first = dead["relaxations"][0]
    assert first["option"]["monthly_cost_usd"] > 0 and first["gives_up"]
    assert first in response.json()["result"]["recommendation"]["would_change_if"]
    assert "quote" in dead  # none: the operator sells nothing in Los Angeles in this catalog
    again = client.get(f"/api/v1/assessments/{response.json()['id']}", headers=headers)
    assert again.json()["result"]["workloads"][0]["dead_end"] == dead
