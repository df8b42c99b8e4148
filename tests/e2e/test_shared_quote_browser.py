"""A visitor with a share link asks for a quote in a real browser. The shared page sends no
referrer to other sites; with `no-referrer` a browser posts its forms with `Origin: null`,
which Django's CSRF check refuses (403), so the form only works when the page keeps its own
origin (`same-origin`). Screenshots at 390 px go to the screenshot folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import Role
from advisor.models import Lead
from advisor.reference.services.catalog import catalog_publish
from advisor.services import sharing
from tests.advisor.test_house_offers import _hong_kong_hosted, _offer_post
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("lang", "sent"),
    [("en", "Your quote request was sent"), ("zh-hant", "您的報價請求已送交")],
)
def test_a_visitor_sends_a_quote_request_from_a_shared_report(
    page: Page, live_server: Any, screenshot_dir: Path, lang: str, sent: str
) -> None:
    staff = Client()
    staff.force_login(operator_member(Role.ADMIN))
    draft = CatalogFactory()
    assert staff.post(reverse("admin:reference_houseoffer_add"), _offer_post(draft)).status_code
    catalog_publish(catalog=draft, user=None)
    membership = MembershipFactory()
    report = ReportFactory(
        assessment=AssessmentFactory(
            membership=membership, submitted=True, answers=_hong_kong_hosted()
        ),
        language=lang,
    )
    _link, token = sharing.share_link_create(report=report, user=membership.user)
    page.set_viewport_size({"width": 390, "height": 844})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + f"/s/{token}/?offer=house-hk-h200#quote")
    quote = page.locator("#quote")
    expect(quote).to_be_visible()
    page.locator("#id_contact_name").fill("Mei Chan")
    page.locator("#id_contact_email").fill("mei@example.com")
    quote.screenshot(path=str(screenshot_dir / f"shared-quote-{lang}-390.png"))
    quote.locator("button[type=submit]").click()
    expect(page.locator(".alert-success")).to_contain_text(sent)
    lead = Lead.objects.get()
    assert (lead.contact_email, lead.organization) == (
        "mei@example.com",
        report.assessment.organization,
    )
