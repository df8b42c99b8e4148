"""Report pages: status polling, versions, comparison, exports and share links."""

from __future__ import annotations

import json
import math
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import (
    HttpResponseClientRedirect,
    HttpResponseClientRefresh,
    HttpResponseStopPolling,
)

from accounts import throttle
from advisor import permissions, step_forms
from advisor.decisions import languages
from advisor.engine import AnswersError
from advisor.engine.document import normalise
from advisor.forms.quotes import LeadStatusForm, QuoteRequestForm, SharedQuoteRequestForm
from advisor.forms.reports import ReportRequestForm, ShareLinkForm
from advisor.forms.what_if import WhatIfForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest, render_page_or_partial
from advisor.models import Assessment, Lead, Report, ShareLink
from advisor.reporting.compare import what_if_comparison
from advisor.reporting.csv import cost_table_csv
from advisor.selectors.assessments import assessment_get_for_user, membership_for
from advisor.selectors.leads import (
    lead_get_for_operator,
    leads_for_report,
    operator_name,
    quote_snapshot,
)
from advisor.selectors.measurements import report_measured, report_measured_context
from advisor.selectors.reports import (
    report_changes,
    report_exists_in_language,
    report_get,
    reports_for,
)
from advisor.selectors.sharing import share_link_by_token, share_link_get, share_links_for
from advisor.services import assessments, leads, pdfs, reports, sharing, what_if

POLL_SECONDS = 1

# Reports hold a customer's plans and costs: no shared cache and no browser disk keeps a copy.
_no_store = cache_control(private=True, no_store=True)


def _report(request: HtmxHttpRequest, pk: int, number: int) -> tuple[Assessment, Report]:
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    return assessment, report_get(assessment=assessment, number=number)


