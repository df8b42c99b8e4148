from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import Organization, Role
from advisor.decisions import live
from advisor.management.commands.bench_rescore import varied_answers
from advisor.models import Assessment
from advisor.reference.models import Criterion, ScoringModel
from advisor.reference.services.scoring import scoring_model_clone, scoring_model_from_document
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import PASSWORD, MembershipFactory, OrganizationFactory, operator_organization
from tests.reference.scoring.conftest import member_with_role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _models() -> ScoringModel:
    """Version 1 published (transactional tests flush the migration's seed) and a draft."""
    active = ScoringModel.objects.filter(status=ScoringModel.Status.PUBLISHED).first()
    if active is None:
        active = scoring_model_from_document(
            document=live.active_scoring_model().to_dict(),
            user=None,
            status=ScoringModel.Status.PUBLISHED,
        )
    draft = scoring_model_clone(model=active, user=None)
    Criterion.objects.filter(scoring_model=draft, key="framework_fit").update(weight=8)
    Criterion.objects.filter(scoring_model=draft, key="ops_capacity").update(weight=6)
    rng = random.Random(7)
    organization = OrganizationFactory(name="Harbour AI")
    Assessment.objects.bulk_create(
        Assessment(
            organization=organization,
            title=f"Harbour workload {i}",
            status=Assessment.Status.SUBMITTED,
            answers=varied_answers(rng),
        )
        for i in range(40)
    )
    return draft


def _csp_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_admin_edits_previews_and_a_sales_engineer_reads(
    page: Page, browser: Browser, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    draft = _models()
    admin = member_with_role(Role.ADMIN)
    errors = _csp_errors(page)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/admin/login/")
    page.locator("#id_username").fill(admin.email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()

    page.goto(live_server.url + "/admin/reference/scoringmodel/")
    expect(page.locator("#result_list")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"scoring-admin-list-{lang}.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/reference/scoringmodel/{draft.pk}/change/")
    expect(page.locator("#criteria-group")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"scoring-admin-change-{lang}.png"), full_page=True)

    fit = draft.criteria.get(key="framework_fit")
    page.goto(f"{live_server.url}/admin/reference/criterion/{fit.pk}/change/")
    expect(page.locator("#contributions-group")).to_be_visible()
    page.screenshot(
        path=str(screenshot_dir / f"scoring-admin-criterion-{lang}.png"), full_page=True
    )

    page.goto(f"{live_server.url}/admin/reference/scoringmodel/{draft.pk}/preview/")
    page.locator("#content-main form input[type=submit]").click()
    expect(page.locator("#flip-counts")).to_be_visible()
    expect(page.locator("#content-main img")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"scoring-admin-preview-{lang}.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/reference/scoringmodel/{draft.pk}/diff/")
    expect(page.locator("#diff")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"scoring-admin-diff-{lang}.png"), full_page=True)
    assert not [e for e in errors if "Content Security Policy" in e], errors

    # An operator's sales engineer, who works with the customer whose assessments flip.
    engineer = MembershipFactory(role=Role.SALES_ENGINEER, organization=operator_organization())
    MembershipFactory(
        user=engineer.user,
        organization=Organization.objects.get(name="Harbour AI"),
        role=Role.SALES_ENGINEER,
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    reader = context.new_page()
    reader_errors = _csp_errors(reader)
    _log_in(reader, live_server, engineer, lang)
    reader.goto(f"{live_server.url}/scoring-models/{draft.pk}/")
    expect(reader.locator("#criterion-framework_fit")).to_be_visible()
    reader.screenshot(path=str(screenshot_dir / f"scoring-se-model-{lang}.png"), full_page=True)
    reader.goto(f"{live_server.url}/scoring-models/{draft.pk}/preview/")
    expect(reader.locator("#flipped")).to_be_visible()
    reader.screenshot(path=str(screenshot_dir / f"scoring-se-preview-{lang}.png"), full_page=True)
    context.close()
    assert not [e for e in reader_errors if "Content Security Policy" in e], reader_errors
