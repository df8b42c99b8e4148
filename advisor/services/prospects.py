"""Sales engineers' prospects: a customer's organisation with a first draft, and invitations
for the customer's contact to fill it in."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import Invitation, Role, User
from accounts.services import invitation_create, organization_create
from advisor.models import Assessment
from advisor.services.assessments import assessment_create


def customer_invite(
    *, assessment: Assessment, email: str, invited_by: User, base_url: str
) -> Invitation:
    """Invite a customer's contact to join their organisation and fill in this assessment."""
    invitation, _token = invitation_create(
        organization=assessment.organization,
        email=email,
        role=Role.MEMBER,
        invited_by=invited_by,
        base_url=base_url,
        next_path=reverse("advisor:assessment", kwargs={"pk": assessment.pk}),
        note=gettext('You are asked to fill in the assessment "%(title)s".')
        % {"title": assessment.title},
    )
    return invitation


def prospect_start(
    *, user: User, organization_name: str, title: str, contact_email: str, base_url: str
) -> Assessment:
    """A sales engineer opens a new prospect: its organisation (with the sales engineer in it),
    a first draft assessment, and, given an address, an invitation for the customer's contact."""
    with transaction.atomic():
        organization = organization_create(
            name=organization_name, owner=user, role=Role.SALES_ENGINEER
        )
        assessment = assessment_create(organization=organization, user=user, title=title)
        if contact_email:
            customer_invite(
                assessment=assessment, email=contact_email, invited_by=user, base_url=base_url
            )
    return assessment
