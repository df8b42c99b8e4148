from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from advisor.models import Report, ShareLink
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_submit_watch_the_status_read_the_report_share_it_and_open_the_link(
    page: Page, browser: Browser, live_server: Any, worker: Any, screenshot_dir: Path, lang: str
) -> None:
    worker()
    membership = MembershipFactory()
    obj = AssessmentFactory(
        membership=membership, title=f"Report run {lang}", starter="llm-fine-tuning-startup"
    )
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _log_in(page, live_server, membership, lang)
    page.goto(f"{live_server.url}/assessments/{obj.pk}/steps/review/")
    page.locator("form[action$='/submit/'] button[type=submit]").click()
    page.wait_for_url("**/reports/1/")
    # The status partial polls until the worker is done, then the page shows the report.
    expect(page.locator(".report-body")).to_be_visible(timeout=60_000)
    assert Report.objects.get().status == Report.Status.DONE
    # The worker renders the PDF after the page; the button's own poll swaps the download in.
    button = page.locator("#pdf-button")
    expect(button).not_to_have_attribute("aria-busy", "true", timeout=60_000)
    expect(button).to_have_text({"en": "Download PDF", "zh-hant": "下載 PDF"}[lang])
    assert Report.objects.get().pdf
    page.screenshot(path=str(screenshot_dir / f"report-page-{lang}.png"), full_page=True)

    page.locator("form[action$='/share/'] button[type=submit]").click()
    url = page.locator("#new-share-url").input_value()
    assert re.search(r"/s/[A-Za-z0-9_-]{32}/$", url)
    # The copy button is shown by a static script (no inline JavaScript under the CSP).
    copy = page.locator("button[data-copy='#new-share-url']")
    expect(copy).to_have_text({"en": "Copy link", "zh-hant": "複製連結"}[lang])
    copy.click()
    expect(copy).to_have_text({"en": "Copied", "zh-hant": "已複製"}[lang])
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#share").screenshot(path=str(screenshot_dir / f"share-new-link-phone-{lang}.png"))
    page.set_viewport_size({"width": 1366, "height": 900})

    stranger = browser.new_context()
    shared = stranger.new_page()
    shared.goto(url)
    expect(shared.locator(".report-body")).to_be_visible()
    assert shared.locator("meta[name=robots]").get_attribute("content") == "noindex, nofollow"
    shared.set_viewport_size({"width": 390, "height": 844})
    shared.screenshot(path=str(screenshot_dir / f"shared-phone-{lang}.png"), full_page=True)
    stranger.close()

    # Revoking asks first: the button only opens the confirmation; its own button revokes.
    page.goto(f"{live_server.url}/assessments/{obj.pk}/reports/1/#share")
    page.locator("details.share-revoke summary").first.click()
    confirm = page.locator("details.share-revoke button[type=submit]").first
    expect(confirm).to_contain_text({"en": "Revoke this link", "zh-hant": "撤銷此連結"}[lang])
    assert ShareLink.objects.get().revoked_at is None
    confirm.click()
    page.wait_for_load_state()
    expect(page.locator("details.share-revoke")).to_have_count(0)
    assert ShareLink.objects.get().revoked_at is not None
    assert not [e for e in errors if "Content Security Policy" in e], errors
