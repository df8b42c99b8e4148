"""Sessions are kept in PostgreSQL and read through the cache (accounts/sessions.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PASSWORD, MembershipFactory

pytestmark = pytest.mark.django_db

UNREACHABLE = {
    **settings.CACHES,
    "sessions": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers there
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    },
}


def _signed_in(client: Client) -> str:
    membership = MembershipFactory(organization__name="Tessellate Labs")
    response = client.post(
        reverse("accounts:login"), {"username": membership.user.email, "password": PASSWORD}
    )
    assert response.status_code == 302
    return membership.organization.name


def _dashboard(client: Client) -> str:
    response = client.get(reverse("advisor:dashboard"))
    assert response.status_code == 200, response.status_code
    return response.text


def test_a_signed_in_page_reads_the_session_from_the_cache_not_the_database(
    client: Client,
) -> None:
    name = _signed_in(client)
    _dashboard(client)
    with CaptureQueriesContext(connection) as queries:
        assert name in _dashboard(client)
    assert not [q for q in queries if "django_session" in q["sql"]]


def test_a_flushed_cache_signs_nobody_out(client: Client) -> None:
    name = _signed_in(client)
    assert name in _dashboard(client)
    cache.clear()
    assert name in _dashboard(client)
    # Read from the database once, then from the cache again.
    with CaptureQueriesContext(connection) as queries:
        assert name in _dashboard(client)
    assert not [q for q in queries if "django_session" in q["sql"]]


@override_settings(CACHES=UNREACHABLE, SESSION_CACHE_ALIAS="sessions")
def test_an_unreachable_cache_costs_speed_not_the_page(client: Client) -> None:
    name = _signed_in(client)
    assert name in _dashboard(client)
    assert name in _dashboard(client)


def test_a_logged_out_session_is_gone_from_the_cache_too(client: Client) -> None:
    _signed_in(client)
    _dashboard(client)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.post(reverse("accounts:logout"))
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = cookie
    response = replay.get(reverse("advisor:dashboard"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


@override_settings(CACHES=UNREACHABLE, SESSION_CACHE_ALIAS="sessions")
def test_signing_in_over_an_earlier_visit_works_while_the_cache_is_unreachable(
    client: Client,
) -> None:
    # An earlier visit left an anonymous session (an invitation's organisation, say): signing in
    # gives it a new key and drops the old one, whose copy the unreachable cache cannot forget.
    earlier = client.session
    earlier["visited"] = True
    earlier.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = earlier.session_key
    name = _signed_in(client)
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != earlier.session_key
    assert name in _dashboard(client)
    # The old key signs nobody in: its row is gone from the database.
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = earlier.session_key
    response = replay.get(reverse("advisor:dashboard"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
