from __future__ import annotations

# Load the Celery app with Django so @shared_task binds to it and `transaction.on_commit`
# enqueues through the configured broker.
from advisor.celery import app as celery_app

__all__ = ["celery_app"]
