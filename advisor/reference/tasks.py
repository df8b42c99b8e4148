"""Workers' side of impact previews and the daily price refresh: thin adapters over services.

The task names keep their advisor. prefix: messages already queued and beat's schedule name them.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from advisor.reference.services.impact import impact_preview_run
from advisor.reference.services.prices import price_refresh_scheduled


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
    return impact_preview_run(preview_id=preview_id).status


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
    runs = price_refresh_scheduled()
    return {run.source: run.status for run in runs}
