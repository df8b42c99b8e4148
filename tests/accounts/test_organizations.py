from __future__ import annotations

import pytest
from django.http import Http404
from django.test import Client
from django.urls import reverse

from accounts.models import Invitation, Membership, Role
from accounts.selectors import object_get_for_user
from tests.factories import MembershipFactory, OrganizationFactory

pytestmark = pytest.mark.django_db


def test_switching_organisation_changes_the_working_organisation(client: Client) -> None:
    first = MembershipFactory(organization__name="Alpha")
    second = MembershipFactory(user=first.user, organization__name="Beta", role=Role.SALES_ENGINEER)
    client.force_login(first.user)
    assert "Alpha" in client.get(reverse("advisor:dashboard")).text
    response = client.post(
        reverse("accounts:switch_organization"),
        {"organization": second.organization_id},
        follow=True,
    )
    assert "You are now working in Beta" in response.text
    assert "Sales engineer" in client.get(reverse("advisor:dashboard")).text


def test_switching_to_an_organisation_you_are_not_in_is_404(client: Client) -> None:
    mine = MembershipFactory()
    theirs = OrganizationFactory()
    client.force_login(mine.user)
    response = client.post(reverse("accounts:switch_organization"), {"organization": theirs.pk})
    assert response.status_code == 404


def test_switch_ignores_offsite_next_urls(client: Client) -> None:
    mine = MembershipFactory()
    client.force_login(mine.user)
    response = client.post(
        reverse("accounts:switch_organization"),
        {"organization": mine.organization_id, "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("advisor:dashboard")


def test_member_of_org_a_gets_404_for_objects_of_org_b() -> None:
    a = MembershipFactory()
    b = MembershipFactory()
    invitation_b = Invitation.objects.create(
        organization=b.organization,
        email="x@example.com",
        token_hash="0" * 64,
        expires_at="2099-01-01T00:00:00Z",
    )
    with pytest.raises(Http404):
        object_get_for_user(Invitation.objects.all(), user=a.user, pk=invitation_b.pk)
    assert (
        object_get_for_user(Invitation.objects.all(), user=b.user, pk=invitation_b.pk)
        == invitation_b
    )
    with pytest.raises(Http404):
        object_get_for_user(Membership.objects.all(), user=a.user, pk=b.pk)
    with pytest.raises(Http404):
        object_get_for_user(Membership.objects.all(), user=a.user, pk="not-a-number")


def test_organisation_page_lists_only_its_own_members(client: Client) -> None:
    a = MembershipFactory(user__email="alice@a.example")
    MembershipFactory(user__email="bob@b.example")
    client.force_login(a.user)
    page = client.get(reverse("accounts:organization"))
    assert "alice@a.example" in page.text
    assert "bob@b.example" not in page.text


@pytest.mark.parametrize("name", ["advisor:dashboard", "accounts:organization"])
def test_pages_that_need_a_login_redirect_anonymous_visitors(client: Client, name: str) -> None:
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_non_staff_members_cannot_reach_the_admin(client: Client) -> None:
    member = MembershipFactory(role=Role.SALES_ENGINEER)
    client.force_login(member.user)
    assert client.get(reverse("admin:index")).status_code == 302
