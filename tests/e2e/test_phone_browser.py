"""Phones and laptops after a first run: the demo seed's dashboard and reports reflow at 390 px
(no sideways scroll, each table row a card) and the navigation holds one row at 1366 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page

from advisor.models import Assessment
from tests.factories import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 800}

ONE_ROW = """() => {
  const items = document.querySelectorAll(
    'nav.navbar .nav-link, nav.navbar button, nav.navbar select');
  const tops = [...items].filter(e => e.offsetParent !== null)
    .map(e => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; });
  return Math.max(...tops) - Math.min(...tops);
}"""


BRAND_ROW = """() => {
  const brand = document.querySelector('nav.navbar .navbar-brand').getBoundingClientRect();
  const toggler = document.querySelector('nav.navbar .navbar-toggler').getBoundingClientRect();
  const el = document.querySelector('nav.navbar .navbar-brand');
  return {brandTop: brand.top, brandBottom: brand.bottom, togglerTop: toggler.top,
          togglerBottom: toggler.bottom, cut: el.scrollWidth > el.clientWidth};
}"""


# A stacked cell's label as shown ("Status:", "狀態："): its colon is the page's language's, the
# full-width one in Chinese with no space after it.
SEPARATOR = "el => getComputedStyle(el, '::before').content"


def _sign_in(
    browser: Browser, live_server: Any, email: str, lang: str, viewport: dict[str, int]
) -> Page:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/dashboard/")
    return page


def _width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_seeded_dashboard_and_report_reflow_on_a_phone_and_the_navbar_is_one_row(
    browser: Browser, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    call_command("seed", password=PASSWORD)
    sales = _sign_in(browser, live_server, "sales@demo.example", lang, PHONE)
    assert _width(sales) <= PHONE["width"]
    # The brand ("Accelerator Advisor 加速器顧問" in Chinese) and the menu button share one row,
    # and the brand is shown whole, not cut.
    row = sales.evaluate(BRAND_ROW)
    assert row["togglerTop"] < row["brandBottom"] and row["togglerBottom"] > row["brandTop"], row
    assert not row["cut"], row
    # Each assessment is a stacked card whose title is the link that opens it.
    rows = sales.locator("table.table-stack tbody tr")
    assert rows.count() >= 3
    assert sales.locator("table.table-stack thead").first.bounding_box()["height"] <= 1  # type: ignore[index]
    label = sales.locator("table.table-stack tbody td[data-label]").first.evaluate(SEPARATOR)
    assert label.endswith('："' if lang == "zh-hant" else ':"'), label
    sales.screenshot(path=str(screenshot_dir / f"dashboard-phone-{lang}.png"), full_page=True)
    sales.context.close()

    member = _sign_in(browser, live_server, "member@demo.example", lang, PHONE)
    startup = Assessment.objects.get(title="LLM fine-tuning start-up")
    member.goto(f"{live_server.url}/assessments/{startup.pk}/reports/1/")
    assert _width(member) <= PHONE["width"]
    summary = member.locator("#report-workloads table.report-stack tbody tr").first
    assert summary.locator("td[data-label]").count() >= 5
    label = summary.locator("td[data-label]").first.evaluate(SEPARATOR)
    assert label.endswith('："' if lang == "zh-hant" else ': "'), label
    # The plan leads the page, one block per workload, within the screen.
    plans = member.locator("#report-plan .report-plan")
    assert plans.count() == 2
    assert plans.first.bounding_box()["width"] <= PHONE["width"]  # type: ignore[index]
    member.screenshot(path=str(screenshot_dir / f"report-phone-{lang}.png"), full_page=True)
    member.set_viewport_size(LAPTOP)
    assert _width(member) <= LAPTOP["width"]
    member.screenshot(path=str(screenshot_dir / f"report-laptop-{lang}.png"), full_page=True)
    member.context.close()

    for email in ("sales@demo.example", "admin@demo.example"):
        laptop = _sign_in(browser, live_server, email, lang, LAPTOP)
        assert laptop.evaluate(ONE_ROW) < 12, email
        assert _width(laptop) <= LAPTOP["width"]
        laptop.context.close()
