from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Invitation, Membership, Organization, Role, User
from advisor.models import Assessment
from tests.factories import PASSWORD, AssessmentFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sales(client: Client) -> Membership:
    membership = MembershipFactory(role=Role.SALES_ENGINEER, organization__name="Vendor")
    client.force_login(membership.user)
    return membership


def test_sales_engineer_opens_a_prospect_and_the_contact_fills_it_in(
    client: Client,
    sales: Membership,
    mailoutbox: list,
    django_capture_on_commit_callbacks: Any,  # type: ignore[type-arg]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("advisor:prospect_new"),
            {
                "organization_name": "Kowloon Retail",
                "title": "Recommender sizing",
                "contact_email": "cto@kowloon.example",
            },
        )
    obj = Assessment.objects.get(title="Recommender sizing")
    assert response["Location"] == reverse("advisor:assessment", kwargs={"pk": obj.pk})
    assert obj.organization.name == "Kowloon Retail"
    assert (
        Membership.objects.get(user=sales.user, organization=obj.organization).role
        == Role.SALES_ENGINEER
    )
    assert "Recommender sizing" in mailoutbox[0].body
    link = re.search(r"http://testserver(/accounts/invitation/\S+/)", mailoutbox[0].body).group(1)  # type: ignore[union-attr]

    contact = Client()
    joined = contact.post(
        link, {"full_name": "Ada Wong", "password1": PASSWORD, "password2": PASSWORD}
    )
    # The contact lands on the assessment they were asked to fill in.
    assert joined["Location"] == reverse("advisor:assessment", kwargs={"pk": obj.pk})
    assert contact.get(joined["Location"], follow=True).status_code == 200
    user = User.objects.get(email="cto@kowloon.example")
    assert Membership.objects.get(user=user).role == Role.MEMBER

    contact.post(
        reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"}),
        {"industry": "ecommerce", "regions": ["hong_kong"], "version": obj.version},
    )
    dashboard = client.get(reverse("advisor:dashboard"))
    assert "Customer assessments" in dashboard.text
    assert "Recommender sizing" in dashboard.text
    assert "1/" in dashboard.text  # one step of the wizard done


def test_sales_engineer_invites_a_customer_to_an_existing_assessment(
    client: Client,
    sales: Membership,
    mailoutbox: list,
    django_capture_on_commit_callbacks: Any,  # type: ignore[type-arg]
) -> None:
    obj = AssessmentFactory(membership=sales, title="T", answers={})
    page = client.get(reverse("advisor:step", kwargs={"pk": obj.pk, "slug": "organization"}))
    assert "Ask the customer to fill this in" in page.text
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("advisor:customer_invite", kwargs={"pk": obj.pk}), {"email": "x@y.example"}
        )
    assert mailoutbox[0].to == ["x@y.example"]
    bad = client.post(
        reverse("advisor:customer_invite", kwargs={"pk": obj.pk}), {"email": "nope"}, follow=True
    )
    assert "Enter a valid email address." in bad.text


def test_members_cannot_open_prospects_or_invite_customers(client: Client) -> None:
    member = MembershipFactory(role=Role.MEMBER)
    client.force_login(member.user)
    obj = AssessmentFactory(membership=member, title="T", answers={})
    assert "New prospect" not in client.get(reverse("advisor:dashboard")).text
    assert (
        client.post(
            reverse("advisor:prospect_new"), {"organization_name": "X", "title": "Y"}
        ).status_code
        == 404
    )
    assert (
        client.post(
            reverse("advisor:customer_invite", kwargs={"pk": obj.pk}), {"email": "a@b.example"}
        ).status_code
        == 404
    )


def test_bad_prospect_input_gets_a_message_and_keeps_what_was_typed(
    client: Client, sales: Membership
) -> None:
    page = client.post(
        reverse("advisor:prospect_new"),
        {"organization_name": "", "title": "Kowloon sizing " + "x" * 300, "contact_email": "nope"},
    )
    assert page.status_code == 400
    assert "Check the new prospect" in page.text
    assert not Assessment.objects.exists()
    # Each problem beside its field, and what was typed still in the form.
    assert 'value="nope"' in page.text and "Enter a valid email address." in page.text
    assert "Kowloon sizing xxx" in page.text
    assert "This field is required." in page.text
    zh = client.post(
        reverse("advisor:prospect_new"),
        {"organization_name": "九龍零售", "title": "", "contact_email": "nope"},
        headers={"accept-language": "zh-hant"},
    )
    assert zh.status_code == 400 and 'value="九龍零售"' in zh.text
    # A valid form afterwards is not shown a kept copy of the refused one.
    assert 'value="nope"' not in client.get(reverse("advisor:dashboard")).text


def test_a_prospect_whose_contact_is_already_in_it_is_refused_whole(
    client: Client, sales: Membership, mailoutbox: list
) -> None:
    page = client.post(
        reverse("advisor:prospect_new"),
        {
            "organization_name": "Kowloon Retail",
            "title": "Sizing",
            "contact_email": sales.user.email,
        },
    )
    assert page.status_code == 400
    assert f"{sales.user.email} is already a member of this organisation." in page.text
    assert 'value="Kowloon Retail"' in page.text  # nothing typed is lost
    # Nothing half-done: no organisation, assessment, invitation or email.
    assert not Organization.objects.filter(name="Kowloon Retail").exists()
    assert not Assessment.objects.exists()
    assert not Invitation.objects.exists()
    assert not mailoutbox
