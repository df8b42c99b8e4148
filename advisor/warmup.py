"""What a fresh process loads before its first request or task, so that the first person it
serves does not wait for it: the published catalog and scoring model compiled (about a
second), the busiest templates, the report module and the broker connection, and for workers
WeasyPrint with its fonts."""

from __future__ import annotations

import logging

from django.db import connections
from django.template.loader import get_template

logger = logging.getLogger(__name__)

TEMPLATES = ("advisor/wizard.html", "advisor/report.html", "advisor/dashboard.html")


def web() -> None:
    """gunicorn imports advisor.wsgi in each worker process: this runs there. The report
    module (charts, WeasyPrint: ~1.4 s to import) is loaded too: the what-if panel and a PDF
    download that comes before the worker's use it."""
    from advisor.reporting import render  # noqa: F401 - imported for its start-up cost

    _engine()
    for name in TEMPLATES:
        get_template(name)
    _broker()


def _broker() -> None:
    # The first report request of a process would otherwise open the broker connection
    # (~0.35 s here): a submit's p95 in the load test was that.
    from advisor.celery import app

    try:
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
    except Exception:  # noqa: BLE001 - kombu raises transport-specific errors
        logger.warning("warm-up: the broker was not reached", exc_info=True)


def worker() -> None:
    """A Celery worker before it forks its pool: the children inherit what is loaded."""
    from advisor.reporting.warmup import warm_up

    warm_up()
    _engine()


def _engine() -> None:
    from advisor.decisions import live

    try:
        live.active_both()
    except Exception:  # noqa: BLE001 - a warm-up never stops a process from starting
        # No database yet (before the first migrate): the first request compiles instead.
        logger.warning("warm-up: the published catalog was not compiled", exc_info=True)
    finally:
        # Nothing opened here may be shared with forked children or kept past start-up
        # (a connection inside a transaction is someone else's: a test's, say).
        for opened in connections.all(initialized_only=True):
            if not opened.in_atomic_block:
                opened.close()
