"""Quote requests for a report's house offer: a member's request (limited, nothing lost when
refused) and the operator's status of a lead."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from advisor.forms.quotes import LeadStatusForm, QuoteRequestForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from advisor.models import Assessment, Lead, Report
from advisor.report_views.common import no_store, readable_report, report_context
from advisor.selectors.leads import lead_get_for_operator, quote_snapshot
from advisor.services import leads


def say_quote_sent(request: HtmxHttpRequest, lead: Lead, created: bool) -> None:
    """The page's message after a quote request: sent, or the same request is still open
    (nothing new is sent) and when it was made."""
    if created:
        messages.success(request, _("Your quote request was sent to our sales engineers."))
        return
    messages.info(
        request,
        _(
            "You already asked for a quote on this offer (%(when)s); our sales "
            "engineers have it and will answer it."
        )
        % {
            "when": formats.date_format(
                timezone.localtime(lead.created_at), "SHORT_DATETIME_FORMAT"
            )
        },
    )


@login_required
@require_POST
@no_store
def quote_request(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = readable_report(request, pk, number)
    form = QuoteRequestForm(request.POST)
    if form.is_valid():
        try:
            lead, created = leads.quote_request(
                report=obj,
                user=request.user,
                term_months=form.cleaned_data["term_months"],
                china_bandwidth_mbps=form.cleaned_data["china_bandwidth_mbps"] or 0,
                china_bandwidth_type=form.cleaned_data["china_bandwidth_type"],
                note=form.cleaned_data["note"],
                offer_id=form.cleaned_data["offer"],
                dashboard_url=request.build_absolute_uri(reverse("advisor:dashboard")),
                report_url=request.build_absolute_uri(
                    reverse("advisor:report", kwargs={"pk": assessment.pk, "number": obj.number})
                ),
            )
        except leads.QuoteNotAvailable:
            raise Http404 from None
        except leads.QuoteThrottled as refusal:
            return _quote_throttled(request, assessment, obj, form, refusal)
        say_quote_sent(request, lead, created)
        return redirect("advisor:report", pk=assessment.pk, number=obj.number)
    if quote_snapshot(report=obj) is None:
        raise Http404
    # The page again with the form as typed and its problems (nothing is lost).
    context = report_context(request, assessment, obj, quote_form=form)
    return render(request, "advisor/report.html", context, status=400)


def _quote_throttled(
    request: AuthenticatedHttpRequest,
    assessment: Assessment,
    obj: Report,
    form: QuoteRequestForm,
    refusal: leads.QuoteThrottled,
) -> HttpResponse:
    """429 with Retry-After: plain text for htmx and scripts, the report page for a form with
    the request as typed (nothing is lost)."""
    text = _("Too many quote requests: please wait %(seconds)s seconds and send it again.") % {
        "seconds": refusal.retry_after
    }
    if request.htmx or not request.accepts("text/html"):
        response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
    else:
        messages.error(request, text)
        context = report_context(request, assessment, obj, quote_form=form)
        response = render(request, "advisor/report.html", context, status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response


@login_required
@require_POST
def lead_status(request: AuthenticatedHttpRequest, lead_id: int) -> HttpResponse:
    lead = lead_get_for_operator(user=request.user, pk=lead_id)
    form = LeadStatusForm(request.POST)
    if form.is_valid():
        leads.lead_set_status(lead=lead, status=form.cleaned_data["status"])
        messages.success(
            request,
            _("The quote request is now “%(status)s”.") % {"status": lead.get_status_display()},
        )
    else:
        messages.error(request, _("Choose one of the statuses."))
    return redirect(reverse("advisor:dashboard") + "#leads-heading")
