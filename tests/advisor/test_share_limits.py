from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from tests.advisor.test_reports import _assessment, _report, _share
from tests.factories import MembershipFactory

PROXY = "10.0.0.1"


def _behind_proxy(client_address: str) -> Client:
    # What one proxy in front of gunicorn forwards: the client's address appended to the header.
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


@pytest.fixture
def shared_path(client: Client) -> str:
    owner = MembershipFactory()
    client.force_login(owner.user)
    return _share(client, _report(_assessment(owner)))


@pytest.mark.django_db
def test_behind_a_proxy_one_clients_guessing_does_not_refuse_another(
    settings: Any, shared_path: str
) -> None:
    settings.PROXY_COUNT = 1
    attacker = _behind_proxy("203.0.113.9")
    statuses = [attacker.get(f"/s/guess-{i}/").status_code for i in range(21)]
    assert statuses == [404] * 20 + [429]
    neighbour = _behind_proxy("198.51.100.7")
    assert neighbour.get("/s/mistyped-link/").status_code == 404
    assert neighbour.get(shared_path).status_code == 200


@pytest.mark.django_db
def test_addresses_the_client_claims_do_not_escape_the_limit(settings: Any) -> None:
    settings.PROXY_COUNT = 1
    statuses = [
        # The proxy appends the real address after whatever the client sent.
        Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, 203.0.113.9")
        .get(f"/s/guess-{i}/")
        .status_code
        for i in range(21)
    ]
    assert statuses[-1] == 429


@pytest.mark.django_db
def test_a_working_link_is_never_refused_to_a_guesser(shared_path: str) -> None:
    guesser = Client()
    for i in range(25):
        guesser.get(f"/s/guess-{i}/")
    refused = guesser.get("/s/guess-again/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 600
    assert guesser.get(shared_path).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_concurrent_misses_let_exactly_the_limit_through() -> None:
    def miss(i: int) -> int:
        try:
            return Client(REMOTE_ADDR="203.0.113.9").get(f"/s/guess-{i}/").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = Counter(pool.map(miss, range(60)))
    assert statuses == {404: 20, 429: 40}
