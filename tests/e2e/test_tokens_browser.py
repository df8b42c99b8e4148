from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import ApiToken, Membership
from accounts.services import api_token_create
from tests.factories import PASSWORD, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = {
    "en": {
        "heading": "API tokens",
        "name": "Name",
        "create": "Create token",
        "new": "Your new token",
        "revoke": "Revoke",
        "revoked": "no longer works",
    },
    "zh-hant": {
        "heading": "API 權杖",
        "name": "名稱",
        "create": "建立權杖",
        "new": "您的新權杖",
        "revoke": "撤銷",
        "revoked": "已失效",
    },
}


def _log_in(page: Page, live_server: Any, membership: Membership, lang: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill(membership.user.email)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/dashboard/")


@pytest.mark.parametrize(
    ("lang", "width"), [("en", 1280), ("zh-hant", 1280), ("en", 390), ("zh-hant", 390)]
)
def test_person_creates_a_token_sees_it_once_and_revokes_one(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, width: int
) -> None:
    text = TEXT[lang]
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    membership = MembershipFactory()
    api_token_create(user=membership.user, name="Old laptop script")
    page.set_viewport_size({"width": width, "height": 900})
    _log_in(page, live_server, membership, lang)

    page.goto(live_server.url + "/accounts/tokens/")
    expect(page.get_by_role("heading", name=text["heading"], exact=True)).to_be_visible()
    page.get_by_label(text["name"]).fill("CI pipeline <nightly>")
    page.get_by_role("button", name=text["create"]).click()

    expect(page.get_by_role("heading", name=text["new"])).to_be_visible()
    key = page.locator("#new-api-key").inner_text().strip()
    token = ApiToken.objects.get(name="CI pipeline <nightly>")
    assert token.prefix == key[:8] and len(key) >= 40
    expect(page.get_by_role("row").filter(has_text="CI pipeline <nightly>")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"tokens-{lang}-{width}.png"), full_page=True)

    page.reload()
    expect(page.locator("#new-api-key")).to_have_count(0)

    page.get_by_role("button", name=f"{text['revoke']} Old laptop script").click()
    expect(page.get_by_role("status")).to_contain_text(text["revoked"])
    expect(page.get_by_role("row").filter(has_text="Old laptop script")).to_have_count(0)
    assert ApiToken.objects.filter(revoked_at__isnull=False).count() == 1
    assert not [e for e in errors if "Content Security Policy" in e], errors
