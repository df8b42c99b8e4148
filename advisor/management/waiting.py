"""What the benchmark and load-test commands share: waiting for a report the worker makes."""

from __future__ import annotations

import time

from django.core.management.base import CommandError

from advisor.models import Report


def wait_for_report_and_pdf(report: Report, *, deadline: float, poll: float) -> None:
    """Wait until `report` is done and holds the PDF the worker renders after its page, or
    until `deadline` (a time.monotonic() value); CommandError when it failed or got neither."""
    while not (report.is_finished and (report.pdf or report.status != Report.Status.DONE)):
        if time.monotonic() > deadline:
            break
        time.sleep(poll)
        report.refresh_from_db(fields=["status", "error", "finished_at", "pdf"])
    if report.status != Report.Status.DONE:
        raise CommandError(f"report {report.pk} is {report.status}: {report.error}")
    if not report.pdf:
        raise CommandError(f"report {report.pk}: the worker stored no PDF")
