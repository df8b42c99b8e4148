from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation, Membership, Role, User
from tests.factories import PASSWORD, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _invite(client: Client, email: str, role: str = Role.MEMBER) -> str:
    response = client.post(reverse("accounts:organization"), {"email": email, "role": role})
    assert response.status_code == 302, response.content
    return reverse("accounts:organization")


def _link(mailoutbox: list) -> str:  # type: ignore[type-arg]
    match = re.search(r"http://testserver(/accounts/invitation/[^/\s]+/)", mailoutbox[-1].body)
    assert match, mailoutbox[-1].body
    return match.group(1)


@pytest.fixture
def inviter(client: Client) -> Membership:
    membership = MembershipFactory(role=Role.MEMBER)
    client.force_login(membership.user)
    return membership


def test_invited_colleague_signs_up_through_the_link_and_joins(
    client: Client,
    inviter: Membership,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "Newbie@Example.com")
    assert mailoutbox[0].to == ["newbie@example.com"]
    link = _link(mailoutbox)
    # The token itself is never stored.
    assert link.split("/")[-2] not in {i.token_hash for i in Invitation.objects.all()}
    guest = Client()
    page = guest.get(link)
    assert "newbie@example.com" in page.text
    response = guest.post(
        link, {"full_name": "New Person", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    user = User.objects.get(email="newbie@example.com")
    assert Membership.objects.get(user=user).organization == inviter.organization
    # A used link does not work again.
    again = Client().get(link)
    assert again.status_code == 410
    assert "This invitation link does not work" in again.text


def test_existing_user_accepts_invitation_while_logged_in(
    client: Client,
    inviter: Membership,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    existing = UserFactory(email="known@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "known@example.com", Role.MEMBER)
    link = _link(mailoutbox)
    other = Client()
    assert "Log in to accept" in other.get(link).text
    other.force_login(existing)
    assert other.post(link).status_code == 302
    assert Membership.objects.filter(user=existing, organization=inviter.organization).exists()


def test_invitation_for_another_address_is_refused(
    client: Client,
    inviter: Membership,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "someone@example.com")
    link = _link(mailoutbox)
    intruder = Client()
    intruder.force_login(UserFactory(email="intruder@example.com"))
    response = intruder.post(link, follow=True)
    assert "This invitation was sent to someone@example.com" in response.text
    assert not Membership.objects.filter(
        user__email="intruder@example.com", organization=inviter.organization
    ).exists()


def test_expired_and_unknown_links_look_the_same(
    client: Client,
    inviter: Membership,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "late@example.com")
    link = _link(mailoutbox)
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = Client().get(link)
    unknown = Client().get(reverse("accounts:invitation", kwargs={"token": "x" * 43}))
    assert expired.status_code == unknown.status_code == 410
    assert "This invitation link does not work" in expired.text
    assert "這個邀請連結無法使用" in Client().get(link, HTTP_ACCEPT_LANGUAGE="zh-TW").text


def test_member_cannot_invite_with_a_higher_role(client: Client, inviter: Membership) -> None:
    response = client.post(
        reverse("accounts:organization"), {"email": "boss@example.com", "role": Role.ADMIN}
    )
    assert response.status_code == 200
    assert "role" in response.context["form"].errors
    assert 'value="boss@example.com"' in response.text
    assert not Invitation.objects.exists()


def test_inviting_an_existing_member_or_a_malformed_email_is_refused(
    client: Client, inviter: Membership
) -> None:
    MembershipFactory(organization=inviter.organization, user__email="there@example.com")
    dup = client.post(
        reverse("accounts:organization"), {"email": "THERE@example.com", "role": "member"}
    )
    assert "is already a member of this organisation" in dup.text
    bad = client.post(reverse("accounts:organization"), {"email": "no at sign", "role": "member"})
    assert "Enter a valid email address." in bad.text
    assert not Invitation.objects.exists()


def test_admin_invitation_grants_admin_site_access(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    admin = MembershipFactory(role=Role.ADMIN)
    client.force_login(admin.user)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "newadmin@example.com", Role.ADMIN)
    guest = Client()
    guest.post(
        _link(mailoutbox), {"full_name": "New Admin", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert User.objects.get(email="newadmin@example.com").is_staff
    assert guest.get(reverse("admin:index")).status_code == 200
