from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from advisor.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker_down() -> Iterator[None]:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    saved = celery_app.conf.broker_url
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    yield
    celery_app.conf.broker_url = saved


def test_healthz_is_ok_when_database_and_broker_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "broker": True}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_is_503_when_the_broker_is_down(client: Client, broker_down: None) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": True, "broker": False}


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
def test_a_real_worker_answers_the_health_task(worker: Any) -> None:
    from advisor.tasks import health

    worker()
    assert health.delay().get(timeout=20) == {"worker": True, "database": True}
