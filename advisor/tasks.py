from __future__ import annotations

from celery import shared_task
from django.db import connection


@shared_task(name="advisor.health", acks_late=False)
def health() -> dict[str, bool]:
    """Answers from inside a worker: proves the worker runs and reaches the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"worker": True, "database": True}
