"""Report versions: request one (throttled per person and organisation), generate it on a
worker, and fail, retry or sweep the ones that did not finish."""

from __future__ import annotations

import copy
import logging
import math
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from accounts.models import Organization, User
from advisor.decisions import evaluation, languages
from advisor.engine import parse_answers
from advisor.engine.result.document import ResultDocument, normalise
from advisor.engine.sizing import measured
from advisor.models import Assessment, Measurement, Report
from advisor.reference.models import Catalog
from advisor.selectors.measurements import report_measured
from advisor.services.pdfs import report_pdf_enqueue

logger = logging.getLogger(__name__)


class ReportThrottled(Exception):
    """Too many report requests from this person or organisation; try again in `retry_after`
    seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _window_hit(key: str, *, limit: int, window: int) -> int | None:
    """Count one hit on `key` in a window that opens with its first hit; the seconds until
    the window closes when the count is past `limit`, else None. Redis's INCR keeps
    concurrent hits exact."""
    now = time.time()
    cache.add(f"{key}:since", now, timeout=window)
    cache.add(f"{key}:count", 0, timeout=window)
    try:
        count = cache.incr(f"{key}:count")
    except ValueError:  # the window closed between add and incr
        cache.set(f"{key}:count", 1, timeout=window)
        count = 1
    if count <= limit:
        return None
    since = float(cache.get(f"{key}:since", now))
    return max(1, math.ceil(since + window - now))


def report_throttle(*, user: User | None, organization: Organization) -> None:
    """Count one report request against the person's and the organisation's limits per
    window (REPORT_REQUESTS_PER_USER, REPORT_REQUESTS_PER_ORGANIZATION, per
    REPORT_REQUEST_WINDOW_SECONDS); raises ReportThrottled past either. Reports share the
    workers, so one organisation's burst must not hold everyone else's reports back."""
    window = settings.REPORT_REQUEST_WINDOW_SECONDS
    try:
        waits = [
            _window_hit(
                f"report-requests:org:{organization.pk}",
                limit=settings.REPORT_REQUESTS_PER_ORGANIZATION,
                window=window,
            )
        ]
        if user is not None:
            waits.append(
                _window_hit(
                    f"report-requests:user:{user.pk}",
                    limit=settings.REPORT_REQUESTS_PER_USER,
                    window=window,
                )
            )
    except Exception:  # a cache outage costs the limit, never the submit or the API
        logger.warning("report request limit unavailable", exc_info=True)
        return
    refused = [w for w in waits if w is not None]
    if refused:
        raise ReportThrottled(max(refused))


class ReportTimedOut(Exception):
    """Raised inside a report's generation when it runs past its time limit (see tasks.py)."""


def report_request(
    *,
    assessment: Assessment,
    user: User | None,
    language: str,
    throttle: bool = True,
    source: Report | None = None,
) -> Report:
    """Create the next report version for a submitted assessment and enqueue its generation.

    The version starts from `source`'s answers when it names a version whose answers differ
    from the assessment's (one saved from a what-if, or generated again from one) or that was
    re-planned with measured figures, and records that it did (`origin`, `based_on`);
    otherwise from the assessment's answers. Regenerating
    in another language or with a newer model or catalog so never drops a saved scenario.
    A report of the same answers in the same language that is still pending or running is
    returned instead of a new one. With `throttle` (people's requests; not the submit's first
    report nor the benchmarks) the request counts against report_throttle's limits and
    raises ReportThrottled past them.

    The task is sent only after the transaction commits, so a worker never looks for a row
    that is not there; if the broker is down the report stays pending and the sweeper sends
    it again later.
    """
    language = languages.engine_language(language)
    with transaction.atomic():
        locked = (
            Assessment.objects.select_for_update()
            .select_related("organization")
            .get(pk=assessment.pk)
        )
        answers, origin, based_on = locked.answers, Report.Origin.ASSESSMENT, None
        if source is not None and (source.answers != locked.answers or _is_measured(source)):
            # A version re-planned with measured figures stays measured: its generation
            # (_report_result) passes the organisation's measurements again.
            answers, origin, based_on = source.answers, Report.Origin.REGENERATED, source
        unfinished = locked.reports.filter(
            status__in=[Report.Status.PENDING, Report.Status.RUNNING], language=language
        )
        for waiting in unfinished:
            if waiting.answers == answers:
                return waiting
        if throttle:
            report_throttle(user=user, organization=locked.organization)
        number = (locked.reports.aggregate(n=Max("number"))["n"] or 0) + 1
        report = Report.objects.create(
            assessment=locked,
            number=number,
            language=language,
            requested_by=user,
            answers=copy.deepcopy(answers),
            origin=origin,
            based_on=based_on,
        )
        transaction.on_commit(lambda: report_enqueue(report_id=report.pk))
    return report


