"""What-if on a finished report: the recommendation and cost with some answers changed (nothing
written), those answers kept as a new version, or a version's answers adopted."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import throttle
from advisor.decisions import languages
from advisor.engine.answers.problems import AnswersError
from advisor.engine.result.document import normalise
from advisor.forms.what_if import WhatIfForm
from advisor.htmx import AuthenticatedHttpRequest, render_page_or_partial
from advisor.models import Assessment, Report
from advisor.report_views.common import (
    done_or_404,
    no_store,
    readable_report,
    report_context,
    report_throttled,
)
from advisor.reporting.compare import what_if_comparison
from advisor.services import assessments, reports, what_if

# Each what-if runs the engine (2-10 ms): plenty for someone trying answers out, and a cap on
# what a script can make one account cost the web workers.
WHAT_IFS = throttle.Limit("what-if", limit=120, window=60)


def _what_if(
    request: AuthenticatedHttpRequest, pk: int, number: int
) -> tuple[Assessment, Report, WhatIfForm, what_if.WhatIf | None]:
    """The report (404 unless the user may see it and it is done), the bound what-if form and,
    when its input converted, the engine's verdict on the changed answers."""
    assessment, obj = readable_report(request, pk, number)
    done_or_404(obj)
    form = WhatIfForm(request.POST, answers=obj.answers)
    form.is_valid()
    changes, removed = form.changes()
    answers = what_if.what_if_answers(answers=obj.answers, changes=changes, removed=removed)
    language = languages.engine_language()
    # Input that did not convert is not run; the rest still gets the engine's word.
    outcome = what_if.report_what_if(
        report=obj, answers=answers, language=language, run=not form.errors
    )
    form.attach(outcome.problems, language)
    return assessment, obj, form, None if form.errors else outcome


def _what_if_page(
    request: AuthenticatedHttpRequest,
    assessment: Assessment,
    obj: Report,
    form: WhatIfForm,
    outcome: what_if.WhatIf | None,
) -> HttpResponse:
    """The what-if panel for htmx, the whole report page with it filled for a form post."""
    changes = (
        what_if_comparison(report=normalise(obj.result or {}), what_if=outcome.result)
        if outcome is not None and outcome.result is not None
        else None
    )
    context = report_context(
        request,
        assessment,
        obj,
        what_if_form=form,
        what_if=outcome.result if outcome is not None else None,
        what_if_changes=changes,
        what_if_posted=True,
    )
    status = 200 if request.htmx or not form.errors else 422
    return render_page_or_partial(request, "advisor/report.html", context, status=status)


def _what_if_throttled(request: AuthenticatedHttpRequest) -> HttpResponse | None:
    wait = throttle.hit(WHAT_IFS, str(request.user.pk))
    if wait is None:
        return None
    text = _("Too many what-if requests; please wait %(seconds)s seconds.") % {"seconds": wait}
    response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


@login_required
@require_POST
@no_store
def report_what_if(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The report's recommendation and cost with some answers changed; writes nothing."""
    refused = _what_if_throttled(request)
    if refused is not None:
        return refused
    assessment, obj, form, outcome = _what_if(request, pk, number)
    return _what_if_page(request, assessment, obj, form, outcome)


@login_required
@require_POST
def report_what_if_save(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The what-if's answers as a new report version (the assessment's answers stay). Each
    save runs the engine as a what-if does, so it counts against the same limit first: past
    it the save is refused before its form is read."""
    refused = _what_if_throttled(request)
    if refused is not None:
        return refused
    assessment, obj, form, outcome = _what_if(request, pk, number)
    if outcome is None:
        return _what_if_page(request, assessment, obj, form, outcome)
    try:
        saved = what_if.report_save_what_if(report=obj, answers=outcome.answers, user=request.user)
    except AnswersError:  # refused by the engine: _what_if already showed why
        return _what_if_page(request, assessment, obj, form, outcome)
    except reports.ReportThrottled as refusal:
        return report_throttled(request, assessment, refusal, number=obj.number)
    url = reverse("advisor:report", kwargs={"pk": assessment.pk, "number": saved.number})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_POST
def report_adopt(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """A version's answers become the assessment's, after a confirmation: htmx asks in the
    browser (hx-confirm, and sends `confirmed`); without JavaScript the page asks first."""
    assessment, obj = readable_report(request, pk, number)
    done_or_404(obj)
    url = reverse("advisor:report", kwargs={"pk": assessment.pk, "number": obj.number})
    if request.POST.get("confirmed") != "yes":
        context = report_context(request, assessment, obj, adopt_confirm=True)
        return render(request, "advisor/report.html", context)
    try:
        expected = int(request.POST.get("version", ""))
    except ValueError:
        expected = None
    try:
        what_if.report_answers_adopt(report=obj, expected_version=expected)
    except assessments.VersionConflict:
        messages.error(
            request,
            _(
                "The assessment changed in another tab or by a colleague since this page was "
                "loaded, so nothing was changed. Check its answers and try again."
            ),
        )
    except AnswersError:
        messages.error(request, _("These answers no longer pass the checks; nothing was changed."))
    else:
        messages.success(
            request,
            _("The assessment's answers are now those of v%(n)s.") % {"n": obj.number},
        )
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
