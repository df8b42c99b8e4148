"""The report page, its status while a worker generates it, a new version or a retry of a failed
one, and two versions compared."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, HttpResponseStopPolling

from advisor.forms.reports import ReportRequestForm
from advisor.htmx import AuthenticatedHttpRequest
from advisor.models import Report
from advisor.report_views.common import (
    POLL_SECONDS,
    done_or_404,
    no_store,
    readable_report,
    report_context,
    report_throttled,
)
from advisor.selectors.assessments import assessment_get_for_user
from advisor.selectors.measurements import report_measured
from advisor.selectors.reports import report_changes, report_get, reports_for
from advisor.services import reports
from advisor.wizard import binding as step_forms


@login_required
@require_GET
@no_store
def report(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = readable_report(request, pk, number)
    return render(request, "advisor/report.html", report_context(request, assessment, obj))


@login_required
@require_GET
@no_store
def report_status(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The polling partial: keeps polling while a worker is busy, then reloads the page."""
    assessment, obj = readable_report(request, pk, number)
    if obj.is_finished and request.htmx:
        return HttpResponseClientRefresh()
    response = render(
        request,
        "advisor/report.html#report-status",
        {"assessment": assessment, "report": obj, "poll_seconds": POLL_SECONDS},
    )
    if obj.is_finished:
        return HttpResponseStopPolling(response.content)
    return response


@login_required
@require_POST
def report_request(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    form = ReportRequestForm(request.POST)
    if assessment.is_draft or not form.is_valid():
        messages.error(request, _("Submit the assessment before generating a report."))
        return redirect("advisor:assessment", pk=assessment.pk)
    user = request.user
    number = form.cleaned_data.get("source")
    source = report_get(assessment=assessment, number=number) if number else None
    try:
        obj = reports.report_request(
            assessment=assessment,
            user=user,
            language=form.cleaned_data["language"],
            source=source,
        )
    except reports.ReportThrottled as refusal:
        return report_throttled(request, assessment, refusal)
    return redirect("advisor:report", pk=assessment.pk, number=obj.number)


@login_required
@require_POST
def report_retry(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = readable_report(request, pk, number)
    user = request.user
    try:
        reports.report_retry(report=obj, user=user)
    except reports.ReportThrottled as refusal:
        return report_throttled(request, assessment, refusal, number=obj.number)
    return redirect("advisor:report", pk=assessment.pk, number=obj.number)


@login_required
@require_GET
@no_store
def compare(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    reports = list(reports_for(assessment=assessment))
    try:
        a = int(request.GET.get("a", ""))
        b = int(request.GET.get("b", ""))
    except ValueError:
        done = [r for r in reports if r.status == Report.Status.DONE]
        if len(done) < 2:
            messages.info(request, _("Generate a second report to compare versions."))
            return redirect("advisor:result", pk=assessment.pk)
        return redirect(
            reverse("advisor:compare", kwargs={"pk": assessment.pk})
            + f"?a={done[1].number}&b={done[0].number}"
        )
    left = done_or_404(report_get(assessment=assessment, number=a))
    right = done_or_404(report_get(assessment=assessment, number=b))
    measured = None
    if (right.result or {}).get("measurements") != (left.result or {}).get("measurements"):
        # The later version was re-planned with a measured run: that run is why the plan moved.
        measured = report_measured(report=right)
    context = {
        "assessment": assessment,
        "left": left,
        "right": right,
        "measured": measured,
        "reports": [r for r in reports if r.status == Report.Status.DONE],
        "changes": {
            **report_changes(left=left, right=right),
            "answers": step_forms.answer_changes(left.answers or {}, right.answers or {}),
        },
    }
    return render(request, "advisor/compare.html", context)
