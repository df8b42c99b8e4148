"""Write-side operations for users, organisations, memberships and invitations."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import ApiToken, Invitation, Membership, Organization, Role, User
from accounts.selectors import role_rank
from accounts.validators import plain_name


class InvitationError(Exception):
    """An invitation link that cannot be used (expired, used, or for another address)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
def user_sign_up(*, email: str, full_name: str, password: str, organization_name: str) -> User:
    """A new person with their own organisation, in which they are a member."""
    user = User.objects.create_user(email=email, password=password, full_name=plain_name(full_name))
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


def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new API key for `user`; returns the token and the raw key, which is never stored."""
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip(), prefix=key[:8], key_hash=token_hash(key)
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


def api_token_used(*, token: ApiToken) -> None:
    """Record that the key authenticated a request (at most once per interval)."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < API_TOKEN_TOUCH_INTERVAL:
        return
    token.last_used_at = now
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
