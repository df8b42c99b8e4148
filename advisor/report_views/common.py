"""What the report's pages share: the report a request may see (404 otherwise), the report page's
context with its quote form and PDF button, and the answer to a throttled report request."""

from __future__ import annotations

import math
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control

from advisor import permissions
from advisor.decisions import languages
from advisor.forms.quotes import QuoteRequestForm
from advisor.forms.reports import ReportRequestForm, ShareLinkForm
from advisor.forms.what_if import WhatIfForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from advisor.models import Assessment, Report
from advisor.selectors.assessments import assessment_get_for_user, membership_for
from advisor.selectors.leads import leads_for_report, operator_name, quote_snapshot
from advisor.selectors.measurements import report_measured_context
from advisor.selectors.reports import report_get, reports_for
from advisor.selectors.sharing import share_links_for
from advisor.services import reports

POLL_SECONDS = 1

# Reports hold a customer's plans and costs: no shared cache and no browser disk keeps a copy.
no_store = cache_control(private=True, no_store=True)


def readable_report(request: HtmxHttpRequest, pk: int, number: int) -> tuple[Assessment, Report]:
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    return assessment, report_get(assessment=assessment, number=number)


def report_context(
    request: AuthenticatedHttpRequest,
    assessment: Assessment,
    obj: Report,
    quote_form: QuoteRequestForm | None = None,
    **extra: Any,
) -> dict[str, Any]:
    membership = membership_for(user=request.user, organization=assessment.organization)
    return {
        "assessment": assessment,
        "report": obj,
        "reports": reports_for(assessment=assessment),
        "links": share_links_for(report=obj),
        "can_share": permissions.can_share(membership=membership, assessment=assessment),
        "request_form": ReportRequestForm(
            initial={"language": languages.engine_language(), "source": obj.number}
        ),
        # Only a version whose answers are not (or no longer) the assessment's can be adopted.
        "can_adopt": obj.status == Report.Status.DONE and obj.answers != assessment.answers,
        "share_form": ShareLinkForm(),
        "poll_seconds": POLL_SECONDS,
        "new_share_url": request.session.pop("new_share_url", None),
        "what_if_form": (
            WhatIfForm(answers=obj.answers) if obj.status == Report.Status.DONE else None
        ),
        **quote_context(obj, quote_form, offer_asked(request, quote_form)),
        **report_pdf_button_context(assessment, obj),
        **report_measured_context(report=obj),
        **extra,
    }


def pdf_button(obj: Report, pdf_url: str, ready_url: str) -> dict[str, Any]:
    return {"pdf_ready": bool(obj.pdf), "pdf_url": pdf_url, "pdf_ready_url": ready_url}


def report_pdf_button_context(assessment: Assessment, obj: Report) -> dict[str, Any]:
    kwargs = {"pk": assessment.pk, "number": obj.number}
    return pdf_button(
        obj,
        reverse("advisor:report_pdf", kwargs=kwargs),
        reverse("advisor:report_pdf_button", kwargs=kwargs),
    )


def report_throttled(
    request: HtmxHttpRequest,
    assessment: Assessment,
    refusal: reports.ReportThrottled,
    *,
    number: int | None = None,
) -> HttpResponse:
    """429 with Retry-After for htmx and scripts; a message on the report page for a form."""
    text = _(
        "Too many report requests: the workers are shared, so please wait %(seconds)s seconds "
        "and try again."
    ) % {"seconds": refusal.retry_after}
    if request.htmx or not request.accepts("text/html"):
        response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
    else:
        messages.error(request, text)
        latest = (
            number
            or assessment.reports.order_by("-number").values_list("number", flat=True).first()
        )
        response = (
            redirect("advisor:report", pk=assessment.pk, number=latest)
            if latest
            else redirect("advisor:assessment", pk=assessment.pk)
        )
    response["Retry-After"] = str(refusal.retry_after)
    return response


def done_or_404(obj: Report) -> Report:
    if obj.status != Report.Status.DONE:
        raise Http404
    return obj


def offer_asked(request: HtmxHttpRequest, form: QuoteRequestForm | None) -> str:
    """The house offer a quote is about: the report's link (?offer=) or the form sent back."""
    asked = (
        form.data.get("offer") if form is not None and form.is_bound else request.GET.get("offer")
    )
    return str(asked or "")[:100]


def quote_context(
    obj: Report,
    form: QuoteRequestForm | None = None,
    offer_id: str = "",
    *,
    form_class: type[QuoteRequestForm] = QuoteRequestForm,
    with_leads: bool = True,
) -> dict[str, Any]:
    done = obj.status == Report.Status.DONE
    quote = quote_snapshot(report=obj, offer_id=offer_id) if done else None
    if quote is None and offer_id:  # an offer the report no longer lists: the default one
        quote = quote_snapshot(report=obj) if done else None
    if quote is None:
        return {"quote": None}
    term = ((quote["offer"].get("server") or {}).get("min_term_months")) or 12
    initial: dict[str, Any] = {
        "term_months": max(12, int(term)),
        "offer": quote["offer"].get("price_id", ""),
    }
    entered = quote.get("server") or {}
    if entered.get("china_bandwidth_type"):
        # The route and Mbps the operator entered on the server ("China route: None"
        # was sent although the offer has CN2 GIA).
        initial["china_bandwidth_type"] = entered["china_bandwidth_type"]
        initial["china_bandwidth_mbps"] = entered.get("china_bandwidth_mbps") or None
    china = quote.get("china_bandwidth")
    if china:
        # The Mbps the workload needs at the offer's route (CN2 GIA when it has none), so the
        # request asks for a price of what the report sized.
        initial["china_bandwidth_mbps"] = max(1, math.ceil(float(china["needed_mbps"])))
        initial["china_bandwidth_type"] = (
            china.get("route") or entered.get("china_bandwidth_type") or "cn2_gia"
        )
    # Credited to the operator by its current public name, whatever the row was saved with.
    quote["offer"]["provider"] = operator_name() or quote["offer"].get("provider")
    return {
        "quote": quote,
        "quote_form": form or form_class(initial=initial),
        "quote_leads": leads_for_report(report=obj) if with_leads else [],
    }
