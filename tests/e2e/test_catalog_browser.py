from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import Role
from advisor.management.commands.bench_rescore import varied_answers
from advisor.models import Assessment
from advisor.reference.models import Catalog
from advisor.reference.services.catalog import catalog_clone, catalog_publish
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import (
    PASSWORD,
    MembershipFactory,
    OrganizationFactory,
    operator_organization,
    published_catalog,
)
from tests.reference.scoring.conftest import member_with_role

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _draft() -> Catalog:
    """Version 1 published (transactional tests flush the migration's seed) and a clone, with
    a few submitted assessments for impact previews."""
    active = published_catalog()
    rng = random.Random(3)
    organization = OrganizationFactory(name="Harbour AI")
    Assessment.objects.bulk_create(
        Assessment(
            organization=organization,
            title=f"Harbour workload {i}",
            status=Assessment.Status.SUBMITTED,
            answers=varied_answers(rng),
        )
        for i in range(20)
    )
    return catalog_clone(catalog=active, user=None)


def _csp_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_an_admin_corrects_a_price_and_sees_stale_flags(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    draft = _draft()
    admin = member_with_role(Role.ADMIN)
    errors = _csp_errors(page)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/admin/login/")
    page.locator("#id_username").fill(admin.email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()

    page.goto(live_server.url + "/admin/reference/catalog/")
    expect(page.locator("#result_list")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-list-{lang}.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/change/")
    expect(page.locator("#accelerators-group")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-change-{lang}.png"), full_page=True)

    page.goto(
        f"{live_server.url}/admin/reference/catalogprice/?catalog__id__exact={draft.pk}"
        "&freshness=stale"
    )
    expect(page.locator(".stale-flag").first).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-prices-{lang}.png"), full_page=True)

    price = draft.prices.get(key="p001")
    page.goto(f"{live_server.url}/admin/reference/catalogprice/{price.pk}/change/")
    page.locator("#id_usd_per_device_hour").fill("-3")
    page.locator("#id_as_of").fill("")
    page.locator("input[name=_save]").click()
    expect(page.locator(".errornote")).to_be_visible()
    expect(page.locator("#id_usd_per_device_hour")).to_have_value("-3")
    page.screenshot(
        path=str(screenshot_dir / f"catalog-admin-price-errors-{lang}.png"), full_page=True
    )
    page.locator("#id_usd_per_device_hour").fill("0.33")
    page.locator("#id_as_of").fill(timezone.localdate().isoformat())
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist .success")).to_be_visible()
    price.refresh_from_db()
    assert str(price.usd_per_device_hour) == "0.330000"

    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/diff/")
    expect(page.locator("#diff")).to_contain_text("p001")
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-diff-{lang}.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/preview/")
    page.locator("#content-main form input[type=submit]").click()
    expect(page.locator("#flip-counts")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-preview-{lang}.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/audit/")
    expect(page.locator("#audit")).to_contain_text(admin.email)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/publish/")
    page.screenshot(
        path=str(screenshot_dir / f"catalog-admin-publish-phone-{lang}.png"), full_page=True
    )
    page.locator("#content-main input[type=submit]").click()
    expect(page.locator(".messagelist .success")).to_be_visible()
    draft.refresh_from_db()
    assert draft.status == "published"
    assert not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_sales_engineer_reads_the_catalog(
    browser: Browser, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    draft = _draft()
    catalog_publish(catalog=draft, user=None)
    engineer = MembershipFactory(role=Role.SALES_ENGINEER, organization=operator_organization())
    for name, viewport in (("desktop", (1280, 900)), ("phone", (390, 844))):
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        errors = _csp_errors(page)
        _log_in(page, live_server, engineer, lang)
        page.goto(f"{live_server.url}/catalog/")
        expect(page.locator("#catalog-prices")).to_be_visible()
        expect(page.locator("#catalog-prices .badge").first).to_be_visible()
        page.screenshot(path=str(screenshot_dir / f"catalog-se-{name}-{lang}.png"), full_page=False)
        context.close()
        assert not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_price_list_and_audit_trail_fit_a_laptop(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    draft = _draft()
    admin = member_with_role(Role.ADMIN)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/admin/login/")
    page.locator("#id_username").fill(admin.email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    page.wait_for_url("**/admin/")

    # The draft's prices (inputs) and, once published, the same list as text.
    for state in ("draft", "published"):
        if state == "published":
            catalog_publish(catalog=draft, user=admin)
        page.goto(f"{live_server.url}/admin/reference/catalogprice/?catalog__id__exact={draft.pk}")
        expect(page.locator("#result_list")).to_be_visible()
        page.screenshot(path=str(screenshot_dir / f"catalog-admin-prices-1366-{state}-{lang}.png"))
        # No sideways scrolling: the whole table, filters beside it, is inside the window.
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        box = "document.querySelector('#result_list').getBoundingClientRect().right"
        scroller = "document.querySelector('.results').getBoundingClientRect().right"
        assert page.evaluate(box) <= page.evaluate(scroller) <= 1366

    page.goto(f"{live_server.url}/admin/reference/catalog/{draft.pk}/audit/")
    expect(page.locator("#audit")).to_contain_text(f"published_by: — → {admin.email}")
    page.screenshot(path=str(screenshot_dir / f"catalog-admin-audit-1366-{lang}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
