from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from advisor.models import Assessment
from advisor.starters import BY_SLUG as STARTERS
from advisor.wizard import STEPS
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

FULL = STARTERS["llm-fine-tuning-startup"].answers
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "wizard"}

# Form posts that reproduce FULL, step by step.
POSTS: dict[str, dict[str, Any]] = {
    "organization": {"industry": "research", "regions": ["hong_kong", "singapore"]},
    "workloads": {
        "fine_tuning": "on",
        "fine_tuning_schedule": "weekly",
        "realtime_inference": "on",
        "realtime_inference_schedule": "continuous",
    },
    "model": {"source": "preset", "preset": "llama-3-8b"},
    "training": {
        "method": "lora",
        "lora_rank": "16",
        "precision": "bf16_mixed",
        "optimizer": "adamw",
        "micro_batch_size": "4",
        "sequence_length": "4096",
        "gradient_checkpointing": "yes",
        "dataset_tokens": "200000000",
        "epochs": "2",
        "deadline_hours": "24",
    },
    "inference": {
        "precision": "bf16",
        "context_tokens": "4096",
        "output_tokens": "512",
        "concurrent_sequences": "32",
        "p95_latency_ms": "8000",
        "tokens_per_day": "20000000",
        "traffic": "bursty",
    },
    "maturity": {"stack_changes": "weekly", "pipeline": "exploratory", "demand": "unpredictable"},
    "frameworks": {"primary": "pytorch", "custom_kernels": "yes", "serving": "vllm"},
    "deployment": {
        "allowed_modes": ["public_cloud", "dedicated_hosting"],
        "portability": "preferred",
        "china_connectivity": "no",
        "data_residency": "none",
    },
    "cost": {
        "billing": "pay_as_you_go",
        "monthly_budget_usd": "15000",
        "hours_per_day": "8",
        "ops_capacity": "part_time",
    },
}


@pytest.fixture
def member(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _new(member: Any, answers: dict[str, Any] | None = None) -> Assessment:
    return Assessment.objects.create(
        organization=member.organization,
        created_by=member.user,
        title="Test",
        answers=copy.deepcopy(answers) if answers is not None else {"schema_version": 1},
    )


def _url(obj: Assessment, slug: str) -> str:
    return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": slug})


def _post(client: Client, obj: Assessment, slug: str, data: dict[str, Any], **extra: Any) -> Any:
    obj.refresh_from_db()
    return client.post(_url(obj, slug), {**data, "version": obj.version, **extra})


def test_a_new_user_completes_the_whole_wizard_and_lands_on_the_result(
    client: Client, member: Any
) -> None:
    response = client.post(
        reverse("advisor:assessment_new"), {"title": "Our LLM plans", "starter": ""}
    )
    obj = Assessment.objects.get()
    assert response["Location"] == reverse("advisor:assessment", kwargs={"pk": obj.pk})
    for slug, data in POSTS.items():
        page = client.get(_url(obj, slug))
        assert page.status_code == 200, slug
        saved = _post(client, obj, slug, data)
        assert saved.status_code == 302, (slug, saved.content[:2000])
    obj.refresh_from_db()
    expected = copy.deepcopy(FULL)
    # Empty lists are the documented defaults; the form leaves them out.
    del expected["frameworks"]["others"], expected["deployment"]["clouds"]
    assert obj.answers == expected
    assert obj.pending_input == {}
    review = client.get(_url(obj, "review"))
    assert "Submit assessment" in review.text
    assert "LoRA" in review.text
    done = client.post(reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version})
    assert done["Location"] == reverse("advisor:result", kwargs={"pk": obj.pk})
    obj.refresh_from_db()
    assert obj.status == Assessment.Status.SUBMITTED
    result = client.get(done["Location"])
    assert "Recommendation" in result.text
    assert obj.result["en"]["recommendation"]["accelerator"] in {"gpu", "tpu"}


@pytest.mark.parametrize("slug", [s.slug for s in STEPS])
def test_every_step_renders_as_a_full_page_and_as_a_partial(
    client: Client, member: Any, slug: str
) -> None:
    obj = _new(member, FULL)
    full = client.get(_url(obj, slug))
    assert full.status_code == 200
    assert full.text.lstrip().startswith("<!doctype html>")
    assert 'id="wizard"' in full.text
    partial = client.get(_url(obj, slug), **HTMX)
    assert partial.status_code == 200
    assert "<html" not in partial.text
    assert partial.text.lstrip().startswith('<div id="wizard">')
    assert "HX-Request" in partial["Vary"]


def test_valid_htmx_post_moves_to_the_next_step_with_hx_location(
    client: Client, member: Any
) -> None:
    obj = _new(member)
    response = _post(client, obj, "organization", POSTS["organization"], **{})
    assert response.status_code == 302
    response = client.post(
        _url(obj, "workloads"),
        {**POSTS["workloads"], "version": Assessment.objects.get().version},
        **HTMX,
    )
    assert response.status_code == 200
    assert f'"path": "/assessments/{obj.pk}/steps/model/"' in response["HX-Location"]


