"""The site's pages besides the wizard's and the reports': dashboard, prospects, health."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import OrganizationForm
from accounts.models import Role
from accounts.selectors import (
    SESSION_KEY,
    current_membership,
    is_operator_staff,
    request_memberships,
)
from accounts.services import InvitationError
from advisor import health, permissions
from advisor.decisions import languages
from advisor.forms.assessments import CustomerInviteForm, NewAssessmentForm, ProspectForm
from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from advisor.models import Lead
from advisor.selectors.assessments import (
    assessment_get_for_user,
    assessments_for_organization,
    customer_organizations,
    membership_for,
    rows_digest,
)
from advisor.selectors.assessments import customer_assessments as recent_customer_assessments
from advisor.selectors.leads import leads_for_user
from advisor.selectors.reports import latest_report
from advisor.services import assessments, prospects
from advisor.starters import STARTERS
from advisor.wizard.steps import applicable_steps
from advisor.wizard.views import _lazy, _step_url


@require_GET
def landing(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "advisor/landing.html")


def _starter_choices() -> list[tuple[str, Any]]:
    return [(s.slug, s.title) for s in STARTERS]


@login_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _dashboard(request)


def _dashboard(
    request: AuthenticatedHttpRequest,
    *,
    prospect_form: ProspectForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The dashboard; with `prospect_form`, the refused new-prospect form as it was typed."""
    membership = current_membership(request)
    user = request.user
    if membership is None:
        # Someone whose last organisation removed them: offer to start a new one.
        return render(request, "advisor/dashboard.html", {"organization_form": OrganizationForm()})
    own = list(assessments_for_organization(organization=membership.organization))
    # The navbar lists the user's memberships anyway; read once, they also say whether the
    # user is a sales engineer anywhere, i.e. whether there can be customers to list.
    memberships = request_memberships(request)
    sells = any(m.role == Role.SALES_ENGINEER for m in memberships)
    customers = list(customer_organizations(user=user)) if sells else []
    customer_assessments = list(recent_customer_assessments(user=user)) if customers else []
    context = {
        "user_memberships": memberships,
        "membership": membership,
        "assessments": own,
        "customers": customers,
        "customer_assessments": customer_assessments,
        # The tables are kept per what they show (dashboard.html's {% fragment %}s).
        "assessments_key": rows_digest(own),
        "customers_key": rows_digest([*customers, *customer_assessments]),
        "prospect_form": (
            (prospect_form or ProspectForm())
            if customers or permissions.can_invite_customers(membership)
            else None
        ),
        # A refused form shows what was typed and its errors: never a kept rendering.
        "prospect_key": None if prospect_form is not None else "blank",
        "new_form": _lazy(lambda: NewAssessmentForm(starters=_starter_choices())),
        "starters": STARTERS,
        # Quote requests: all of them for the operator's sales engineers, else the org's own.
        "leads": list(leads_for_user(user=user, organization=membership.organization)[:100]),
        "leads_operator": is_operator_staff(user=user),
        "lead_statuses": Lead.Status.choices,
    }
    return render(request, "advisor/dashboard.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def assessment_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    membership = current_membership(request)
    if membership is None:
        return redirect("advisor:dashboard")
    form = NewAssessmentForm(
        request.POST or None,
        starters=_starter_choices(),
        initial={"starter": request.GET.get("starter", "")},
    )
    if request.method == "POST" and form.is_valid():
        assessment = assessments.assessment_create(
            organization=membership.organization,
            user=request.user,
            title=form.cleaned_data["title"],
            starter=form.cleaned_data["starter"] or None,
        )
        if form.cleaned_data["starter"]:
            # A starter fills every answer; the team still reads them, from step 1, rather than
            # landing on Review with answers it never saw.
            return redirect(_step_url(assessment, applicable_steps(assessment.answers)[0]))
        return redirect("advisor:assessment", pk=assessment.pk)
    return render(request, "advisor/assessment_new.html", {"form": form, "starters": STARTERS})


@login_required
@require_POST
def prospect_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A sales engineer opens a new prospect: organisation, draft assessment, invitation."""
    membership = current_membership(request)
    if membership is None or not permissions.can_invite_customers(membership):
        raise Http404
    form = ProspectForm(request.POST)
    if not form.is_valid():
        # The dashboard again, with what was typed and each problem beside its field.
        messages.error(request, _("Check the new prospect's details below."))
        return _dashboard(request, prospect_form=form, status=400)
    try:
        obj = prospects.prospect_start(
            user=request.user,
            organization_name=form.cleaned_data["organization_name"],
            title=form.cleaned_data["title"],
            contact_email=form.cleaned_data["contact_email"],
            base_url=request.build_absolute_uri("/"),
        )
    except InvitationError as error:  # the contact is the sales engineer: nothing was kept
        form.add_error("contact_email", str(error))
        return _dashboard(request, prospect_form=form, status=400)
    request.session[SESSION_KEY] = obj.organization_id
    if form.cleaned_data["contact_email"]:
        messages.success(
            request,
            _("Prospect created and %(email)s invited to fill in the assessment.")
            % {"email": form.cleaned_data["contact_email"]},
        )
    return redirect("advisor:assessment", pk=obj.pk)


@login_required
@require_POST
def customer_invite(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    obj = assessment_get_for_user(user=request.user, pk=pk)
    membership = membership_for(user=request.user, organization=obj.organization)
    if not permissions.can_invite_to_assessment(membership=membership, assessment=obj):
        raise Http404
    form = CustomerInviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors["email"]))
        return redirect("advisor:assessment", pk=obj.pk)
    try:
        prospects.customer_invite(
            assessment=obj,
            email=form.cleaned_data["email"],
            invited_by=request.user,
            base_url=request.build_absolute_uri("/"),
        )
    except InvitationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("Invitation sent to %(email)s.") % {"email": form.cleaned_data["email"]}
        )
    return redirect("advisor:assessment", pk=obj.pk)


@login_required
@require_GET
def result(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The assessment's latest report (in the reader's language when there is one)."""
    obj = assessment_get_for_user(user=request.user, pk=pk)
    report = latest_report(assessment=obj, language=languages.engine_language())
    if report is None:
        return redirect("advisor:assessment", pk=obj.pk)
    return redirect("advisor:report", pk=obj.pk, number=report.number)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    # Browsers, bookmarks and feed readers ask for /favicon.ico whatever the page links; the
    # icon is an SVG under a hashed static name, so this answers with a short-lived redirect.
    response = redirect(static("advisor/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": health.database_reachable(),
        "broker": health.broker_reachable(),
    }
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
