"""Whether the database and the broker answer: the /healthz page and `manage.py healthcheck`."""

from __future__ import annotations

import logging

from django.db import connection

from advisor.celery import app as celery_app

logger = logging.getLogger(__name__)


def database_reachable() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any driver error means "not reachable" to a health probe
        logger.warning("health: database unreachable", exc_info=True)
        return False
    return True


def broker_reachable() -> bool:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception:  # kombu raises transport-specific errors
        logger.warning("health: broker unreachable", exc_info=True)
        return False
    return True
