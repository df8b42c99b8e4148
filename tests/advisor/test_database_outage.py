"""PostgreSQL goes away mid-use (every connection terminated, as in a restart): a clean 503
page, then recovery with nothing lost."""

from __future__ import annotations

import pytest
from django.db import connection, connections
from django.test import Client

from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _terminate_other_connections() -> None:
    # A second connection kills every other backend of this database, as a restart would.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
    finally:
        other.close()


def test_a_database_restart_gives_a_clean_503_then_recovers_with_nothing_lost() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("drill for PostgreSQL")
    membership = MembershipFactory()
    obj = AssessmentFactory(
        membership=membership,
        title="Survives",
        answers={"schema_version": 2, "organization": {"industry": "media", "regions": ["tokyo"]}},
    )
    client = Client(raise_request_exception=False)
    client.force_login(membership.user)
    assert client.get("/dashboard/").status_code == 200

    _terminate_other_connections()
    outage = client.get("/dashboard/")
    assert outage.status_code == 503
    assert outage["Retry-After"] == "15"
    assert "Temporarily unavailable" in outage.text
    assert "Traceback" not in outage.text

    # The next request gets a fresh connection (Django does this at each request's start).
    connection.close()
    again = client.get("/dashboard/")
    assert again.status_code == 200
    assert "Survives" in again.text
    obj.refresh_from_db()
    assert obj.answers["organization"]["industry"] == "media"
