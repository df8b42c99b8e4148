"""Who may do what, in one place: the views, the templates (through advisor_tags) and the admin
ask here.

Whether someone sees an object at all is the getters' answer
(selectors.assessments.assessment_get_for_user and friends 404 for anyone outside its
organisation); these rules say what a person who sees it may do.
Roles come from accounts.models.Role; powers over global data (scoring models, the catalog)
from the operating organisation (accounts.selectors).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest

from accounts.models import Membership, Role, User
from accounts.selectors import (
    is_operator_admin,
    is_operator_staff,
    membership_is_operator_admin,
    membership_is_operator_staff,
    request_memberships,
)
from advisor.models import Assessment

# Roles that sell: they create prospects, invite customers and share any report.
SELLING_ROLES = frozenset({Role.SALES_ENGINEER, Role.ADMIN})


def can_read_reference(
    user: User | AnonymousUser, *, memberships: Iterable[Membership] | None = None
) -> bool:
    """Scoring models, their impact previews and the catalog: superusers, and the operating
    organisation's sales engineers and admins. `memberships` (with their organisations loaded)
    spares a query where a page holds them already, as the navigation does."""
    if not user.is_authenticated or not user.is_active:
        return False
    if memberships is None or user.is_superuser:
        return is_operator_staff(user=user)
    return any(membership_is_operator_staff(m) for m in memberships)


def can_edit_reference(
    user: User | AnonymousUser, *, memberships: Iterable[Membership] | None = None
) -> bool:
    """Editing scoring models and the catalog in the admin: superusers, and the operating
    organisation's admins who are staff. `memberships` as for can_read_reference."""
    if memberships is None or not user.is_authenticated or user.is_superuser:
        return is_operator_admin(user=user)
    return bool(user.is_active and user.is_staff) and any(
        membership_is_operator_admin(m) for m in memberships
    )


def request_can_edit_reference(request: HttpRequest) -> bool:
    """can_edit_reference for the request's user, from the memberships the request reads once
    (accounts.selectors.request_memberships): the admin asks it for every model in its sidebar
    and for every permission on a page, which was a query each time."""
    return can_edit_reference(request.user, memberships=request_memberships(request))


def can_share(*, membership: Membership | None, assessment: Assessment) -> bool:
    """Share links to an assessment's reports: its creator, sales engineers and admins."""
    if membership is None or membership.organization_id != assessment.organization_id:
        return False
    return assessment.created_by_id == membership.user_id or membership.role in SELLING_ROLES


def can_invite_customers(membership: Membership) -> bool:
    """Creating prospects and inviting a customer to fill in an assessment: sales engineers and
    admins of the organisation they are in."""
    return membership.role in SELLING_ROLES


def can_invite_to_assessment(*, membership: Membership | None, assessment: Assessment) -> bool:
    """Inviting a customer to this assessment: can_invite_customers, in its organisation."""
    return (
        membership is not None
        and membership.organization_id == assessment.organization_id
        and can_invite_customers(membership)
    )
