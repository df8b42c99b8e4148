from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, Route, expect

from accounts.models import Membership
from advisor.models import Assessment
from tests.factories import PASSWORD, AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = {
    "en": {
        "new": "Start",
        "next": "Save and continue",
        "review": "Save and review",
        "back": "Back",
        "submit": "Submit assessment",
        "result": "Waiting for a worker",
        "fine_tuning": "Fine-tuning (incl. LoRA/QLoRA)",
        "realtime": "Real-time inference",
        "review_heading": "Review and submit",
        "training_heading": "Training details",
        "saved": "Draft saved",
    },
    "zh-hant": {
        "new": "開始",
        "next": "儲存並繼續",
        "review": "儲存並檢查",
        "back": "上一步",
        "submit": "送出評估",
        "result": "等待工作程序",
        "fine_tuning": "微調（含 LoRA/QLoRA）",
        "realtime": "即時推論",
        "review_heading": "檢查並送出",
        "training_heading": "訓練細節",
        "saved": "草稿已儲存",
    },
}


def _log_in(page: Page, live_server: Any, membership: Membership, lang: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(membership.user.email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/dashboard/")


def _check(page: Page, name: str, value: str) -> None:
    page.locator(f"input[name={name}][value={value}]").check()


def _fill_step(page: Page, slug: str) -> None:
    if slug == "organization":
        page.locator("#id_industry").select_option("research")
        _check(page, "regions", "hong_kong")
    elif slug == "workloads":
        page.locator("#id_fine_tuning").check()
        page.locator("#id_fine_tuning_schedule").select_option("weekly")
        page.locator("#id_realtime_inference").check()
        page.locator("#id_realtime_inference_schedule").select_option("continuous")
    elif slug == "model":
        _check(page, "source", "preset")
        page.locator("#id_preset").select_option("llama-3-8b")
    elif slug == "training":
        _check(page, "method", "lora")
        page.locator("#id_lora_rank").fill("16")
        page.locator("#id_precision").select_option("bf16_mixed")
        page.locator("#id_optimizer").select_option("adamw")
        page.locator("#id_micro_batch_size").fill("4")
        page.locator("#id_sequence_length").fill("4096")
        _check(page, "gradient_checkpointing", "yes")
        page.locator("#id_dataset_tokens").fill("200000000")
    elif slug == "inference":
        page.locator("#id_precision").select_option("bf16")
        page.locator("#id_prompt_tokens").fill("3584")
        page.locator("#id_output_tokens").fill("512")
        page.locator("#id_concurrent_sequences").fill("32")
        page.locator("#id_tokens_per_day").fill("20000000")
        _check(page, "traffic", "bursty")
    elif slug == "maturity":
        _check(page, "stack_changes", "weekly")
        _check(page, "pipeline", "exploratory")
        _check(page, "demand", "unpredictable")
    elif slug == "frameworks":
        _check(page, "primary", "pytorch")
        _check(page, "custom_kernels", "yes")
        page.locator("#id_serving").select_option("vllm")
    elif slug == "deployment":
        _check(page, "allowed_modes", "public_cloud")
        _check(page, "portability", "preferred")
        _check(page, "data_residency", "none")
    elif slug == "cost":
        _check(page, "billing", "pay_as_you_go")
        page.locator("#id_hours_per_day").fill("8")
        _check(page, "ops_capacity", "part_time")


SLUGS = [
    "organization",
    "workloads",
    "model",
    "training",
    "inference",
    "maturity",
    "frameworks",
    "deployment",
    "cost",
]


def _walk(page: Page, t: dict[str, str], screenshot_dir: Path | None, lang: str) -> None:
    for slug in SLUGS:
        page.wait_for_url(f"**/steps/{slug}/")
        _fill_step(page, slug)
        if screenshot_dir is not None and slug in {"training", "deployment"}:
            page.screenshot(path=str(screenshot_dir / f"wizard-{slug}-{lang}.png"), full_page=True)
        if slug == "inference":
            # Back keeps what was typed here, and forward again shows it.
            page.get_by_role("button", name=t["back"]).click()
            page.wait_for_url("**/steps/training/")
            expect(page.locator("#id_lora_rank")).to_have_value("16")
            page.get_by_role("button", name=t["next"]).click()
            page.wait_for_url("**/steps/inference/")
            expect(page.locator("#id_prompt_tokens")).to_have_value("3584")
            # A refresh mid-way loses nothing and asks nothing.
            page.reload()
            expect(page.locator("#id_output_tokens")).to_have_value("512")
        button = t["review"] if slug == "cost" else t["next"]
        page.get_by_role("button", name=button).click()


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_new_user_completes_the_wizard_with_htmx(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    t = TEXT[lang]
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(f"{page.url}: {m.text} {m.location}") if m.type == "error" else None
        ),
    )
    membership = MembershipFactory()
    _log_in(page, live_server, membership, lang)
    page.locator("#id_title").fill("Browser run " + lang)
    page.get_by_role("button", name=t["new"], exact=True).click()
    _walk(page, t, screenshot_dir, lang)
    page.wait_for_url("**/steps/review/")
    expect(page.get_by_role("heading", name=t["review_heading"])).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"wizard-review-{lang}.png"), full_page=True)
    page.get_by_role("button", name=t["submit"]).click()
    # Submitting requests the first report; with no worker in this test it waits, visibly.
    page.wait_for_url("**/reports/1/")
    expect(page.locator("#report-status")).to_contain_text(t["result"])
    page.screenshot(path=str(screenshot_dir / f"result-{lang}.png"), full_page=True)
    obj = Assessment.objects.get(title="Browser run " + lang)
    assert obj.status == Assessment.Status.SUBMITTED
    assert obj.answers["training"]["lora_rank"] == 16
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_autosave_validates_inline_and_updates_the_preview(
    page: Page, live_server: Any, screenshot_dir: Path
) -> None:
    membership = MembershipFactory()
    _log_in(page, live_server, membership, "en")
    page.locator("#id_title").fill("Autosave")
    page.locator("#id_starter").select_option("llm-fine-tuning-startup")
    page.get_by_role("button", name="Start", exact=True).click()
    obj = Assessment.objects.get(title="Autosave")
    page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/training/")
    page.locator("#id_micro_batch_size").fill("many")
    page.locator("#id_micro_batch_size").blur()
    expect(page.locator("#errors-micro_batch_size")).to_contain_text("Enter a whole number.")
    expect(page.locator("#save-status")).to_contain_text("Draft saved")
    expect(page.locator("#preview")).to_contain_text("GiB")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(screenshot_dir / "wizard-training-phone-en.png"), full_page=True)
    # The version moved on with the autosave, so the explicit save is not a conflict.
    page.locator("#id_micro_batch_size").fill("8")
    page.get_by_role("button", name="Save and continue").click()
    page.wait_for_url("**/steps/inference/")
    obj.refresh_from_db()
    assert obj.answers["training"]["micro_batch_size"] == 8


