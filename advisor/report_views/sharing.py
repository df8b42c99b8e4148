"""Share links: a member creates and revokes them; a visitor with a live link sees the report,
its PDF and its quote form, and a guessed token counts against the address."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import throttle
from advisor import permissions
from advisor.decisions import languages
from advisor.forms.quotes import SharedQuoteRequestForm
from advisor.forms.reports import ShareLinkForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from advisor.models import Report, ShareLink
from advisor.report_views.common import (
    no_store,
    offer_asked,
    pdf_button,
    quote_context,
    readable_report,
)
from advisor.report_views.exports import pdf_response
from advisor.report_views.quotes import say_quote_sent
from advisor.selectors.assessments import assessment_get_for_user, membership_for
from advisor.selectors.leads import quote_snapshot
from advisor.selectors.reports import report_exists_in_language
from advisor.selectors.sharing import share_link_by_token, share_link_get
from advisor.services import leads, pdfs, sharing


@login_required
@require_POST
def share_create(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    assessment, obj = readable_report(request, pk, number)
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
    context = quote_context(
        report, form, offer_id, form_class=SharedQuoteRequestForm, with_leads=False
    )
    if context.get("quote"):
        context["quote_action"] = reverse("advisor:shared_quote", kwargs={"token": token})
    return context


@require_POST
@no_store
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
            request, link, token, form=form, offer_id=offer_asked(request, form), status=400
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
    say_quote_sent(request, lead, created)
    return _private(redirect(reverse("advisor:shared", kwargs={"token": token}) + "#quote"))


def _shared_pdf_button(obj: Report, token: str) -> dict[str, Any]:
    return pdf_button(
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
