from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import services, throttle
from accounts.forms import (
    ApiTokenForm,
    EmailAuthenticationForm,
    InvitationForm,
    InvitationSignUpForm,
    OrganizationForm,
    SignUpForm,
    SwitchOrganizationForm,
)
from accounts.models import User
from accounts.selectors import (
    SESSION_KEY,
    api_token_get_for_user,
    api_tokens_for_user,
    assignable_roles,
    current_membership,
    invitation_get_by_token,
    membership_get,
)

BACKEND = "accounts.backends.EmailBackend"


def _login(request: HttpRequest, user: User) -> None:
    login(request, user, backend=BACKEND)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("advisor:dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.user_sign_up_request(
            email=form.cleaned_data["email"],
            full_name=form.cleaned_data["full_name"],
            password=form.cleaned_data["password1"],
            organization_name=form.cleaned_data["organization_name"],
            base_url=request.build_absolute_uri("/"),
            requester=throttle.client_ip(request),
        )
        return redirect("accounts:signup_sent")
    return render(request, "accounts/signup.html", {"form": form})


@require_GET
def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_sent.html")


@never_cache
@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    pending = services.user_sign_up_pending(token=token)
    if pending is None:
        return render(request, "accounts/signup_invalid.html", status=410)
    # GET only shows a button: mail scanners that open links must not create accounts.
    if request.method == "POST":
        user = services.user_sign_up_confirm(token=token)
        if user is None:
            return render(request, "accounts/signup_invalid.html", status=410)
        _login(request, user)
        messages.success(request, _("Welcome! Your organisation is ready."))
        return redirect("advisor:dashboard")
    return render(request, "accounts/signup_confirm.html", {"pending": pending})


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """django-axes' answer to a locked-out login (AXES_LOCKOUT_CALLABLE)."""
    wait = getattr(request, "login_retry_after", None)
    if wait is None:
        wait = int(settings.AXES_COOLOFF_TIME.total_seconds())
    response = render(request, "accounts/locked_out.html", status=429)
    response["Retry-After"] = str(wait)
    return response


class LoginView(auth_views.LoginView):
    form_class = EmailAuthenticationForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


@login_required
@require_http_methods(["GET", "POST"])
def organization(request: HttpRequest) -> HttpResponse:
    membership = current_membership(request)
    if membership is None:
        return redirect("advisor:dashboard")
    form = InvitationForm(
        request.POST or None, membership=membership, roles=assignable_roles(role=membership.role)
    )
    if request.method == "POST" and form.is_valid():
        services.invitation_create(
            organization=membership.organization,
            email=form.cleaned_data["email"],
            role=form.cleaned_data["role"],
            invited_by=membership.user,
            base_url=request.build_absolute_uri("/"),
        )
        messages.success(
            request,
            _("Invitation sent to %(email)s.") % {"email": form.cleaned_data["email"]},
        )
        return redirect("accounts:organization")
    context = {
        "membership": membership,
        "members": membership.organization.memberships.select_related("user").order_by(
            "user__email"
        ),
        "pending": membership.organization.invitations.filter(accepted_at__isnull=True),
        "form": form,
    }
    return render(request, "accounts/organization.html", context)