def report_enqueue(*, report_id: int) -> bool:
    """Send the generation task; False (and a log line) when the broker cannot be reached."""
    from advisor.tasks import generate_report

    try:
        # One quick retry re-opens a pooled connection that died with an earlier broker;
        # anything longer would keep the person's request waiting on a broker that is down.
        generate_report.apply_async(
            args=(report_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors; the sweeper retries
        logger.warning("report %s: broker unreachable, left pending", report_id, exc_info=True)
        return False
    return True


def report_generate(*, report_id: int) -> Report | None:
    """Compute, render and store one report. Idempotent: a done report is left as it is.

    Runs the engine on the answers frozen at request time, renders the HTML, and records the
    engine, scoring-model and catalog versions used. The report is done once its page can be
    read: the PDF (nine tenths of the rendering time) follows in a task of its own
    (report_pdf_render), and a download that comes first renders it then. Errors in the
    answers or the rendering mark the report failed with the reason; database errors
    propagate so the task can retry.
    """
    from advisor.reporting import render

    with transaction.atomic():
        report = (
            Report.objects.select_for_update()
            .select_related("assessment__organization")
            .filter(pk=report_id)
            .first()
        )
        if report is None or report.status == Report.Status.DONE:
            # Deleted with its assessment, or finished by an earlier delivery of the message.
            return report
        report.status = Report.Status.RUNNING
        report.started_at = timezone.now()
        report.attempts += 1
        report.error = ""
        report.save(update_fields=["status", "started_at", "attempts", "error"])
    try:
        result = _report_result(report)
        common: dict[str, Any] = {
            "result": result,
            "title": report.assessment.title,
            "organization": report.assessment.organization.name,
            "language": report.language,
            "generated_at": report.started_at,
        }
        report.result = result  # what report_measured compares with the version it is based on
        common["measured"] = report_measured(report=report)
        body, _document = render.render_report_html(**common)
    except ReportTimedOut:
        logger.error("report %s: stopped at its time limit", report_id)
        if not transaction.get_connection().in_atomic_block:
            # The limit may have cut a query short and left the connection mid-command.
            transaction.get_connection().close()
        return report_fail(report_id=report.pk, failure=Report.Failure.TIMED_OUT)
    except (DatabaseError, OSError):
        raise
    except Exception:  # a bug or bad data: record it, don't retry forever
        # The exception goes to the logs; the reader sees a plain message (Report.Failure).
        logger.exception("report %s failed", report_id)
        return report_fail(report_id=report.pk, failure=Report.Failure.ERROR)
    versions = result["versions"]
    report.result = result
    report.html = body
    report.engine_version = str(versions["engine"])
    report.scoring_model = (
        f"{versions['scoring_model']['name']} v{versions['scoring_model']['version']}"
    )
    report.catalog_version = str(versions["catalog"])
    if report.catalog_version.isdigit():
        report.catalog = Catalog.objects.filter(version=int(report.catalog_version)).first()
    report.status = Report.Status.DONE
    report.finished_at = timezone.now()
    report.save()
    report_pdf_enqueue(report_id=report.pk)
    return report


def _report_result(report: Report) -> ResultDocument:
    """The result a what-if version was saved with (report_save_what_if), else a fresh run with
    the organisation's measurements for a regenerate of a measured version, else the submit's
    own result when it is what the engine would give on the day the report was requested (same
    answers, language, versions and day: the first report of a submit), else a fresh run."""
    if isinstance(report.result, dict):
        logger.info("report %s: keeps the result it was requested with", report.pk)
        return normalise(report.result)
    if report.based_on is not None and _is_measured(report.based_on):
        logger.info("report %s: runs the engine with the organisation's measurements", report.pk)
        return evaluation.evaluate(
            parse_answers(report.answers),
            language=report.language,
            measurements=engine_measurements(report.assessment.organization),
        )
    stored = (report.assessment.result or {}).get(report.language)
    if isinstance(stored, dict) and report.answers == report.assessment.answers:
        submitted = normalise(stored)
        requested = timezone.localdate(report.requested_at)
        if evaluation.is_current(submitted, language=report.language, today=requested):
            logger.info("report %s: reuses the submitted result", report.pk)
            return submitted
    logger.info("report %s: runs the engine", report.pk)
    return evaluation.evaluate(parse_answers(report.answers), language=report.language)


def _is_measured(report: Report) -> bool:
    """The version was re-planned with measured figures (report_measure, or a regenerate of
    such a version)."""
    return isinstance(report.result, dict) and bool(report.result.get("measurements"))


def engine_measurements(organization: Organization) -> tuple[measured.Measurement, ...]:
    """The organisation's own measurements (never another's), as the engine takes them, in the
    order they were added; a row whose figures are no float (jsonb gives a stored 1e308 back
    as an integer) is left out."""
    out = []
    for row in Measurement.objects.filter(organization=organization).order_by("created_at"):
        figures = dict(row.figures)
        try:
            for key in (
                "output_tokens_per_s",
                "request_throughput",
                "ttft_ms",
                "tpot_ms",
                "e2el_ms",
            ):
                if figures.get(key) is not None:
                    figures[key] = float(figures[key])
        except (OverflowError, TypeError, ValueError):
            continue
        out.append(
            measured.Measurement(
                accelerator_id=row.accelerator_id,
                serving=row.serving,
                model_id=row.model_id,
                concurrency=row.concurrency,
                measured_on=row.measured_on.isoformat(),
                source=row.source_name,
                **figures,
            )
        )
    return tuple(out)


def report_fail(*, report_id: int, failure: Report.Failure) -> Report | None:
    """Mark a report that is not done as failed, with `failure` as the reason the page shows."""
    Report.objects.filter(pk=report_id).exclude(status=Report.Status.DONE).update(
        status=Report.Status.FAILED, finished_at=timezone.now(), error=failure.value
    )
    return Report.objects.filter(pk=report_id).first()


def report_retry(*, report: Report, user: User | None = None) -> Report:
    """Send a failed report to the workers again (stuck ones are the sweeper's). Counts
    against report_throttle's limits like a new request."""
    if report.status != Report.Status.FAILED:
        return report
    report_throttle(user=user, organization=report.assessment.organization)
    resent = Report.objects.filter(pk=report.pk, status=Report.Status.FAILED).update(
        status=Report.Status.PENDING, error="", requested_at=timezone.now()
    )
    if resent:  # a second click, or another tab, finds it pending and sends nothing
        transaction.on_commit(lambda: report_enqueue(report_id=report.pk))
    report.refresh_from_db()
    return report


def report_sweep(*, older_than: timedelta, max_attempts: int = 5) -> int:
    """Re-enqueue reports stuck pending or running (a lost message, a killed worker).

    Reports that already used `max_attempts` are marked failed instead, with a reason.
    Returns the number re-enqueued.
    """
    cutoff = timezone.now() - older_than
    stuck = Report.objects.filter(
        Q(status=Report.Status.PENDING, requested_at__lt=cutoff)
        | Q(status=Report.Status.RUNNING, started_at__lt=cutoff)
    )
    Report.objects.filter(pk__in=stuck.filter(attempts__gte=max_attempts).values("pk")).update(
        status=Report.Status.FAILED,
        finished_at=timezone.now(),
        error=Report.Failure.GAVE_UP.value,
    )
    count = 0
    for report_id in stuck.filter(attempts__lt=max_attempts).values_list("pk", flat=True):
        # Touch the row first so the next sweep waits a full period again.
        Report.objects.filter(pk=report_id).update(
            status=Report.Status.PENDING, requested_at=timezone.now()
        )
        count += report_enqueue(report_id=report_id)
    return count
