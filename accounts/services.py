"""Write-side operations for users, organisations, memberships and invitations."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.cache import cache
from django.core.mail import EmailMessage, send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import throttle
from accounts.models import ApiToken, Invitation, Membership, Organization, Role, User
from accounts.selectors import role_rank, token_hash
from accounts.validators import plain_name


class InvitationError(Exception):
    """An invitation link that cannot be used (expired, used, or for another address)."""


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:100] or "org"
    slug = base
    while Organization.objects.filter(slug=slug).exists():
        slug = f"{base}-{secrets.token_hex(3)}"
    return slug


def organization_create(
    *, name: str, owner: User | None = None, role: str = Role.MEMBER
) -> Organization:
    """Create an organisation; its creator (if given) becomes a member with `role`.

    Forms refuse names with line breaks or control characters; other callers' names are made
    one line here, as the name goes into email subjects.
    """
    name = plain_name(name)
    organization = Organization.objects.create(name=name, slug=_unique_slug(name))
    if owner is not None:
        membership_create(user=owner, organization=organization, role=role)
    return organization


def membership_create(*, user: User, organization: Organization, role: str) -> Membership:
    """Make `user` a member of `organization` with at least `role`.

    Never lowers the role of someone already there: an invitation (say, a sales engineer asking
    a customer to fill in an assessment) must not demote the organisation's admin.
    """
    membership, created = Membership.objects.get_or_create(
        user=user, organization=organization, defaults={"role": role}
    )
    if not created and role_rank(role) > role_rank(membership.role):
        membership.role = role
        membership.save(update_fields=["role"])
    if membership.role == Role.ADMIN and organization.is_operator and not user.is_staff:
        # The operator's admins edit the scoring weights and the catalog in the Django admin;
        # an admin of any other organisation has nothing to do there.
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return membership


@transaction.atomic
def user_sign_up(*, email: str, full_name: str, password_hash: str, organization_name: str) -> User:
    """A new person with their own organisation, in which they are a member."""
    user = User.objects.create_user(email=email, password=None, full_name=plain_name(full_name))
    user.password = password_hash
    user.save(update_fields=["password"])
    organization_create(name=organization_name, owner=user, role=Role.MEMBER)
    return user


@transaction.atomic
def invitation_create(
    *,
    organization: Organization,
    email: str,
    role: str,
    invited_by: User,
    base_url: str,
    next_path: str = "",
    note: str = "",
) -> tuple[Invitation, str]:
    """Store an invitation (hashed token) and email its link; returns it with the raw token.

    `next_path` is where the person lands once they have joined (a local path only);
    `note` is a line of context for the email, e.g. which assessment they are asked to fill.
    Someone already in the organisation is not invited again (InvitationError): joining could
    only change their role. The email is composed here, so a message that cannot be sent rolls
    the invitation back, and goes out once the invitation is committed.
    """
    email = email.lower()
    if Membership.objects.filter(organization=organization, user__email__iexact=email).exists():
        raise InvitationError(
            _("%(email)s is already a member of this organisation.") % {"email": email}
        )
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        organization=organization,
        email=email,
        role=role,
        token_hash=token_hash(token),
        invited_by=invited_by,
        expires_at=timezone.now() + settings.INVITATION_MAX_AGE,
        next_path=next_path if next_path.startswith("/") and not next_path.startswith("//") else "",
    )
    url = base_url.rstrip("/") + reverse("accounts:invitation", kwargs={"token": token})
    context = {
        "invitation": invitation,
        "url": url,
        "inviter": invited_by.get_full_name(),
        "days": settings.INVITATION_MAX_AGE.days,
        "note": note,
    }
    message = EmailMessage(
        # Names from before names were checked may still hold a line break; a header may not.
        subject=_("You are invited to %(org)s on Accelerator Advisor")
        % {"org": plain_name(organization.name)},
        body=render_to_string("accounts/email/invitation.txt", context),
        to=[invitation.email],
    )
    message.message()  # builds the headers: raises here, inside the transaction, if it cannot
    if invitation_email_allowed(email=invitation.email, invited_by=invited_by):
        transaction.on_commit(message.send)
    return invitation, token


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """Join the invitation's organisation. Each link works once, before it expires."""
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not locked.is_usable:
        raise InvitationError(_("This invitation link has expired or has already been used."))
    if locked.email.lower() != user.email.lower():
        raise InvitationError(
            _("This invitation was sent to %(email)s; log in with that address to accept it.")
            % {"email": locked.email}
        )
    membership = membership_create(user=user, organization=locked.organization, role=locked.role)
    locked.accepted_at = timezone.now()
    locked.accepted_by = user
    locked.save(update_fields=["accepted_at", "accepted_by"])
    return membership


