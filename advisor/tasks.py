from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, connection

from advisor import services


@shared_task(name="advisor.health", acks_late=False)
def health() -> dict[str, bool]:
    """Answers from inside a worker: proves the worker runs and reaches the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"worker": True, "database": True}


@shared_task(
    name="advisor.generate_report",
    acks_late=True,
    # A worker killed mid-task gives the message back, so another worker finishes the report.
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError, OSError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=5,
)
def generate_report(report_id: int) -> str | None:
    report = services.report_generate(report_id=report_id)
    return report.status if report is not None else None


@shared_task(name="advisor.sweep_reports", acks_late=False)
def sweep_reports() -> int:
    return services.report_sweep(older_than=timedelta(seconds=settings.REPORT_STUCK_AFTER_SECONDS))


@shared_task(
    name="advisor.impact_preview",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=3,
)
def run_impact_preview(preview_id: int) -> str:
    return services.impact_preview_run(preview_id=preview_id).status


@shared_task(
    name="advisor.refresh_prices",
    acks_late=False,
    # An AWS regional offer file is hundreds of MB: longer than the default task limit. The soft
    # limit fails the source being read (its run says so) before the hard one kills the task.
    soft_time_limit=settings.PRICE_REFRESH_TIME_LIMIT_SECONDS,
    time_limit=settings.PRICE_REFRESH_TIME_LIMIT_SECONDS + 60,
)
def refresh_prices() -> dict[str, str]:
    """Beat's daily fetch of the public price lists into a draft catalog."""
    runs = services.price_refresh_scheduled()
    return {run.source: run.status for run in runs}
