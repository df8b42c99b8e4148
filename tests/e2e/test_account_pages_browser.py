"""The account pages the security work added, walked in a real browser in both languages and at
a phone width: sign-up by emailed link, password change (which revokes API tokens), tokens with
an expiry, and the lockout page. Screenshots land in var/test/screenshots/accounts-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from accounts.models import ApiToken, User
from tests.factories import MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CASES = [("en", 1280), ("zh-hant", 1280), ("en", 390), ("zh-hant", 390)]
HEADINGS = {
    "en": {"sent": "Check your email", "dashboard": "Dashboard"},
    "zh-hant": {"sent": "請查看您的電子郵件", "dashboard": "儀表板"},
}


def _watch(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width  # type: ignore[index]


@pytest.mark.parametrize(("lang", "width"), CASES)
def test_sign_up_by_emailed_link(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, width: int
) -> None:
    errors = _watch(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    email = f"new-{lang}-{width}@example.com"
    page.goto(live_server.url + "/accounts/signup/")
    page.locator("#id_email").fill(email)
    page.locator("#id_full_name").fill("Mei Chen")
    page.locator("#id_organization_name").fill("Harbour AI")
    page.locator("#id_password1").fill("a-long-passphrase-42")
    page.locator("#id_password2").fill("a-long-passphrase-42")
    page.locator("form button[type=submit]").last.click()
    expect(page.get_by_role("heading", name=HEADINGS[lang]["sent"])).to_be_visible()
    _no_horizontal_scroll(page)
    page.screenshot(path=str(screenshot_dir / f"accounts-signup-sent-{lang}-{width}.png"))
    assert not User.objects.filter(email=email).exists()

    link = re.search(r"http://\S+/accounts/signup/confirm/\S+/", mail.outbox[-1].body)
    assert link is not None
    page.goto(link.group(0))
    _no_horizontal_scroll(page)
    page.screenshot(path=str(screenshot_dir / f"accounts-signup-confirm-{lang}-{width}.png"))
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("heading", name=HEADINGS[lang]["dashboard"])).to_be_visible()
    assert User.objects.filter(email=email).exists()
    assert not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize(("lang", "width"), CASES)
def test_password_change_revokes_tokens_and_tokens_show_their_expiry(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, width: int
) -> None:
    errors = _watch(page)
    membership = MembershipFactory()
    user = membership.user
    user.set_password("old-passphrase-123")
    user.save()
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(user.email.upper())  # the email's case does not matter
    page.locator("#id_password").fill("old-passphrase-123")
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("heading", name=HEADINGS[lang]["dashboard"])).to_be_visible()

    page.goto(live_server.url + "/accounts/tokens/")
    page.locator("#id_name").fill("CI")
    page.locator("#id_expires_in_days").fill("30")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("table")).to_contain_text("CI")
    _no_horizontal_scroll(page)
    page.screenshot(
        path=str(screenshot_dir / f"accounts-tokens-{lang}-{width}.png"), full_page=True
    )
    token = ApiToken.objects.get(user=user)
    assert token.expires_at is not None and token.revoked_at is None

    page.goto(live_server.url + "/accounts/password/")
    page.locator("#id_old_password").fill("old-passphrase-123")
    page.locator("#id_new_password1").fill("new-passphrase-456")
    page.locator("#id_new_password2").fill("new-passphrase-456")
    _no_horizontal_scroll(page)
    page.screenshot(path=str(screenshot_dir / f"accounts-password-change-{lang}-{width}.png"))
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("zh-hant", 1280)])
def test_the_lockout_page(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    statuses = []
    for _ in range(6):
        page.goto(live_server.url + "/accounts/login/")
        page.locator("#id_username").fill("nobody@example.com")
        page.locator("#id_password").fill("wrong-passphrase")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.locator("main form button[type=submit]").click()
        statuses.append(answer.value.status)
    assert statuses[-1] == 429
    assert answer.value.headers.get("retry-after")
    _no_horizontal_scroll(page)
    page.screenshot(path=str(screenshot_dir / f"accounts-locked-out-{lang}-{width}.png"))