@login_required
@require_GET
@_no_store
def report(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = _report(request, pk, number)
    return render(request, "advisor/report.html", _report_context(request, assessment, obj))


def _report_context(
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
        **_quote_context(obj, quote_form, _offer_asked(request, quote_form)),
        **_report_pdf_button(assessment, obj),
        **report_measured_context(report=obj),
        **extra,
    }


def _pdf_button(obj: Report, pdf_url: str, ready_url: str) -> dict[str, Any]:
    return {"pdf_ready": bool(obj.pdf), "pdf_url": pdf_url, "pdf_ready_url": ready_url}


def _report_pdf_button(assessment: Assessment, obj: Report) -> dict[str, Any]:
    kwargs = {"pk": assessment.pk, "number": obj.number}
    return _pdf_button(
        obj,
        reverse("advisor:report_pdf", kwargs=kwargs),
        reverse("advisor:report_pdf_button", kwargs=kwargs),
    )


@login_required
@require_GET
@_no_store
def report_pdf_button(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The PDF button, polled while the worker renders the PDF after the page."""
    assessment, obj = _report(request, pk, number)
    _done(obj)
    pdfs.report_pdf_request(report=obj)  # a lost or failed PDF task is sent again
    context = _report_pdf_button(assessment, obj)
    return render(request, "advisor/report/_pdf_button.html", context)


@login_required
@require_GET
@_no_store
def report_status(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The polling partial: keeps polling while a worker is busy, then reloads the page."""
    assessment, obj = _report(request, pk, number)
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
        return _throttled(request, assessment, refusal)
    return redirect("advisor:report", pk=assessment.pk, number=obj.number)


@login_required
@require_POST
def report_retry(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = _report(request, pk, number)
    user = request.user
    try:
        reports.report_retry(report=obj, user=user)
    except reports.ReportThrottled as refusal:
        return _throttled(request, assessment, refusal, number=obj.number)
    return redirect("advisor:report", pk=assessment.pk, number=obj.number)


# Each what-if runs the engine (2-10 ms): plenty for someone trying answers out, and a cap on
# what a script can make one account cost the web workers.
WHAT_IFS = throttle.Limit("what-if", limit=120, window=60)


def _what_if(
    request: AuthenticatedHttpRequest, pk: int, number: int
) -> tuple[Assessment, Report, WhatIfForm, what_if.WhatIf | None]:
    """The report (404 unless the user may see it and it is done), the bound what-if form and,
    when its input converted, the engine's verdict on the changed answers."""
    assessment, obj = _report(request, pk, number)
    _done(obj)
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
    context = _report_context(
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
@_no_store
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
        return _throttled(request, assessment, refusal, number=obj.number)
    url = reverse("advisor:report", kwargs={"pk": assessment.pk, "number": saved.number})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_POST
def report_adopt(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """A version's answers become the assessment's, after a confirmation: htmx asks in the
    browser (hx-confirm, and sends `confirmed`); without JavaScript the page asks first."""
    assessment, obj = _report(request, pk, number)
    _done(obj)
    url = reverse("advisor:report", kwargs={"pk": assessment.pk, "number": obj.number})
    if request.POST.get("confirmed") != "yes":
        context = _report_context(request, assessment, obj, adopt_confirm=True)
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


def _throttled(
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


def _done(obj: Report) -> Report:
    if obj.status != Report.Status.DONE:
        raise Http404
    return obj


def _attachment(response: HttpResponse, obj: Report, extension: str) -> HttpResponse:
    """Offer the download under the title and date a reader recognises: files travel (share
    links, mail), so their names carry no database ids."""
    stem = slugify(obj.assessment.title, allow_unicode=True)[:60] or "report"
    day = (obj.finished_at or obj.requested_at).date().isoformat()
    name = f"{stem}-v{obj.number}-{day}-{obj.language}.{extension}"
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


PDF_RETRY_SECONDS = 3


def pdf_response(
    request: HtmxHttpRequest, obj: Report, *, may_render: bool, back_url: str
) -> HttpResponse:
    """The stored PDF; else, while it is rendered, 202 "being prepared" with Retry-After.

    The PDF worker renders each PDF once, just after the page. A member's download that comes
    first may render it here, but only as the one claimant (pdfs.report_pdf_render): every
    concurrent download gets the "being prepared" answer instead of a render of its own. An
    anonymous link holder never makes the web render: the download asks the PDF worker."""
    _done(obj)
    if not obj.pdf:
        if may_render:
            obj = pdfs.report_pdf_render(report=obj)
        else:
            pdfs.report_pdf_request(report=obj)
    if not obj.pdf:
        context = {"retry_after": PDF_RETRY_SECONDS, "back_url": back_url}
        response = render(request, "advisor/report/pdf_preparing.html", context, status=202)
        response["Retry-After"] = str(PDF_RETRY_SECONDS)
        return response
    # Report PDFs are a few hundred kB: read them whole rather than stream an open file.
    with obj.pdf.open("rb") as handle:
        body = handle.read()
    return _attachment(HttpResponse(body, content_type="application/pdf"), obj, "pdf")


@login_required
@require_GET
@_no_store
def report_pdf(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponseBase:
    _, obj = _report(request, pk, number)
    back = reverse("advisor:report", kwargs={"pk": pk, "number": number})
    return pdf_response(request, obj, may_render=True, back_url=back)


@login_required
@require_GET
@_no_store
def report_json(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    _, obj = _report(request, pk, number)
    _done(obj)
    response = HttpResponse(
        json.dumps(obj.result, ensure_ascii=False, indent=2), content_type="application/json"
    )
    return _attachment(response, obj, "json")


@login_required
@require_GET
@_no_store
def report_csv(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    _, obj = _report(request, pk, number)
    _done(obj)
    assert obj.result is not None  # noqa: S101 - done reports have a result
    # A BOM lets spreadsheet programs open the Chinese headers as UTF-8.
    body = "\ufeff" + cost_table_csv(obj.result, obj.language)
    return _attachment(HttpResponse(body, content_type="text/csv; charset=utf-8"), obj, "csv")


@login_required
@require_POST
def share_create(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = _report(request, pk, number)
    membership = membership_for(user=request.user, organization=assessment.organization)
    if not permissions.can_share(membership=membership, assessment=assessment):
        raise Http404
    form = ShareLinkForm(request.POST)
    if not form.is_valid() or obj.status != Report.Status.DONE:
        # The errors' own sentences: an ErrorList's str() is its HTML, which a message escapes
        # and the page would show as markup.
        problems = " ".join(
            str(message) for errors in form.errors.values() for message in errors
        ) or _("the report is not ready")
        messages.error(
            request, _("The link could not be created: %(errors)s") % {"errors": problems}
        )
        return redirect("advisor:report", pk=assessment.pk, number=obj.number)
    days = form.cleaned_data["expires_in_days"]
    _link, token = sharing.share_link_create(
        report=obj,
        user=request.user,
        label=form.cleaned_data["label"],
        expires_at=timezone.now() + timedelta(days=days) if days else None,
    )
    # Shown once on the next page; only its hash is stored.
    request.session["new_share_url"] = request.build_absolute_uri(
        reverse("advisor:shared", kwargs={"token": token})
    )
    return redirect("advisor:report", pk=assessment.pk, number=obj.number)


@login_required
@require_POST
def share_revoke(request: AuthenticatedHttpRequest, pk: int, link_id: int) -> HttpResponse:
    assessment = assessment_get_for_user(user=request.user, pk=pk)
    membership = membership_for(user=request.user, organization=assessment.organization)
    link = share_link_get(assessment=assessment, pk=link_id)
    if not permissions.can_share(membership=membership, assessment=assessment):
        raise Http404
    sharing.share_link_revoke(link=link)
    messages.success(request, _("The link was revoked; it no longer opens the report."))
    return redirect("advisor:report", pk=assessment.pk, number=link.report.number)


@login_required
@require_GET
@_no_store
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
    left = _done(report_get(assessment=assessment, number=a))
    right = _done(report_get(assessment=assessment, number=b))
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


# Unknown share tokens a client address may try per 10 minutes before it gets 429s. Links that
# work are never counted or refused, so one visitor's guessing cannot block another's link.
SHARE_GUESSES = throttle.Limit("share-misses", limit=20, window=600)


def _shared_link(request: HtmxHttpRequest, token: str) -> ShareLink | HttpResponse:
    """The live link for a token, or the response to send instead (404, or 429 for guessing)."""
    link = share_link_by_token(token=token)
    if link is not None:
        return link
    wait = throttle.hit(SHARE_GUESSES, throttle.client_ip(request))
    if wait is not None:
        response = _shared_not_found(request, status=429)
        response["Retry-After"] = str(wait)
        return response
    # Unknown, revoked and expired tokens are one and the same to a visitor.
    return _shared_not_found(request)


def _shared_not_found(request: HtmxHttpRequest, *, status: int = 404) -> HttpResponse:
    response = render(request, "advisor/shared_missing.html", status=status)
    return _private(response)


def _private[R: HttpResponseBase](response: R) -> R:
    response["X-Robots-Tag"] = "noindex, nofollow"
    # No referrer to other sites (the token is in the address); our own site gets it, so that
    # a browser posting the quote form sends its Origin (no-referrer sends "null", which the
    # CSRF check refuses).
    response["Referrer-Policy"] = "same-origin"
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    link = _shared_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    sharing.share_link_record_view(link=link)
    offer_id = str(request.GET.get("offer") or "")[:100]
    return _shared_page(request, link, token, offer_id=offer_id)


def _shared_page(
    request: HtmxHttpRequest,
    link: ShareLink,
    token: str,
    *,
    form: SharedQuoteRequestForm | None = None,
    offer_id: str = "",
    status: int = 200,
) -> HttpResponse:
    report = link.report
    context = {
        "report": report,
        "token": token,
        **_shared_pdf_button(report, token),
        **_shared_quote_context(report, token, form, offer_id),
    }
    # Opened in the other language's chrome, the page says which language the report is in and
    # whether a version in the page's language exists, rather than silently showing it as is.
    page_language = languages.engine_language()
    if page_language != report.language:
        context["other_version_exists"] = report_exists_in_language(
            report=report, language=page_language
        )
    return _private(render(request, "advisor/shared.html", context, status=status))


def _shared_quote_context(
    report: Report, token: str, form: SharedQuoteRequestForm | None, offer_id: str
) -> dict[str, Any]:
    """The quote form of a shared report: the member's form with the visitor's name and email,
    posted to the link's own address; other people's requests are not listed."""
    context = _quote_context(
        report, form, offer_id, form_class=SharedQuoteRequestForm, with_leads=False
    )
    if context.get("quote"):
        context["quote_action"] = reverse("advisor:shared_quote", kwargs={"token": token})
    return context


@require_POST
@_no_store
def shared_quote(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A visitor with a share link asks for a quote on the report's server: the lead is the
    report's organisation's, with the visitor's contact details, limited as a member's is."""
    link = _shared_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    report = link.report
    form = SharedQuoteRequestForm(request.POST)
    if not form.is_valid():
        if quote_snapshot(report=report) is None:
            raise Http404
        return _shared_page(
            request, link, token, form=form, offer_id=_offer_asked(request, form), status=400
        )
    data = form.cleaned_data
    try:
        lead, created = leads.shared_quote_request(
            report=report,
            link=link,
            contact_name=data["contact_name"],
            contact_email=data["contact_email"],
            term_months=data["term_months"],
            china_bandwidth_mbps=data["china_bandwidth_mbps"] or 0,
            china_bandwidth_type=data["china_bandwidth_type"],
            note=data["note"],
            offer_id=data["offer"],
            dashboard_url=request.build_absolute_uri(reverse("advisor:dashboard")),
            report_url=request.build_absolute_uri(
                reverse(
                    "advisor:report",
                    kwargs={"pk": report.assessment_id, "number": report.number},
                )
            ),
        )
    except leads.QuoteNotAvailable:
        raise Http404 from None
    except leads.QuoteThrottled as refusal:
        text = _("Too many quote requests: please wait %(seconds)s seconds and send it again.") % {
            "seconds": refusal.retry_after
        }
        messages.error(request, text)
        response = _shared_page(request, link, token, form=form, offer_id=data["offer"], status=429)
        response["Retry-After"] = str(refusal.retry_after)
        return response
    _say_quote_sent(request, lead, created)
    return _private(redirect(reverse("advisor:shared", kwargs={"token": token}) + "#quote"))


def _say_quote_sent(request: HtmxHttpRequest, lead: Lead, created: bool) -> None:
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


def _shared_pdf_button(obj: Report, token: str) -> dict[str, Any]:
    return _pdf_button(
        obj,
        reverse("advisor:shared_pdf", kwargs={"token": token}),
        reverse("advisor:shared_pdf_button", kwargs={"token": token}),
    )


@require_GET
def shared_pdf_button(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The shared page's PDF button, polled while the PDF is rendered (not a view of the link)."""
    link = _shared_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    if link.report.status == Report.Status.DONE:
        pdfs.report_pdf_request(report=link.report)  # a lost or failed PDF task: again
    context = _shared_pdf_button(link.report, token)
    return _private(render(request, "advisor/report/_pdf_button.html", context))


@require_GET
def shared_pdf(request: HtmxHttpRequest, token: str) -> HttpResponseBase:
    link = _shared_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    back = reverse("advisor:shared", kwargs={"token": token})
    return _private(pdf_response(request, link.report, may_render=False, back_url=back))


# --- Quote requests -----------------------------------------------------------------------------


def _offer_asked(request: HtmxHttpRequest, form: QuoteRequestForm | None) -> str:
    """The house offer a quote is about: the report's link (?offer=) or the form sent back."""
    asked = (
        form.data.get("offer") if form is not None and form.is_bound else request.GET.get("offer")
    )
    return str(asked or "")[:100]


def _quote_context(
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
        # The route and Mbps the operator entered on the server (issue 22: "China route: None"
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


@login_required
@require_POST
@_no_store
def quote_request(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = _report(request, pk, number)
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
        _say_quote_sent(request, lead, created)
        return redirect("advisor:report", pk=assessment.pk, number=obj.number)
    if quote_snapshot(report=obj) is None:
        raise Http404
    # The page again with the form as typed and its problems (nothing is lost).
    context = _report_context(request, assessment, obj, quote_form=form)
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
        context = _report_context(request, assessment, obj, quote_form=form)
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
