from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from advisor.models import Report
from tests.e2e.test_accessibility import Audit, _done_report, axe_source  # noqa: F401 - fixture
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_changing_hours_per_day_updates_the_what_if_panel_in_place(
    page: Page,
    browser: Browser,
    live_server: Any,
    axe_source: str,  # noqa: F811 - the fixture imported above
    screenshot_dir: Path,
    lang: str,
) -> None:
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title=f"What-if {lang}", submitted=True)
    _done_report(obj, 1, lang)
    audit = Audit(axe_source, lang)
    audit.watch(page)
    _log_in(page, live_server, membership, lang)
    url = f"{live_server.url}/assessments/{obj.pk}/reports/1/"
    page.goto(url)
    panel = page.locator("#what-if-panel")
    expect(panel.locator("table")).to_have_count(0)
    # A marker on the page that a full reload would wipe: the panel must change in place.
    page.evaluate("() => { document.body.dataset.stayed = 'yes' }")

    hours = page.locator("#id_whatif_hours_per_day")
    hours.fill("24")
    hours.press("Tab")
    expect(panel.locator("table.what-if-table").first).to_be_visible()
    expect(panel.locator("tr[data-field=monthly_cost_usd]").first).to_be_visible()
    assert page.evaluate("() => document.body.dataset.stayed") == "yes"
    assert page.url == url
    assert Report.objects.filter(assessment=obj).count() == 1  # nothing saved

    # Ten times the tokens needs more cards: the first option changes in the panel.
    tokens = page.locator("#id_whatif_tokens_per_day")
    tokens.fill("200,000,000")
    tokens.press("Tab")
    expect(panel.locator("tr[data-field=option].table-warning").first).to_be_visible()
    page.locator("#what-if").screenshot(path=str(screenshot_dir / f"what-if-{lang}-1366.png"))
    audit.check(page, "report with a what-if")

    # A refused value shows its message at the field and keeps what was typed.
    hours.fill("30")
    hours.press("Tab")
    expect(page.locator("#errors-whatif-hours_per_day")).not_to_be_empty()
    assert hours.input_value() == "30"
    expect(panel.locator("table")).to_have_count(0)

    page.set_viewport_size({"width": 390, "height": 844})
    hours.fill("20")
    hours.press("Tab")
    expect(page.locator("#errors-whatif-hours_per_day")).to_be_empty()
    expect(panel.locator("table.what-if-table").first).to_be_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    page.locator("#what-if").screenshot(path=str(screenshot_dir / f"what-if-{lang}-390.png"))
    audit.check(page, "report with a what-if, phone")

    page.locator("#what-if button[formaction$='/what-if/save/']").click()
    page.wait_for_url("**/reports/2/")
    saved = Report.objects.get(assessment=obj, number=2)
    assert saved.answers["cost"]["hours_per_day"] == 20
    assert saved.answers["inference"]["tokens_per_day"] == 200_000_000

    # Without JavaScript the same form posts and the whole page comes back with the panel.
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 1366, "height": 900})
    plain.add_cookies(page.context.cookies())
    no_js = plain.new_page()
    no_js.goto(url)
    no_js.locator("#id_whatif_deadline_hours").fill("6")
    no_js.locator("#what-if button[type=submit]:not([formaction])").click()
    no_js.wait_for_url("**/reports/1/what-if/#what-if")
    expect(no_js.locator("#what-if-panel tr[data-field=hours]").first).to_be_visible()
    expect(no_js.locator(".report-body")).to_be_visible()
    assert no_js.locator("#id_whatif_deadline_hours").input_value() == "6"
    no_js.locator("#what-if").screenshot(path=str(screenshot_dir / f"what-if-{lang}-no-js.png"))
    plain.close()
    audit.report()
