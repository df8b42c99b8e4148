from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"
LOGIN = "/accounts/login/"
WRONG = "wrong-password"


def _behind_proxy(client_address: str) -> Client:
    # What one proxy in front of gunicorn forwards: the client's address appended to the header.
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


def _login(client: Client, email: str, password: str = WRONG) -> int:
    return client.post(LOGIN, {"username": email, "password": password}).status_code


def test_behind_a_proxy_an_attackers_failures_do_not_lock_out_the_victim(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    attacker = _behind_proxy("203.0.113.9")
    statuses = [_login(attacker, "grace@example.com") for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    assert _login(attacker, "grace@example.com", PASSWORD) == 429
    victim = _behind_proxy("198.51.100.7")
    assert _login(victim, "grace@example.com", PASSWORD) == 302


def test_the_lockout_page_says_when_to_come_back(settings: Any) -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    for _ in range(5):
        _login(client, "grace@example.com")
    locked = client.post(LOGIN, {"username": "grace@example.com", "password": PASSWORD})
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert "Too many login attempts" in locked.text


def test_login_ignores_the_case_of_the_email() -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    assert _login(client, "  Grace@Example.COM ", PASSWORD) == 302
    assert client.get(reverse("advisor:dashboard")).status_code == 200


def test_failures_count_towards_the_lockout_whatever_the_case() -> None:
    UserFactory(email="grace@example.com")
    client = Client()
    spellings = ["grace@example.com", "Grace@example.com", "GRACE@EXAMPLE.COM", "grace@Example.com"]
    assert [_login(client, email) for email in spellings] == [200] * 4
    assert _login(client, "gRaCe@example.com") == 429
    assert _login(client, "grace@example.com", PASSWORD) == 429


def test_one_address_spraying_a_password_across_accounts_is_stopped(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    sprayer = _behind_proxy("203.0.113.9")
    statuses = [_login(sprayer, f"person{i}@example.com") for i in range(20)]
    assert statuses == [200] * 20
    refused = sprayer.post(LOGIN, {"username": "grace@example.com", "password": PASSWORD})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 15 * 60
    # Others behind the same proxy are not affected.
    assert _login(_behind_proxy("198.51.100.7"), "grace@example.com", PASSWORD) == 302


def test_many_addresses_guessing_one_account_are_stopped(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    UserFactory(email="grace@example.com")
    statuses = [_login(_behind_proxy(f"203.0.113.{i}"), "grace@example.com") for i in range(20)]
    assert statuses == [200] * 20
    assert _login(_behind_proxy("203.0.113.200"), "grace@example.com", PASSWORD) == 429
