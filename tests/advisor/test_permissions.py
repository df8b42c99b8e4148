"""advisor.permissions: the navigation offers exactly the pages a person may open, and the
report page offers sharing exactly to those the share view lets through."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role, User
from accounts.services import membership_create
from tests.factories import (
    AssessmentFactory,
    MembershipFactory,
    ReportFactory,
    UserFactory,
    operator_member,
)

pytestmark = pytest.mark.django_db

REFERENCE_PAGES = ("advisor:scoring_models", "advisor:catalog")


def _superuser() -> User:
    return UserFactory(is_superuser=True, is_staff=True)


def _superuser_in_a_customer_organisation() -> User:
    user = _superuser()
    MembershipFactory(user=user, role=Role.MEMBER)
    return user


def _operator_sales_engineer() -> User:
    return operator_member(Role.SALES_ENGINEER)


def _customer_admin() -> User:
    return MembershipFactory(role=Role.ADMIN).user


def _operator_member() -> User:
    return operator_member(Role.MEMBER)


PEOPLE: dict[str, tuple[Callable[[], User], bool]] = {
    "superuser without a membership": (_superuser, True),
    "superuser in a customer organisation": (_superuser_in_a_customer_organisation, True),
    "operator sales engineer": (_operator_sales_engineer, True),
    "customer admin": (_customer_admin, False),
    "operator member": (_operator_member, False),
}


@pytest.mark.parametrize("person", PEOPLE)
def test_the_navigation_links_the_reference_pages_exactly_when_they_open(
    client: Client, person: str
) -> None:
    make, allowed = PEOPLE[person]
    client.force_login(make())
    nav = client.get(reverse("advisor:dashboard")).text
    for name in REFERENCE_PAGES:
        url = reverse(name)
        assert (f'href="{url}"' in nav) is allowed, (person, name)
        assert (client.get(url).status_code == 200) is allowed, (person, name)


@pytest.mark.parametrize(
    ("role", "own", "allowed"),
    [
        (Role.MEMBER, True, True),
        (Role.MEMBER, False, False),
        (Role.SALES_ENGINEER, False, True),
        (Role.ADMIN, False, True),
    ],
)
def test_the_share_form_shows_exactly_to_those_who_may_share(
    client: Client, role: str, own: bool, allowed: bool
) -> None:
    creator = MembershipFactory()
    reader = creator if own else MembershipFactory(organization=creator.organization, role=role)
    if own:
        reader.role = role
        reader.save()
    report = ReportFactory(assessment=AssessmentFactory(membership=creator, submitted=True))
    kwargs = {"pk": report.assessment_id, "number": report.number}
    client.force_login(reader.user)
    page = client.get(reverse("advisor:report", kwargs=kwargs)).text
    share_url = reverse("advisor:share_create", kwargs=kwargs)
    assert (f'action="{share_url}"' in page) is allowed
    response = client.post(share_url, {"label": "Board", "expires_in_days": ""})
    assert (response.status_code == 302) is allowed
    assert (response.status_code == 404) is not allowed


def test_a_superuser_sees_no_share_form_in_an_organisation_they_are_not_in(
    client: Client,
) -> None:
    creator = MembershipFactory()
    report = ReportFactory(assessment=AssessmentFactory(membership=creator, submitted=True))
    user = _superuser()
    membership_create(user=user, organization=MembershipFactory().organization, role=Role.ADMIN)
    client.force_login(user)
    kwargs = {"pk": report.assessment_id, "number": report.number}
    assert client.get(reverse("advisor:report", kwargs=kwargs)).status_code == 404
    assert client.post(reverse("advisor:share_create", kwargs=kwargs)).status_code == 404
