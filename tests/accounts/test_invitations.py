from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation, Membership, Organization, Role, User
from tests.factories import (
    PASSWORD,
    AssessmentFactory,
    MembershipFactory,
    UserFactory,
    operator_member,
)

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


@pytest.mark.parametrize(("operator", "staff"), [(True, True), (False, False)])
def test_only_the_operators_admin_invitation_grants_admin_site_access(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
    operator: bool,
    staff: bool,
) -> None:
    if operator:
        client.force_login(operator_member(Role.ADMIN))
    else:
        client.force_login(MembershipFactory(role=Role.ADMIN).user)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "newadmin@example.com", Role.ADMIN)
    guest = Client()
    guest.post(
        _link(mailoutbox), {"full_name": "New Admin", "password1": PASSWORD, "password2": PASSWORD}
    )
    user = User.objects.get(email="newadmin@example.com")
    assert Membership.objects.get(user=user).role == Role.ADMIN
    assert user.is_staff is staff
    assert guest.get(reverse("admin:index")).status_code == (200 if staff else 302)


# --- invitations never lower a role ----------------------------------------------------------


def test_a_sales_engineer_cannot_demote_the_admin_by_asking_them_to_fill_in_an_assessment(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    admin = MembershipFactory(role=Role.ADMIN, user__email="boss@example.com")
    engineer = MembershipFactory(organization=admin.organization, role=Role.SALES_ENGINEER)
    obj = AssessmentFactory(
        organization=admin.organization, created_by=engineer.user, title="T", answers={}
    )
    client.force_login(engineer.user)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            reverse("advisor:customer_invite", kwargs={"pk": obj.pk}),
            {"email": "Boss@example.com"},
            follow=True,
        )
    assert "boss@example.com is already a member of this organisation." in page.text
    assert not mailoutbox
    assert not Invitation.objects.exists()
    admin.refresh_from_db()
    assert admin.role == Role.ADMIN


def test_accepting_an_older_lower_invitation_keeps_the_higher_role(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    admin = MembershipFactory(role=Role.ADMIN)
    engineer = MembershipFactory(organization=admin.organization, role=Role.SALES_ENGINEER)
    obj = AssessmentFactory(
        organization=admin.organization, created_by=engineer.user, title="T", answers={}
    )
    # Both invitations go out before carol joins: one as admin, one as a customer contact.
    client.force_login(admin.user)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "carol@example.com", Role.ADMIN)
    as_admin = _link(mailoutbox)
    client.force_login(engineer.user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("advisor:customer_invite", kwargs={"pk": obj.pk}),
            {"email": "carol@example.com"},
        )
    as_member = _link(mailoutbox)
    assert as_member != as_admin

    carol = Client()
    carol.post(as_admin, {"full_name": "Carol", "password1": PASSWORD, "password2": PASSWORD})
    membership = Membership.objects.get(user__email="carol@example.com")
    assert membership.role == Role.ADMIN
    # The later, lower invitation still opens the assessment, and leaves her an admin.
    assert carol.post(as_member)["Location"] == reverse("advisor:assessment", kwargs={"pk": obj.pk})
    membership.refresh_from_db()
    assert membership.role == Role.ADMIN
    team = carol.get(reverse("accounts:organization")).text
    assert '<option value="admin">' in team


# --- names with control characters ---------------------------------------------------------------


def test_an_organisation_named_with_a_line_break_is_refused_on_sign_up(client: Client) -> None:
    page = client.post(
        reverse("accounts:signup"),
        {
            "email": "new@example.com",
            "full_name": "Ada\tLovelace",
            "organization_name": "Acme\r\nBcc: victim@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert page.status_code == 200
    errors = page.context["form"].errors
    message = "Use one line of plain text: no line breaks, tabs or other control characters."
    assert errors["organization_name"] == [message]
    assert errors["full_name"] == [message]
    assert not User.objects.filter(email="new@example.com").exists()
    zh = client.post(
        reverse("accounts:signup"),
        {"email": "new@example.com", "organization_name": "A\u2028B"},
        HTTP_ACCEPT_LANGUAGE="zh-TW",
    )
    assert "請只用一行純文字" in zh.text


@pytest.mark.parametrize(
    "name", ["Acme\r\nBcc: victim@example.com", "Acme\x85Ltd", "Acme\u2028Ltd"]
)
def test_control_characters_are_refused_in_new_organisations_and_prospects(
    client: Client, name: str
) -> None:
    engineer = MembershipFactory(role=Role.SALES_ENGINEER)
    client.force_login(engineer.user)
    page = client.post(reverse("accounts:organization_create"), {"name": name})
    assert page.status_code == 400
    assert "no line breaks" in page.text
    prospect = client.post(
        reverse("advisor:prospect_new"),
        {"organization_name": name, "title": "Sizing", "contact_email": "cto@example.com"},
        follow=True,
    )
    assert "no line breaks" in prospect.text
    assert list(Organization.objects.all()) == [engineer.organization]
    assert not Invitation.objects.exists()


def test_an_organisation_whose_old_name_has_a_line_break_still_sends_invitations(
    client: Client,
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    # A name stored before names were checked: the invitation's subject stays one line.
    admin = MembershipFactory(role=Role.ADMIN, organization__name="Acme\r\nBcc: victim@example.com")
    client.force_login(admin.user)
    with django_capture_on_commit_callbacks(execute=True):
        _invite(client, "new@example.com")
    assert (
        mailoutbox[0].subject
        == "You are invited to Acme Bcc: victim@example.com on Accelerator Advisor"
    )
    assert mailoutbox[0].to == ["new@example.com"]
    assert "victim@example.com" not in mailoutbox[0].bcc
    assert Invitation.objects.count() == 1
    guest = Client()
    refused = guest.post(
        _link(mailoutbox), {"full_name": "Eve\r\nX", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert "no line breaks" in refused.text
    assert not User.objects.filter(email="new@example.com").exists()
    joined = guest.post(
        _link(mailoutbox), {"full_name": "Eve X", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert joined.status_code == 302
    assert Membership.objects.get(user__email="new@example.com").organization == admin.organization
