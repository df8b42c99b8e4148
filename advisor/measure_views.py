"""Measured results recalibrate the plan: a benchmark's own result for a
report's first serving option becomes a new version re-planned with it; operator staff see
measured-vs-estimated ratios per card, without customer names."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from advisor import permissions
from advisor.decisions import languages
from advisor.engine.text import i18n
from advisor.engine.text import labels as E_labels
from advisor.forms.measurements import MeasurementForm
from advisor.htmx import AuthenticatedHttpRequest
from advisor.selectors.assessments import assessment_get_for_user
from advisor.selectors.measurements import (
    first_serving_option,
    measurement_ratios,
    organization_measurement_get,
    organization_measurements,
)
from advisor.selectors.reports import report_get
from advisor.services import measurements, reports


def _problems(error: measurements.MeasurementError) -> list[str]:
    lang = languages.engine_language()
    return [
        i18n.message(
            f"measured.{p.code}",
            lang,
            **{"field": p.field, "limit": measurements.MAX_BYTES // 1024, **p.params},
        )
        for p in error.problems
    ]


@login_required
@require_http_methods(["GET", "POST"])
def report_measure(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """GET: the form for a benchmark result. POST: parse it; a new version re-planned with it,
    or the form again with every problem named and the text as it was sent."""
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    obj = report_get(assessment=assessment, number=number)
    first = first_serving_option(obj.result)
    form = MeasurementForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid() and first is not None:
        upload = form.cleaned_data["file"]
        raw: bytes | str = form.cleaned_data["text"] or ""
        source = _("pasted")
        if upload is not None:
            source = upload.name
            # Read no more than the limit and one byte: a larger file is refused unread.
            raw = upload.read(measurements.MAX_BYTES + 1)
        try:
            saved = measurements.report_measure(
                report=obj,
                raw=raw,
                source=source,
                user=request.user,
                concurrency=form.cleaned_data["concurrency"],
            )
        except measurements.MeasurementError as error:
            problems = _problems(error)
            if upload is not None and len(raw) <= measurements.MAX_BYTES:
                # Nothing lost: the uploaded text comes back in the box, to fix and send.
                text = raw.decode(errors="replace") if isinstance(raw, bytes) else raw
                kept = {"text": text, "concurrency": request.POST.get("concurrency")}
                form = MeasurementForm(kept)
                form.is_valid()
        except reports.ReportThrottled as refusal:
            problems = [
                _("Too many report requests: please wait %(seconds)s seconds and try again.")
                % {"seconds": refusal.retry_after}
            ]
        else:
            return redirect(
                reverse("advisor:report", kwargs={"pk": assessment.pk, "number": saved.number})
            )
    lang = languages.engine_language()
    stack = str((obj.answers.get("frameworks") or {}).get("serving") or "")
    runs = organization_measurements(assessment=assessment)
    context = {
        "assessment": assessment,
        "report": obj,
        "first": first,
        "serving": E_labels.shown("serving", stack, lang),
        "pilot_file": measurements.pilot_result_file(stack=stack, first=first),
        "form": form,
        "problems": problems,
        "measurements": runs,
    }
    return render(request, "advisor/report/measure.html", context, status=400 if problems else 200)


@login_required
@require_POST
def measurement_delete(
    request: AuthenticatedHttpRequest, pk: int, number: int, measurement: int
) -> HttpResponse:
    """A member deletes one of their organisation's measurements (audited in its history);
    back to the measurements page of the report it was opened from."""
    assessment = assessment_get_for_user(user=request.user, pk=pk, with_result=False)
    obj = organization_measurement_get(assessment=assessment, pk=measurement)
    measurements.measurement_delete(measurement=obj, user=request.user)
    messages.success(request, _("The measurement was deleted: re-plans no longer use it."))
    return redirect(reverse("advisor:report_measure", kwargs={"pk": pk, "number": number}))


@login_required
@require_GET
def measurements_staff(request: HttpRequest) -> HttpResponse:
    """Operator staff: measured over estimated per card and stack, no customer names."""
    if not permissions.can_read_reference(request.user):
        raise Http404
    return render(request, "reference/measurements.html", {"ratios": measurement_ratios()})