@transaction.atomic
def invitation_sign_up(*, invitation: Invitation, full_name: str, password: str) -> User:
    """Create the invited person's account and accept the invitation in one step."""
    user = User.objects.create_user(
        email=invitation.email, password=password, full_name=plain_name(full_name)
    )
    invitation_accept(invitation=invitation, user=user)
    return user


# --- API tokens ----------------------------------------------------------------------------------

# last_used_at is for people deciding which key to revoke; minute precision is plenty and spares
# a write on every API call.
API_TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)


class TooManyTokens(Exception):
    """The person already holds settings.API_TOKENS_PER_USER live keys."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit

    def message(self) -> str:
        return _(
            "You already have %(limit)s working API keys, the most one person may hold. "
            "Revoke one you no longer use, then create the new one."
        ) % {"limit": self.limit}


def api_token_create(
    *, user: User, name: str, expires_at: datetime | None = None
) -> tuple[ApiToken, str]:
    """A new API key for `user`; returns the token and the raw key, which is never stored.

    A key with `expires_at` stops working then; without one it works until revoked. Raises
    TooManyTokens when the person already holds API_TOKENS_PER_USER live (unrevoked,
    unexpired) keys: the API's budget is per person, and a bounded list stays one people
    can review. The person's row is locked while counting, so parallel creates cannot all
    pass as the last one.
    """
    limit: int = settings.API_TOKENS_PER_USER
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        now = timezone.now()
        live = (
            ApiToken.objects.filter(user=user, revoked_at__isnull=True)
            .exclude(expires_at__lte=now)
            .count()
        )
        if live >= limit:
            raise TooManyTokens(limit)
        key = secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name.strip(),
            prefix=key[:8],
            key_hash=token_hash(key),
            expires_at=expires_at,
        )
    return token, key


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    """Stop a key working at once. The row stays, so the audit trail keeps its name."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=token.revoked_at
        )
    return token


def api_tokens_revoke_all(*, user: User) -> int:
    """Stop all of `user`'s keys working: a new password shuts out whoever had the old one."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


# The email login's limits (accounts.backends.EmailBackend counts the failures).
# django-axes locks a (email, client address) pair after 5 failures. These catch what a pair
# limit cannot: one address trying a password on many accounts (spraying), and many addresses
# trying one account. They are higher than axes' limit so that one person's typos never reach
# them, and a reset password lifts the account's own (password_changed).
LOGIN_FAILURES_PER_ADDRESS = throttle.Limit("login-address", limit=20, window=15 * 60)
LOGIN_FAILURES_PER_ACCOUNT = throttle.Limit("login-account", limit=20, window=15 * 60)


def password_changed(*, user: User) -> int:
    """After a new password (reset or change): revoke the API keys and lift the login limit.

    Whoever learnt the old password may have made keys with it; the owner, who proved they
    hold the account again, must not stay locked out by others' guesses. Returns how many
    keys were revoked.
    """
    throttle.clear(LOGIN_FAILURES_PER_ACCOUNT, throttle.normalise_email(user.email))
    return api_tokens_revoke_all(user=user)


def api_token_used(*, token: ApiToken) -> None:
    """Record that the key authenticated a request (at most once per interval)."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < API_TOKEN_TOUCH_INTERVAL:
        return
    token.last_used_at = now
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)


