"""The operator's core customer typed in from scratch, through the wizard's pages: a Hong Kong
team serving mainland China from dedicated servers gets the operator's server, priced, first;
and a team whose workloads share the operator's servers sees one fleet on page one and in the
quote."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from advisor.models import Assessment
from advisor.services import reports
from advisor.steps import BY_SLUG as STEP_BY_SLUG
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

# The core customer as a newcomer answers it (the sample's answers, mainland China ticked as a
# region): Hong Kong and mainland China, an 8B assistant around the clock, dedicated servers or
# bare metal, a commitment, a budget.
CORE_POSTS: dict[str, dict[str, Any]] = {
    "organization": {"industry": "ecommerce", "regions": ["hong_kong", "mainland_china"]},
    "workloads": {"realtime_inference": "on", "realtime_inference_schedule": "continuous"},
    "work": {"unit": "tokens"},
    "model": {"source": "preset", "preset": "llama-3-8b"},
    "inference": {
        "precision": "bf16",
        "prompt_tokens": "3584",
        "output_tokens": "512",
        "concurrent_sequences": "32",
        "p95_latency_ms": "4000",
        "tokens_per_day": "200000000",
        "traffic": "daily_cycle",
    },
    "maturity": {"stack_changes": "monthly", "pipeline": "evolving", "demand": "predictable"},
    "frameworks": {"primary": "pytorch", "custom_kernels": "no", "serving": "vllm"},
    "deployment": {
        "allowed_modes": ["dedicated_hosting", "bare_metal"],
        "portability": "preferred",
        "data_residency": "none",
    },
    "cost": {
        "billing": "committed",
        "monthly_budget_usd": "30000",
        "hours_per_day": "24",
        "ops_capacity": "part_time",
    },
}


def _walk(client: Client, posts: dict[str, dict[str, Any]], language: str) -> Assessment:
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    made = client.post(
        reverse("advisor:assessment_new"), {"title": "From scratch", "starter": ""}, **headers
    )
    assert made.status_code == 302
    obj = Assessment.objects.latest("pk")
    for slug in (s for s in STEP_BY_SLUG if s in posts):
        obj.refresh_from_db()
        if not STEP_BY_SLUG[slug].is_applicable(obj.answers):
            continue
        url = reverse("advisor:step", kwargs={"pk": obj.pk, "slug": slug})
        saved = client.post(url, {**posts[slug], "version": obj.version}, **headers)
        assert saved.status_code == 302, (slug, saved.content[:1500])
    obj.refresh_from_db()
    done = client.post(
        reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version}, **headers
    )
    assert done.status_code == 302, done.content[:1500]
    report = obj.reports.get()
    reports.report_generate(report_id=report.pk)
    return obj


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_hong_kong_team_serving_mainland_china_typed_in_gets_the_operators_server(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    call_command("seed", password=PASSWORD, samples=False)
    client = Client()
    client.force_login(User.objects.get(email="member@demo.example"))
    obj = _walk(client, CORE_POSTS, language)
    report = obj.reports.get()
    report.refresh_from_db()
    first = report.result["workloads"][0]["options"][0]
    price = first["prices"][first["billing_used"]]
    assert price["house"] and price["demo"] and price["provider"] == "Harbour GPU Cloud"
    assert first["meets_latency"] is True and not report.result["workloads"][0].get("dead_end")
    # China reach is counted from the proposed server's own city, over its own route.
    reach = first["china_reach"]
    assert reach["region"] == price["server"].get("region_key", reach["region"])
    assert reach["premium_route"] == price["server"]["china_bandwidth_type"] == "cn2_gia"
    page = client.get(
        reverse("advisor:report", args=[obj.pk, report.number]),
        HTTP_ACCEPT_LANGUAGE=language,
    ).text
    plan = page[page.index('id="report-plan"') : page.index('id="report-confidence"')]
    words = {
        "en": ("No option meets all your answers yet", "Demo price list", "servers, 8 ×"),
        "zh-hant": ("目前沒有方案能符合", "示範價目表", "台 \\S+ 伺服器"),
    }[language]
    assert words[0] not in page
    assert words[1] in plan and first["unit"]["name"] in plan
    assert re.search(words[2], plan)
    # The quote is the plan: the server, how many, what it costs.
    card = page[page.index('id="quote"') :]
    assert first["unit"]["name"] in card and "CN2 GIA" in card
