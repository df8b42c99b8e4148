"""A done report's PDF: sent to the PDF queue, rendered once (one claim among every web
process and worker) and stored."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.db.models import Q
from django.utils import timezone

from advisor.engine.result.document import normalise
from advisor.models import Report
from advisor.selectors.measurements import report_measured

logger = logging.getLogger(__name__)


def report_pdf_enqueue(*, report_id: int) -> bool:
    """Send the PDF task of a done report to the PDF queue; False (and a log line) when the
    broker cannot be reached: a member's first download renders the PDF then."""
    from advisor.tasks import generate_report_pdf

    try:
        generate_report_pdf.apply_async(
            args=(report_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors
        logger.warning("report %s: broker unreachable, PDF left to the download", report_id)
        return False
    return True


def _pdf_claim_stale_before() -> datetime:
    # A render that was claimed longer ago than a report task may run died with its process.
    return timezone.now() - timedelta(seconds=settings.REPORT_TIME_LIMIT)


def report_pdf_claim(*, report: Report) -> bool:
    """Take the one right to render a report's PDF: True for exactly one caller among any
    number of web processes and workers at once, until the PDF is stored or the claim is
    older than a report task may run (its renderer died)."""
    claimed = (
        Report.objects.filter(pk=report.pk, pdf="")
        .filter(Q(pdf_started_at__isnull=True) | Q(pdf_started_at__lt=_pdf_claim_stale_before()))
        .update(pdf_started_at=timezone.now())
    )
    return claimed == 1


def report_pdf_rendering(*, report: Report) -> bool:
    """Whether someone holds a live claim on this report's PDF (it is being rendered now)."""
    return Report.objects.filter(
        pk=report.pk, pdf="", pdf_started_at__gte=_pdf_claim_stale_before()
    ).exists()


def report_pdf_request(*, report: Report) -> None:
    """Ask the PDF worker for a report's PDF unless it is stored or being rendered: what a
    download that may not render (an anonymous link holder) does. Concurrent requests send
    the task once per minute at most; the claim keeps a duplicate task from rendering."""
    if report.pdf or report_pdf_rendering(report=report):
        return
    if cache.add(f"report-pdf-requested:{report.pk}", 1, timeout=60):
        report_pdf_enqueue(report_id=report.pk)


def report_pdf_render(*, report: Report) -> Report:
    """Store the PDF of a done report if it has none yet, and return the report with it.

    The worker's PDF task and a member's download that comes before it both land here; only
    the caller that claims the render (report_pdf_claim) renders, so concurrent downloads
    never render the same PDF twice: the others get the report back without a PDF (and say
    it is being prepared). A failed render gives its claim up for the next try.
    """
    if report.pdf or not isinstance(report.result, dict):
        return report
    if not report_pdf_claim(report=report):
        report.refresh_from_db(fields=["pdf"])
        return report
    from advisor.reporting import render

    try:
        if report.html:
            # The body its page shows, rendered once by report_generate (the measured section
            # included): only the PDF is new. A body stored before the measured section was
            # part of it shows the section once the version is generated again, as its page.
            pdf = render.report_pdf(
                report.html, title=report.assessment.title, language=report.language
            )
        else:  # a report stored before its body was
            pdf = render.render_report(
                result=normalise(report.result),
                title=report.assessment.title,
                organization=report.assessment.organization.name,
                language=report.language,
                generated_at=report.started_at or report.requested_at,
                measured=report_measured(report=report),
            ).pdf
        name = f"report-{report.assessment_id}-{report.number}.pdf"
        stored = report.pdf.storage.save(
            report.pdf.field.generate_filename(report, name), ContentFile(pdf)
        )
    except BaseException:  # a time limit included: the next download or task tries again
        Report.objects.filter(pk=report.pk, pdf="").update(pdf_started_at=None)
        raise
    if Report.objects.filter(pk=report.pk, pdf="").update(pdf=stored):
        report.pdf.name = stored
        return report
    report.pdf.storage.delete(stored)  # a stale claim's render stored its PDF first
    report.refresh_from_db(fields=["pdf"])
    return report