# --- Sign-up by email ----------------------------------------------------------------------------

# The sign-up page answers "check your email" whether or not the address has an account, so it
# tells nobody which addresses do. The account is made only from the emailed link; until then
# the details wait in the shared cache (Redis in production), the password already hashed.
SIGNUP_LINK_MAX_AGE = 24 * 60 * 60
SIGNUP_EMAILS_PER_ADDRESS = throttle.Limit("signup-address", limit=3, window=60 * 60)
SIGNUP_EMAILS_PER_REQUESTER = throttle.Limit("signup-requester", limit=10, window=60 * 60)


def _sign_up_key(token: str) -> str:
    return f"signup:{token_hash(token)}"


def user_sign_up_request(
    *,
    email: str,
    full_name: str,
    password: str,
    organization_name: str,
    base_url: str,
    requester: str | None,
) -> None:
    """Email `email` a link that creates the account, or, if it has one, a note saying so.

    Both cost the same (the password is hashed either way) and both are limited per address
    and per requester, silently, so the page's answer never varies.
    """
    email = throttle.normalise_email(email)
    password_hash = make_password(password)
    over_address = throttle.hit(SIGNUP_EMAILS_PER_ADDRESS, email)
    over_requester = throttle.hit(SIGNUP_EMAILS_PER_REQUESTER, requester)
    if over_address or over_requester:
        return
    base = base_url.rstrip("/")
    context: dict[str, object]
    if User.objects.filter(email__iexact=email).exists():
        context = {
            "login_url": base + reverse("accounts:login"),
            "reset_url": base + reverse("accounts:password_reset"),
        }
        subject = _("Your Accelerator Advisor account")
        template = "accounts/email/signup_exists.txt"
    else:
        token = secrets.token_urlsafe(32)
        pending = {
            "email": email,
            "full_name": full_name.strip(),
            "organization_name": organization_name.strip(),
            "password_hash": password_hash,
        }
        cache.set(_sign_up_key(token), pending, SIGNUP_LINK_MAX_AGE)
        context = {
            "url": base + reverse("accounts:signup_confirm", kwargs={"token": token}),
            "hours": SIGNUP_LINK_MAX_AGE // 3600,
        }
        subject = _("Finish creating your Accelerator Advisor account")
        template = "accounts/email/signup_confirm.txt"
    send_mail(
        subject=subject,
        message=render_to_string(template, context),
        from_email=None,
        recipient_list=[email],
    )


def user_sign_up_pending(*, token: str) -> dict[str, str] | None:
    """The details waiting behind a sign-up link, or None for an unknown, used or old one."""
    if not token or len(token) > 200:
        return None
    pending: dict[str, str] | None = cache.get(_sign_up_key(token))
    return pending


def user_sign_up_confirm(*, token: str) -> User | None:
    """Create the account a sign-up link stands for; each link works once."""
    pending = user_sign_up_pending(token=token)
    if pending is None:
        return None
    cache.delete(_sign_up_key(token))
    try:
        return user_sign_up(**pending)
    except IntegrityError:  # the address got an account meanwhile (another link, an invitation)
        return None


# --- Invitation email limits ---------------------------------------------------------------------

# At most this many invitation emails go to one address, and from one inviter, per hour; past
# that the invitation is stored but not mailed, and the page answers as usual.
INVITATION_EMAILS_PER_ADDRESS = throttle.Limit("invite-address", limit=3, window=60 * 60)
INVITATION_EMAILS_PER_INVITER = throttle.Limit("invite-inviter", limit=20, window=60 * 60)


def invitation_email_allowed(*, email: str, invited_by: User) -> bool:
    """Count one invitation email; False once the address or the inviter is over its limit."""
    over_address = throttle.hit(INVITATION_EMAILS_PER_ADDRESS, throttle.normalise_email(email))
    over_inviter = throttle.hit(INVITATION_EMAILS_PER_INVITER, str(invited_by.pk))
    return over_address is None and over_inviter is None
