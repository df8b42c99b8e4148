"""The report page opens with the answer. The executive summary starts on the
first screen at desktop and phone widths, in both languages, and every tool (downloads, quote,
share, what-if, versions) is still on the page, reachable from the links above the summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_accessibility import _done_report
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Desktop and phone, with the height a browser's window leaves the page.
SCREENS = {1366: 900, 390: 844}


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_report_page_opens_with_the_summary_and_keeps_every_tool(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title=f"Answer first {lang}", submitted=True)
    _done_report(obj, 1, lang)
    _log_in(page, live_server, membership, lang)
    tops = {}
    for width, height in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/assessments/{obj.pk}/reports/1/")
        top = page.evaluate(
            "() => document.querySelector('#report-summary').getBoundingClientRect().top"
            " + window.scrollY"
        )
        print(f"summary y offset, {lang}, {width} px: {top:.0f}")  # noqa: T201 - the figure
        page.screenshot(path=str(screenshot_dir / f"report-answer-first-{lang}-{width}.png"))
        tops[width] = top
        if top >= height:
            continue  # every width's figure first, then the verdict below
        for tool in ("#pdf-button", "#report-tools", "#share", "#what-if", "#versions"):
            expect(page.locator(tool)).to_have_count(1)
        # The summary comes before the tools, and the links above it reach them.
        order = page.evaluate(
            "() => ['#report-summary', '#report-tools', '#share', '#what-if', '#versions']"
            ".map(s => document.querySelector(s).getBoundingClientRect().top)"
        )
        assert order == sorted(order), order
        page.locator(".report-tools-nav a[href='#what-if']").click()
        expect(page.locator("#what-if")).to_be_in_viewport()
    assert all(tops[width] < height for width, height in SCREENS.items()), (lang, tops)