@login_required
@require_POST
def organization_create(request: HttpRequest) -> HttpResponse:
    form = OrganizationForm(request.POST)
    if not form.is_valid() or not isinstance(request.user, User):
        return render(request, "advisor/dashboard.html", {"organization_form": form}, status=400)
    organization = services.organization_create(name=form.cleaned_data["name"], owner=request.user)
    request.session[SESSION_KEY] = organization.pk
    messages.success(request, _("Welcome! Your organisation is ready."))
    return redirect("advisor:dashboard")


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    invitation = invitation_get_by_token(token=token)
    if invitation is None or not invitation.is_usable:
        # Unknown, used and expired links look alike: nothing to learn by guessing.
        return render(request, "accounts/invitation_invalid.html", status=410)
    user = request.user
    if isinstance(user, User):
        if request.method == "POST":
            try:
                services.invitation_accept(invitation=invitation, user=user)
            except services.InvitationError as error:
                messages.error(request, str(error))
                return redirect("advisor:dashboard")
            request.session[SESSION_KEY] = invitation.organization_id
            messages.success(
                request, _("You joined %(org)s.") % {"org": invitation.organization.name}
            )
            return redirect(invitation.next_path or "advisor:dashboard")
        return render(request, "accounts/invitation_accept.html", {"invitation": invitation})
    if User.objects.filter(email__iexact=invitation.email).exists():
        login_url = reverse("accounts:login") + "?next=" + request.path
        return render(
            request,
            "accounts/invitation_accept.html",
            {"invitation": invitation, "login_url": login_url},
        )
    form = InvitationSignUpForm(request.POST or None, email=invitation.email)
    if request.method == "POST" and form.is_valid():
        new_user = services.invitation_sign_up(
            invitation=invitation,
            full_name=form.cleaned_data["full_name"],
            password=form.cleaned_data["password1"],
        )
        _login(request, new_user)
        request.session[SESSION_KEY] = invitation.organization_id
        messages.success(request, _("Welcome to %(org)s.") % {"org": invitation.organization.name})
        return redirect(invitation.next_path or "advisor:dashboard")
    return render(
        request, "accounts/invitation_signup.html", {"invitation": invitation, "form": form}
    )


@login_required
@require_POST
def switch_organization(request: HttpRequest) -> HttpResponse:
    form = SwitchOrganizationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of your organisations."))
        return redirect("advisor:dashboard")
    membership = membership_get(
        user=request.user, organization_id=form.cleaned_data["organization"]
    )
    request.session[SESSION_KEY] = membership.organization_id
    messages.success(
        request, _("You are now working in %(org)s.") % {"org": membership.organization.name}
    )
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return HttpResponseRedirect(next_url)
    return redirect("advisor:dashboard")


# Reset emails per address and per requesting client address per hour. Past either limit no
# email goes out, and the page answers exactly as it does for an address with no account.
RESET_EMAILS_PER_ADDRESS = throttle.Limit("reset-address", limit=3, window=60 * 60)
RESET_EMAILS_PER_REQUESTER = throttle.Limit("reset-requester", limit=10, window=60 * 60)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = throttle.normalise_email(form.cleaned_data["email"])
        over_address = throttle.hit(RESET_EMAILS_PER_ADDRESS, email)
        over_requester = throttle.hit(RESET_EMAILS_PER_REQUESTER, throttle.client_ip(self.request))
        if over_address or over_requester:
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


password_reset = PasswordResetView.as_view()
password_reset_done = auth_views.PasswordResetDoneView.as_view(
    template_name="accounts/password_reset_done.html"
)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:  # type: ignore[type-arg]
        response = super().form_valid(form)
        services.password_changed(user=form.user)
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:api_tokens")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)
        revoked = services.password_changed(user=form.user)
        message = _("Your password was changed.")
        if revoked:
            message += " " + ngettext(
                "Your API token was revoked; create a new one where you need it.",
                "Your %(count)d API tokens were revoked; create new ones where you need them.",
                revoked,
            ) % {"count": revoked}
        messages.success(self.request, message)
        return response


password_reset_confirm = PasswordResetConfirmView.as_view()
password_change = PasswordChangeView.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view(
    template_name="accounts/password_reset_complete.html"
)


# --- API tokens ----------------------------------------------------------------------------------

# The new key waits here between the POST and the redirected GET, which shows it once and drops it.
NEW_API_KEY_SESSION_KEY = "new_api_key"


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # noqa: S101 - login_required
    form = ApiTokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["expires_in_days"]
        try:
            token, key = services.api_token_create(
                user=user,
                name=form.cleaned_data["name"],
                expires_at=timezone.now() + timedelta(days=days) if days else None,
            )
        except services.TooManyTokens as refusal:
            form.add_error(None, refusal.message())
        else:
            request.session[NEW_API_KEY_SESSION_KEY] = {"id": token.pk, "key": key}
            return redirect("accounts:api_tokens")
    new_key = request.session.pop(NEW_API_KEY_SESSION_KEY, None)
    context = {"tokens": api_tokens_for_user(user=user), "form": form, "new_key": new_key}
    return render(request, "accounts/tokens.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    token = api_token_get_for_user(user=request.user, pk=pk)
    services.api_token_revoke(token=token)
    messages.success(request, _("The key “%(name)s” no longer works.") % {"name": token.name})
    return redirect("accounts:api_tokens")
