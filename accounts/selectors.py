"""Read-side helpers, and the ownership checks every view goes through."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model, Q, QuerySet
from django.http import Http404, HttpRequest
from django.utils import timezone

from accounts.models import ApiToken, Invitation, Membership, Organization, Role, User

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser


def token_hash(token: str) -> str:
    """How a secret (an invitation or API token) is stored and looked up: never in clear."""
    return hashlib.sha256(token.encode()).hexdigest()


def memberships_for_user(*, user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("organization")


def organizations_for_user(*, user: User | AnonymousUser) -> QuerySet[Organization]:
    """Organisations whose data this user may see: only those they are a member of."""
    if not user.is_authenticated:
        return Organization.objects.none()
    return Organization.objects.filter(memberships__user=user)


def membership_get(*, user: User | AnonymousUser, organization_id: int) -> Membership:
    """The user's membership in an organisation, or 404 — never a hint that it exists."""
    if not user.is_authenticated:
        raise Http404
    try:
        return Membership.objects.select_related("organization").get(
            user=user, organization_id=organization_id
        )
    except Membership.DoesNotExist as exc:
        raise Http404 from exc


def object_get_for_user[M: Model](
    queryset: QuerySet[M],
    *,
    user: User | AnonymousUser,
    organization_field: str = "organization",
    **lookup: Any,
) -> M:
    """Fetch one object that belongs to an organisation the user is a member of, else 404.

    Later views use this for every object they take from a URL, so an id from another
    organisation behaves exactly like an id that does not exist.
    """
    if not user.is_authenticated:
        raise Http404
    # A join on the user's membership rather than a subquery of their organisations: the same
    # rows (one membership per user and organisation), and about half the ORM's work per request.
    try:
        return queryset.get(**{f"{organization_field}__memberships__user": user}, **lookup)
    except (ObjectDoesNotExist, ValueError) as exc:
        raise Http404 from exc


# Lowest to highest.
ROLE_ORDER = (Role.MEMBER, Role.SALES_ENGINEER, Role.ADMIN)


def role_rank(role: str) -> int:
    return ROLE_ORDER.index(Role(role))


def assignable_roles(*, role: str) -> list[str]:
    """Roles a member with `role` may hand out in an invitation: never more than their own.

    The roles are those of the organisation the invitation is for: only in the operating
    organisation do they carry powers over global data (see is_operator_staff), so a sales
    engineer who makes someone a sales engineer of a prospect gives them that prospect only.
    """
    return [str(r) for r in ROLE_ORDER[: role_rank(role) + 1]]


# --- The operating organisation ------------------------------------------------------------------
# The one place that says who has powers over global data (the scoring models, the catalog,
# impact previews over every organisation's assessments): the operating organisation's sales
# engineers and admins, and superusers. A role held in any other organisation never counts.

OPERATOR_STAFF_ROLES = frozenset({Role.SALES_ENGINEER, Role.ADMIN})


def operator_role(*, user: User | AnonymousUser) -> str | None:
    """The user's role in the operating organisation, or None (not a member, or inactive)."""
    if not user.is_authenticated or not user.is_active:
        return None
    return (
        Membership.objects.filter(user=user, organization__is_operator=True)
        .values_list("role", flat=True)
        .first()
    )


def is_operator_staff(*, user: User | AnonymousUser) -> bool:
    """Whether the user reads global data: the scoring models and their previews, the catalog."""
    if not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_superuser) or operator_role(user=user) in OPERATOR_STAFF_ROLES


def is_operator_admin(*, user: User | AnonymousUser) -> bool:
    """Whether the user edits global data in the Django admin: a superuser, or a staff user with
    the admin role in the operating organisation."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return bool(user.is_staff) and operator_role(user=user) == Role.ADMIN


def membership_is_operator_staff(membership: Membership) -> bool:
    """is_operator_staff for one membership already loaded with its organisation (the navbar)."""
    return membership.organization.is_operator and membership.role in OPERATOR_STAFF_ROLES


def membership_is_operator_admin(membership: Membership) -> bool:
    """The operating organisation's admin role, for one membership already loaded with its
    organisation (is_operator_admin also needs the user to be staff)."""
    return membership.organization.is_operator and membership.role == Role.ADMIN


def invitation_get_by_token(*, token: str) -> Invitation | None:
    if not token or len(token) > 200:
        return None
    return (
        Invitation.objects.select_related("organization")
        .filter(token_hash=token_hash(token))
        .first()
    )


SESSION_KEY = "organization_id"


def request_memberships(request: HttpRequest) -> list[Membership]:
    """The signed-in user's memberships, by organisation name, read once per request: the
    navbar's switcher, the current organisation and the views' permission checks all ask."""
    cached: list[Membership] | None = getattr(request, "_memberships", None)
    if cached is None:
        user = request.user
        cached = (
            list(memberships_for_user(user=user).order_by("organization__name", "pk"))
            if user.is_authenticated
            else []
        )
        request._memberships = cached  # type: ignore[attr-defined]
    return cached


def current_membership(request: HttpRequest) -> Membership | None:
    """The membership for the organisation the user is working in (chosen in the navbar).

    Falls back to their first organisation when the session names none, or one they have
    since left. Taken from request_memberships: no query of its own.
    """
    memberships = request_memberships(request)
    chosen = request.session.get(SESSION_KEY) if memberships else None
    if chosen is not None:
        for membership in memberships:
            if str(membership.organization_id) == str(chosen):
                return membership
    return memberships[0] if memberships else None


def api_token_get_by_key(*, key: str) -> ApiToken | None:
    """The live token whose key this is (not expired, its owner active), or None."""
    # A real key is 43 characters; anything much longer is not worth hashing.
    if not key or len(key) > 200:
        return None
    return (
        ApiToken.objects.select_related("user")
        .filter(key_hash=token_hash(key), revoked_at__isnull=True, user__is_active=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .first()
    )


def api_tokens_for_user(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by(
        "-created_at", "-pk"
    )


def api_token_get_for_user(*, user: User | AnonymousUser, pk: int) -> ApiToken:
    """One of the user's own live tokens, else 404 (another person's id looks like no id)."""
    if not isinstance(user, User):
        raise Http404
    try:
        return api_tokens_for_user(user=user).get(pk=pk)
    except (ObjectDoesNotExist, ValueError) as exc:
        raise Http404 from exc
