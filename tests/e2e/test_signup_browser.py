from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from accounts.models import User

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_visitor_signs_up_switches_to_chinese_and_sees_the_dashboard(
    page: Page,
    live_server,
    screenshot_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Start an assessment").click()
    page.get_by_label("Work email").fill("mei@example.com")
    page.get_by_label("Your name").fill("Mei Chen")
    page.get_by_label("Organisation").fill("Harbour AI")
    page.locator("#id_password1").fill("a-long-passphrase-42")
    page.locator("#id_password2").fill("a-long-passphrase-42")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    link = re.search(r"http://\S+/accounts/signup/confirm/\S+/", mail.outbox[-1].body)
    assert link is not None
    page.goto(link.group(0))
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    assert User.objects.filter(email="mei@example.com").exists()

    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("button", name="繁體中文").click()
    expect(page.get_by_role("heading", name="儀表板")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    page.screenshot(path=str(screenshot_dir / "dashboard-zh-hant.png"), full_page=True)
    # Strict CSP: nothing on the page was refused.
    assert not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize(
    ("lang", "width"), [("en", 1280), ("zh-hant", 1280), ("en", 390), ("zh-hant", 390)]
)
def test_landing_page_screenshots(
    page: Page,
    live_server,
    screenshot_dir: Path,
    lang: str,
    width: int,  # type: ignore[no-untyped-def]
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"landing-{lang}-{width}.png"), full_page=True)
