"""The operator's core customer typed in from scratch, through the wizard's pages: a Hong Kong
team serving mainland China from dedicated servers gets the operator's server, priced, first;
and a team whose workloads share the operator's servers sees one fleet on page one and in the
quote."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import Role, User
from advisor.models import Assessment, Lead
from advisor.reference.services.catalog import catalog_publish
from advisor.services import reports
from advisor.wizard.steps import BY_SLUG as STEP_BY_SLUG
from tests.advisor.test_house_offers import _offer_post, _quote_url, editor
from tests.factories import PASSWORD, CatalogFactory, MembershipFactory

__all__ = ["editor"]  # the fixture, used by name

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


# A 14B chat (Qwen2.5-14B's shape) and its weekly LoRA, best effort, typed in by a team in Hong
# Kong that rents dedicated servers; the operator's only server is one priced 8 x H200.
FOURTEEN_B_POSTS: dict[str, dict[str, Any]] = {
    "organization": {"industry": "ecommerce", "regions": ["hong_kong"]},
    "workloads": {
        "realtime_inference": "on",
        "realtime_inference_schedule": "continuous",
        "fine_tuning": "on",
        "fine_tuning_schedule": "weekly",
    },
    "work": {"unit": "tokens"},
    "model": {
        "source": "architecture",
        "parameters": "14770000000",
        "layers": "48",
        "hidden_size": "5120",
        "intermediate_size": "13824",
        "kv_heads": "8",
        "kv_group_size": "5",
        "head_dim": "128",
        "vocab_size": "152064",
        "tied_embeddings": "no",
    },
    "training": {
        "method": "lora",
        "lora_rank": "16",
        "precision": "bf16",
        "optimizer": "adamw",
        "micro_batch_size": "4",
        "sequence_length": "4096",
        "gradient_checkpointing": "yes",
        "dataset_tokens": "20000000",
        "deadline_hours": "48",
    },
    "inference": {
        "precision": "bf16",
        "tokens_per_day": "5000000",
        "prompt_tokens": "1024",
        "output_tokens": "512",
        "concurrent_sequences": "8",
        "traffic": "daily_cycle",
        "availability": "best_effort",
    },
    "maturity": {"stack_changes": "monthly", "pipeline": "evolving", "demand": "predictable"},
    "frameworks": {"primary": "pytorch", "custom_kernels": "no", "serving": "vllm"},
    "deployment": {
        "allowed_modes": ["dedicated_hosting"],
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


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_one_priced_house_h200_server_keeps_a_14b_team_on_one_server(
    editor: Client,
    language: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, usd_per_server_month="16000", price_on_request="")
    assert editor.post(reverse("admin:reference_houseoffer_add"), post).status_code == 302
    catalog_publish(catalog=draft, user=None)
    membership = MembershipFactory(role=Role.MEMBER)
    client = Client()
    client.force_login(membership.user)
    obj = _walk(client, FOURTEEN_B_POSTS, language)
    report = obj.reports.get()
    report.refresh_from_db()
    result = report.result
    firsts = {w["kind"]: w["options"][0] for w in result["workloads"]}
    assert set(firsts) == {"realtime_inference", "fine_tuning"}
    for first in firsts.values():
        price = first["prices"][first["billing_used"]]
        assert price["price_id"] == "house-hk-h200" and price["house"], first["name"]
        assert first["unit"]["name"] == "HK-H200-8"
    # Both workloads side by side on the one server, within budget (the walk found 8 + 9 H200
    # at $65,043 a month).
    (group,) = result["fleet"]["groups"]
    assert group["shared"] and group["servers_shared"] == 1 < group["servers_separate"]
    runs = {r["workload"]: r for r in group["runs"]}
    assert sum(r["cards"] for r in runs.values()) <= 8
    tune = firsts["fine_tuning"]
    assert runs["fine_tuning"]["hours"] <= tune["target_hours"]
    assert result["cost"]["monthly_total_usd"] <= 30000
    page = client.get(
        reverse("advisor:report", args=[obj.pk, report.number]), HTTP_ACCEPT_LANGUAGE=language
    ).text
    plan = page[page.index('id="report-plan"') : page.index('id="report-confidence"')]
    assert group["statement"] in html.unescape(plan)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_quote_url(report), {"term_months": 12})
    lead = Lead.objects.get()
    assert lead.server["total_units"] == 1
    assert [p["workload"] for p in lead.server["workloads"]] == [
        w["kind"] for w in result["workloads"]
    ]
