from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def test_landing_page_says_what_the_product_does_and_offers_a_start(client: Client) -> None:
    page = client.get(reverse("advisor:landing"))
    assert page.status_code == 200
    assert "Which accelerators should your AI team run on?" in page.text
    assert reverse("accounts:signup") in page.text


def test_landing_page_in_traditional_chinese(client: Client) -> None:
    page = client.get(reverse("advisor:landing"), HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "您的 AI 團隊該用哪種加速器？" in page.text


def test_language_switcher_sets_the_language(client: Client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "zh-hant", "next": reverse("advisor:landing")}
    )
    assert response.status_code == 302
    assert "您的 AI 團隊該用哪種加速器？" in client.get(reverse("advisor:landing")).text


def test_pages_carry_a_strict_csp_with_a_nonce_on_scripts(client: Client) -> None:
    page = client.get(reverse("advisor:landing"))
    policy = page["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce
    assert f'nonce="{nonce.group(1)}"' in page.text
    # Bootstrap and htmx are served from our own static files, never a CDN.
    assert "/static/vendor/bootstrap/" in page.text
    assert "/static/django-htmx/" in page.text or "htmx" in page.text
    assert "cdn" not in page.text.lower()


def test_dashboard_shows_the_working_organisation(client: Client) -> None:
    membership = MembershipFactory(organization__name="Tokyo Vision Lab")
    client.force_login(membership.user)
    page = client.get(reverse("advisor:dashboard"))
    assert "Tokyo Vision Lab" in page.text


def test_favicon_ico_answers_with_the_site_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert re.search(r"/static/advisor/favicon(\.[0-9a-f]{12})?\.svg$", response["Location"])
    assert "max-age=86400" in response["Cache-Control"]
    assert client.post("/favicon.ico").status_code == 405