def test_bad_input_keeps_everything_typed_and_shows_the_error_at_the_field(
    client: Client, member: Any
) -> None:
    obj = _new(member, {k: v for k, v in FULL.items() if k != "training"})
    data = {**POSTS["training"], "micro_batch_size": "lots", "sequence_length": "-5"}
    response = _post(client, obj, "training", data)
    # Post/redirect/get: a refresh never asks to resubmit.
    assert response.status_code == 302
    assert response["Location"] == _url(obj, "training")
    page = client.get(response["Location"])
    assert "Enter a whole number." in page.text
    assert 'value="lots"' in page.text
    assert 'value="-5"' in page.text
    assert "sequence_length" in page.context["form"].errors
    # The rest of the step was kept, and the refused values were not stored.
    obj.refresh_from_db()
    assert obj.answers["training"]["lora_rank"] == 16
    assert "micro_batch_size" not in obj.answers["training"]
    assert "sequence_length" not in obj.answers["training"]


def test_errors_are_in_traditional_chinese_for_chinese_readers(client: Client, member: Any) -> None:
    obj = _new(member, {k: v for k, v in FULL.items() if k != "training"})
    _post(client, obj, "training", {**POSTS["training"], "sequence_length": "-5"})
    page = client.get(_url(obj, "training"), HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "訓練細節" in page.text
    errors = " ".join(str(e) for e in page.context["form"].errors["sequence_length"])
    assert any("\u4e00" <= ch <= "\u9fff" for ch in errors), errors


@pytest.mark.parametrize(
    ("slug", "field", "value"),
    [
        ("model", "parameters", str(10**15)),
        ("inference", "context_tokens", str(10**9)),
        ("training", "micro_batch_size", "-1"),
        ("cost", "hours_per_day", "25"),
        ("organization", "industry", "not-an-industry"),
        ("frameworks", "custom_kernels", "perhaps"),
    ],
)
def test_absurd_and_unknown_values_are_refused_at_their_field(
    client: Client, member: Any, slug: str, field: str, value: str
) -> None:
    obj = _new(member, {"schema_version": 1, "workloads": FULL["workloads"]})
    data = dict(POSTS[slug])
    if slug == "model":
        data = {"source": "architecture", "layers": "32", field: value}
    data[field] = value
    response = _post(client, obj, slug, data, **{})
    assert response.status_code == 302
    page = client.get(_url(obj, slug))
    assert field in page.context["form"].errors, page.context["form"].errors
    assert value in page.text


def test_back_saves_without_validating_and_loses_nothing(client: Client, member: Any) -> None:
    obj = _new(member, {k: v for k, v in FULL.items() if k != "cost"})
    response = _post(
        client, obj, "cost", {"billing": "committed", "hours_per_day": "many"}, action="back"
    )
    assert response["Location"] == _url(obj, "deployment")
    obj.refresh_from_db()
    assert obj.answers["cost"] == {"billing": "committed"}
    page = client.get(_url(obj, "cost"))
    assert 'value="many"' in page.text
    assert 'value="committed" id="id_billing_2" checked' in page.text


def test_unknown_or_inapplicable_steps_redirect_to_the_first_incomplete_one(
    client: Client, member: Any
) -> None:
    obj = _new(member, {"schema_version": 1, "organization": FULL["organization"]})
    assert client.get(_url(obj, "nonsense"))["Location"] == _url(obj, "workloads")
    # No training workload yet, so the training step does not apply.
    assert client.get(_url(obj, "training"))["Location"] == _url(obj, "workloads")
    assert client.get(reverse("advisor:assessment", kwargs={"pk": obj.pk}))["Location"] == _url(
        obj, "workloads"
    )


def test_a_stale_save_from_a_second_tab_gets_a_conflict_and_keeps_its_input(
    client: Client, member: Any
) -> None:
    obj = _new(member)
    loaded = obj.version
    first = client.post(
        _url(obj, "organization"),
        {"industry": "finance", "regions": ["tokyo"], "version": loaded},
    )
    assert first.status_code == 302
    second = client.post(
        _url(obj, "organization"),
        {"industry": "media", "regions": ["taipei"], "version": loaded},
    )
    assert second.status_code == 409
    assert "changed in another tab" in second.text
    assert 'value="media" selected' in second.text
    obj.refresh_from_db()
    assert obj.answers["organization"] == {"industry": "finance", "regions": ["tokyo"]}
    # Saving again from the conflict page, now with the current version, is deliberate.
    again = client.post(
        _url(obj, "organization"),
        {"industry": "media", "regions": ["taipei"], "version": obj.version},
    )
    assert again.status_code == 302
    obj.refresh_from_db()
    assert obj.answers["organization"]["industry"] == "media"


def test_a_tampered_version_field_is_a_conflict_not_a_crash(client: Client, member: Any) -> None:
    obj = _new(member)
    response = client.post(
        _url(obj, "organization"), {"industry": "finance", "regions": ["tokyo"], "version": "x"}
    )
    assert response.status_code == 409


def test_autosave_returns_out_of_band_updates_only(client: Client, member: Any) -> None:
    obj = _new(member, {"schema_version": 1, "workloads": FULL["workloads"]})
    response = client.post(
        _url(obj, "training"),
        {"method": "lora", "micro_batch_size": "abc", "version": obj.version, "action": "autosave"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'id="id_version"' in response.text and 'hx-swap-oob="true"' in response.text
    assert 'id="preview"' in response.text
    assert "Enter a whole number." in response.text
    assert 'id="wizard"' not in response.text
    obj.refresh_from_db()
    assert obj.answers["training"] == {"method": "lora"}
    assert obj.version == 2


def test_submit_of_an_incomplete_assessment_is_refused_with_the_steps_to_fix(
    client: Client, member: Any
) -> None:
    obj = _new(member, {k: v for k, v in FULL.items() if k not in {"cost", "inference"}})
    response = client.post(
        reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version}, follow=True
    )
    assert "Some answers are missing or need fixing" in response.text
    assert "Cost and operations" in response.text
    assert "Inference details" in response.text
    obj.refresh_from_db()
    assert obj.status == Assessment.Status.DRAFT


def test_other_organisations_assessments_are_404_everywhere(client: Client, member: Any) -> None:
    other = MembershipFactory()
    theirs = _new(other, FULL)
    for url in (
        reverse("advisor:assessment", kwargs={"pk": theirs.pk}),
        _url(theirs, "organization"),
        reverse("advisor:result", kwargs={"pk": theirs.pk}),
    ):
        assert client.get(url).status_code == 404, url
    for url in (
        _url(theirs, "organization"),
        reverse("advisor:submit", kwargs={"pk": theirs.pk}),
        reverse("advisor:reopen", kwargs={"pk": theirs.pk}),
    ):
        assert client.post(url, {"version": theirs.version}).status_code == 404, url
    theirs.refresh_from_db()
    assert theirs.version == 1


def test_html_in_the_title_is_shown_escaped(client: Client, member: Any) -> None:
    client.post(
        reverse("advisor:assessment_new"),
        {"title": "<script>alert('x')</script>", "starter": "realtime-chatbot"},
    )
    page = client.get(reverse("advisor:dashboard"))
    assert "<script>alert('x')</script>" not in page.text
    assert "&lt;script&gt;" in page.text


def test_starting_points_prefill_a_complete_assessment(client: Client, member: Any) -> None:
    for slug, starter in STARTERS.items():
        client.post(reverse("advisor:assessment_new"), {"title": slug, "starter": slug})
        obj = Assessment.objects.get(title=slug)
        assert obj.answers == starter.answers
        assert client.get(reverse("advisor:assessment", kwargs={"pk": obj.pk}))["Location"] == _url(
            obj, "review"
        )


def test_new_assessment_form_rejects_bad_input(client: Client, member: Any) -> None:
    response = client.post(
        reverse("advisor:assessment_new"), {"title": "x" * 201, "starter": "no-such-starter"}
    )
    assert response.status_code == 200
    assert "at most 200 characters" in response.text
    assert "Select a valid choice" in response.text
    assert not Assessment.objects.exists()


def _count(client: Client, method: str, url: str, data: dict[str, Any] | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(url, data or {})
    assert response.status_code in {200, 302}
    return len(queries)


@pytest.mark.parametrize("slug", [s.slug for s in STEPS])
def test_each_step_needs_few_queries_whatever_the_data(
    client: Client, member: Any, slug: str
) -> None:
    small = _new(member, FULL)
    few = _count(client, "get", _url(small, slug))
    for i in range(30):
        _new(member, FULL).title = f"more {i}"
    big = _new(member, FULL)
    many = _count(client, "get", _url(big, slug))
    assert few == many <= 8
    if slug in POSTS:
        posted = _count(client, "post", _url(big, slug), {**POSTS[slug], "version": big.version})
        assert posted <= 8


def test_dashboard_query_count_is_constant_with_200_assessments(
    client: Client, member: Any
) -> None:
    _new(member, FULL)
    few = _count(client, "get", reverse("advisor:dashboard"))
    Assessment.objects.bulk_create(
        Assessment(organization=member.organization, created_by=member.user, title=f"A{i}")
        for i in range(200)
    )
    many = _count(client, "get", reverse("advisor:dashboard"))
    assert few == many <= 8
