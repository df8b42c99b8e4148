"""htmx targets are the client's to send: an unknown one gets the full page, never a 500; and
the error pages carry the site's CSP header of their own."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.urls import get_resolver, reverse

from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def step_url(client: Client) -> str:
    membership = MembershipFactory()
    client.force_login(membership.user)
    obj = AssessmentFactory(membership=membership, title="Targets")
    return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"})


@pytest.mark.parametrize("target", ["nonexistent", "wizard#preview", "../base.html", "x" * 300])
def test_an_unknown_hx_target_gets_the_full_page(
    client: Client, step_url: str, target: str
) -> None:
    response = client.get(step_url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=target)
    assert response.status_code == 200
    assert "<html" in response.text and 'id="wizard"' in response.text
    assert "HX-Target" in response["Vary"]


def test_an_unknown_hx_target_on_a_post_gets_the_full_page(client: Client, step_url: str) -> None:
    response = client.post(
        step_url,
        {"industry": "not-an-industry", "action": "next"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="nonexistent",
    )
    assert response.status_code == 200
    assert "<html" in response.text


def test_a_known_hx_target_still_gets_its_partial(client: Client, step_url: str) -> None:
    response = client.get(step_url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="wizard")
    assert response.status_code == 200
    assert "<html" not in response.text and 'id="wizard"' in response.text


@pytest.mark.parametrize(
    ("error", "status"), [(ValueError("bug"), 500), (OperationalError("gone"), 503)]
)
def test_the_error_pages_carry_the_csp_header_themselves(error: Exception, status: int) -> None:
    # The handler Django calls for an uncaught exception, called the way Django calls it;
    # its answer may never pass back through the CSP middleware (an error above it).
    handler = get_resolver().resolve_error_handler(500)
    request = RequestFactory().get("/")
    try:
        raise error
    except Exception:
        response = handler(request)
    assert response.status_code == status
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "nonce" not in policy