def test_the_wizard_works_with_javascript_off(
    browser: Browser, live_server: Any, screenshot_dir: Path
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    membership = MembershipFactory()
    _log_in(page, live_server, membership, "en")
    page.locator("#id_title").fill("No JS")
    page.get_by_role("button", name="Start", exact=True).click()
    _walk(page, TEXT["en"], None, "en")
    page.wait_for_url("**/steps/review/")
    page.get_by_role("button", name="Submit assessment").click()
    page.wait_for_url("**/reports/1/")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(screenshot_dir / "result-phone-nojs-en.png"), full_page=True)
    assert Assessment.objects.get(title="No JS").status == Assessment.Status.SUBMITTED
    context.close()


def test_two_tabs_editing_one_assessment_get_a_conflict_not_a_silent_overwrite(
    browser: Browser, live_server: Any
) -> None:
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title="Tabs")
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    _log_in(first, live_server, membership, "en")
    url = f"{live_server.url}/assessments/{obj.pk}/steps/organization/"
    first.goto(url)
    second.goto(url)
    first.locator("#id_industry").select_option("finance")
    _check(first, "regions", "tokyo")
    first.get_by_role("button", name="Save and continue").click()
    first.wait_for_url("**/steps/workloads/")
    # The second tab's autosave is refused, and so is its explicit save.
    second.locator("#id_industry").select_option("media")
    expect(second.locator("#save-status")).to_contain_text("Not saved")
    _check(second, "regions", "taipei")
    second.get_by_role("button", name="Save and continue").click()
    expect(second.get_by_role("alert")).to_contain_text("changed in another tab")
    expect(second.locator("#id_industry")).to_have_value("media")
    obj.refresh_from_db()
    assert obj.answers["organization"] == {"industry": "finance", "regions": ["tokyo"]}
    context.close()


