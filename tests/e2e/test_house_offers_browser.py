"""House offers and quote requests as people see them: the admin's house offer form, the
report's quote form and the sales engineers' leads list, in both languages, at 1366 and 390 px
with no sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page

from accounts.models import Organization, Role
from advisor.models import Assessment
from advisor.reference.models import Catalog, CatalogAccelerator
from advisor.reference.services.catalog import catalog_publish
from tests.advisor.test_house_offers import _hong_kong_hosted, _offer_post
from tests.factories import (
    PASSWORD,
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
    operator_organization,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 800}, "phone": {"width": 390, "height": 844}}


def _sign_in(browser: Browser, live_server: Any, email: str, lang: str, size: str) -> Page:
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/dashboard/")
    return page


def _width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_house_offer_admin_quote_form_and_leads_list(
    browser: Browser, live_server: Any, screenshot_dir: Path
) -> None:
    Organization.objects.filter(pk=operator_organization().pk).update(name="Harbour Compute")
    admin = operator_member(Role.ADMIN)
    engineer = operator_member(Role.SALES_ENGINEER)
    draft = CatalogFactory()

    # The admin adds a house offer through the form, as a person would.
    page = _sign_in(browser, live_server, admin.email, "en", "laptop")
    page.goto(live_server.url + reverse("admin:reference_houseoffer_add"))
    post = _offer_post(draft)
    page.locator("#id_catalog").select_option(str(draft.pk))
    page.locator("#id_key").fill(post["key"])
    h200 = CatalogAccelerator.objects.get(catalog=draft, key="nvidia-h200")
    page.locator("#id_accelerator").select_option(str(h200.pk))
    for name in ("gpu_count", "server_name", "cpu", "ram_gb", "nvme_tb", "network_gbps"):
        page.locator(f"#id_{name}").fill(str(post[name]))
    page.locator("#id_china_bandwidth_mbps").fill(str(post["china_bandwidth_mbps"]))
    page.locator("#id_china_bandwidth_type").select_option("cn2_gia")
    page.locator("#id_region").fill(post["region"])
    page.locator("#id_region_key").select_option("hong_kong")
    page.locator("#id_price_on_request").check()
    page.locator("#id_setup_fee_usd").fill("500")
    page.locator("#id_min_term_months").fill("12")
    page.locator("#id_source").fill(post["source"])
    page.locator("#id_as_of").fill(post["as_of"])
    page.screenshot(path=str(screenshot_dir / "house-offer-admin-en.png"), full_page=True)
    page.locator("input[name=_save]").click()
    page.wait_for_url("**/houseoffer/")
    assert "HK-H200-8" in page.content()
    page.context.close()
    catalog_publish(catalog=draft, user=None)
    assert Catalog.objects.get(pk=draft.pk).status == "published"

    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=_hong_kong_hosted()
    )
    report = ReportFactory(assessment=assessment)
    url = live_server.url + reverse(
        "advisor:report", kwargs={"pk": assessment.pk, "number": report.number}
    )
    for lang in ("en", "zh-hant"):
        for size in SIZES:
            page = _sign_in(browser, live_server, admin.email, lang, size)
            page.goto(live_server.url + reverse("admin:reference_houseoffer_add"))
            page.screenshot(
                path=str(screenshot_dir / f"house-offer-admin-{size}-{lang}.png"), full_page=True
            )
            page.context.close()

            page = _sign_in(browser, live_server, membership.user.email, lang, size)
            page.goto(url)
            assert page.locator("#quote").is_visible()
            assert _width(page) <= SIZES[size]["width"]
            if lang == "en" and size == "laptop":
                page.locator("#id_term_months").select_option("24")
                page.locator("#id_china_bandwidth_mbps").fill("100")
                page.locator("#id_china_bandwidth_type").select_option("cmi")
                page.locator("#id_note").fill("Go live in March")
                page.locator("#quote button[type=submit]").click()
                page.wait_for_load_state()
                assert "Go live" not in page.locator("#quote").inner_text()
            page.locator("#quote").screenshot(
                path=str(screenshot_dir / f"report-quote-{size}-{lang}.png")
            )
            page.context.close()

            page = _sign_in(browser, live_server, engineer.email, lang, size)
            assert page.locator("table.leads-table tbody tr").count() == 1
            assert _width(page) <= SIZES[size]["width"]
            page.screenshot(
                path=str(screenshot_dir / f"dashboard-leads-{size}-{lang}.png"), full_page=True
            )
            page.context.close()
