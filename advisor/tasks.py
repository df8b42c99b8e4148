from __future__ import annotations

import math
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from types import FrameType
from typing import Any

from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, connection

from advisor.models import Report
from advisor.services import mail, pdfs, reports


@shared_task(name="advisor.health", acks_late=False)
def health() -> dict[str, bool]:
    """Answers from inside a worker: proves the worker runs and reaches the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"worker": True, "database": True}


@contextmanager
def _time_limits(soft: float, hard: float) -> Iterator[None]:
    """Raise ReportTimedOut `soft` seconds in, and TimeLimitExceeded at `hard` if the work
    still has not ended.

    Celery's own limits need its prefork pool (docker compose); the solo pool of `make run` and
    the tests enforces none, so the task's process keeps its own clock with SIGALRM. An alarm
    interrupts Python code (pygal's endless title splitting was Python); only a prefork
    worker, which kills the child at `time_limit`, stops a task stuck inside C code.
    """
    if soft <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        if hard > soft:
            signal.signal(signal.SIGALRM, hard_expire)
            signal.setitimer(signal.ITIMER_REAL, hard - soft)
        raise reports.ReportTimedOut

    def hard_expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(hard)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, soft)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _ReportTask(Task[Any, Any]):
    def on_failure(self, exc: Exception, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        # A hard time limit (the prefork pool killed the process) or retries used up: without
        # this the row would stay running until the sweeper sent it round again.
        failure = (
            Report.Failure.TIMED_OUT
            if isinstance(exc, TimeLimitExceeded | reports.ReportTimedOut)
            else Report.Failure.ERROR
        )
        report_id = args[0] if args else (kwargs or {}).get("report_id")
        if report_id is not None:
            try:
                # The limit may have cut a query short and left the connection mid-command.
                connection.close()
                reports.report_fail(report_id=int(report_id), failure=failure)
            except DatabaseError:
                pass  # the sweeper marks it failed once the database is back


# How a report's tasks (its page, then its PDF) survive workers and databases going away.
_REPORT_TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    # A worker killed mid-task gives the message back, so another worker finishes it.
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError, OSError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 5,
    # The prefork pool kills the task's process here; _time_limits covers the solo pool.
    "time_limit": math.ceil(settings.REPORT_TIME_LIMIT),
}


@shared_task(base=_ReportTask, name="advisor.generate_report", **_REPORT_TASK_OPTIONS)
def generate_report(report_id: int) -> str | None:
    with _time_limits(settings.REPORT_SOFT_TIME_LIMIT, settings.REPORT_TIME_LIMIT):
        report = reports.report_generate(report_id=report_id)
    return report.status if report is not None else None


@shared_task(name="advisor.generate_report_pdf", **_REPORT_TASK_OPTIONS)
def generate_report_pdf(report_id: int) -> bool:
    """The PDF of a done report, rendered after its page so that the page is not kept waiting.
    A failure here fails nothing the reader sees: the first download renders the PDF then."""
    report = (
        Report.objects.select_related("assessment__organization")
        .filter(pk=report_id, status=Report.Status.DONE)
        .first()
    )
    if report is None:
        return False
    with _time_limits(settings.REPORT_SOFT_TIME_LIMIT, settings.REPORT_TIME_LIMIT):
        pdfs.report_pdf_render(report=report)
    return True


@shared_task(
    name="advisor.send_email",
    acks_late=True,
    # A mail server that refuses, drops or times out (smtplib's errors are OSErrors): later.
    autoretry_for=(OSError,),
    retry_backoff=10,
    retry_backoff_max=600,
    max_retries=8,
)
def send_email(payload: dict[str, Any]) -> None:
    """An email built in the request (in its reader's language, with its links) and queued
    once the request committed (services.mail): the message itself, not ids, so that what
    is sent is what the request wrote."""
    mail.email_send(payload=payload)


@shared_task(name="advisor.sweep_reports", acks_late=False)
def sweep_reports() -> int:
    return reports.report_sweep(older_than=timedelta(seconds=settings.REPORT_STUCK_AFTER_SECONDS))