def test_kept_steps_follow_autosaves_navigation_and_reloads(page: Page, live_server: Any) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title="Kept", starter="llm-fine-tuning-startup")
    _log_in(page, live_server, membership, "en")
    url = f"{live_server.url}/assessments/{obj.pk}/steps/deployment/"
    page.goto(url)
    page.reload()  # the second view is the kept one
    expect(page.locator("#preview")).to_contain_text("Public cloud")
    page.locator("input[name=allowed_modes][value=public_cloud]").uncheck()
    expect(page.locator("#save-status")).to_contain_text("Draft saved")
    expect(page.locator("#preview")).to_contain_text("Dedicated hosting")
    # Away and back through the step list (htmx), then a reload: the autosaved answer stays.
    page.locator(f'nav a[href="/assessments/{obj.pk}/steps/cost/"]').click()
    page.wait_for_url("**/steps/cost/")
    page.locator(f'nav a[href="/assessments/{obj.pk}/steps/deployment/"]').click()
    page.wait_for_url("**/steps/deployment/")
    for _ in range(2):
        expect(page.locator("input[name=allowed_modes][value=public_cloud]")).not_to_be_checked()
        expect(page.locator("#preview")).to_contain_text("Dedicated hosting")
        page.reload()
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_changing_a_radio_and_clicking_next_at_once_is_not_a_conflict(
    page: Page, live_server: Any
) -> None:
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title="Quick", starter="llm-fine-tuning-startup")
    autosaves: list[Response] = []

    def is_autosave(response: Response) -> bool:
        request = response.request
        return request.method == "POST" and "action=autosave" in (request.post_data or "")

    def slow_review(route: Route) -> None:
        # The review page is built at once but reaches the browser late, as on a slow link:
        # only after the radio's delayed autosave (400 ms) has left, while the old step is
        # still shown, and has been answered.
        response = route.fetch()
        if not autosaves:
            page.wait_for_event("response", predicate=is_autosave)
        route.fulfill(response=response)

    _log_in(page, live_server, membership, "en")
    page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/cost/")
    page.on(
        "response", lambda response: autosaves.append(response) if is_autosave(response) else None
    )
    page.route("**/steps/review/", slow_review)
    _check(page, "billing", "committed")
    page.get_by_role("button", name="Save and review").click()
    page.wait_for_url("**/steps/review/")
    expect(page.get_by_role("heading", name="Review and submit")).to_be_visible()
    page.unroute("**/steps/review/")
    page.get_by_role("button", name="Submit assessment").click()
    page.wait_for_url("**/reports/1/")
    expect(page.locator("main")).not_to_contain_text("changed in another tab")
    obj.refresh_from_db()
    assert obj.status == Assessment.Status.SUBMITTED
    assert obj.answers["cost"]["billing"] == "committed"


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_published_model_hides_the_architecture_fields_and_fills_the_preview(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    membership = MembershipFactory()
    answers = {
        "schema_version": 2,
        "workloads": [
            {"kind": "fine_tuning", "schedule": "weekly"},
            {"kind": "realtime_inference", "schedule": "continuous"},
        ],
    }
    obj = AssessmentFactory(membership=membership, title="Model", answers=answers)
    _log_in(page, live_server, membership, lang)
    page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/model/")
    # Nothing chosen yet: both groups show.
    expect(page.locator("#id_layers")).to_be_visible()
    expect(page.locator("#id_preset")).to_be_visible()
    _check(page, "source", "preset")
    expect(page.locator("#id_layers")).to_be_hidden()
    page.locator("#id_preset").select_option("llama-3-8b")
    expect(page.locator("#id_preset option:checked")).to_have_text("Llama 3 8B")
    expect(page.locator("#preview")).to_contain_text("GiB")
    page.screenshot(
        path=str(screenshot_dir / f"wizard-model-preset-{lang}-{width}.png"), full_page=True
    )
    _check(page, "source", "architecture")
    expect(page.locator("#id_layers")).to_be_visible()
    expect(page.locator("#id_preset")).to_be_hidden()
    page.screenshot(
        path=str(screenshot_dir / f"wizard-model-own-{lang}-{width}.png"), full_page=True
    )
    obj.answers = {**obj.answers, "model": {"preset": "llama-3-8b"}}
    obj.save()
    for slug in ("deployment", "cost"):
        page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/{slug}/")
        page.screenshot(
            path=str(screenshot_dir / f"wizard-{slug}-{lang}-{width}.png"), full_page=True
        )
    expect(page.locator("#id_ops_headcount")).to_be_visible()
    expect(page.locator("input[name=china_connectivity]")).to_have_count(0)


def test_the_model_step_hides_the_other_source_with_javascript_off(
    browser: Browser, live_server: Any
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    membership = MembershipFactory()
    obj = AssessmentFactory(
        membership=membership,
        title="No JS model",
        answers={"schema_version": 2, "workloads": [{"kind": "fine_tuning", "schedule": "weekly"}]},
    )
    _log_in(page, live_server, membership, "en")
    page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/model/")
    _check(page, "source", "preset")
    expect(page.locator("#id_layers")).to_be_hidden()
    page.locator("#id_preset").select_option("llama-3-8b")
    page.get_by_role("button", name="Save and continue").click()
    page.wait_for_url("**/steps/training/")
    obj.refresh_from_db()
    assert obj.answers["model"] == {"preset": "llama-3-8b"}
    context.close()
