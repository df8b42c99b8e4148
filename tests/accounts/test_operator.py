"""The operating organisation: who marks it (the demo seed, the migration's rule, a superuser in
the admin) and that there is at most one."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import Organization, Role, User
from tests.factories import PASSWORD, MembershipFactory, OrganizationFactory, UserFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("accounts.migrations.0005_organization_is_operator")


def _client_for(email: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(email=email))
    return client


def test_the_demo_seed_makes_its_sales_engineer_and_admin_the_operators_staff(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed", password=PASSWORD, samples=False)
    operator = Organization.objects.get(is_operator=True)
    assert operator.name == "Harbour GPU Cloud"
    assert not Organization.objects.get(name="Demo Customer Ltd").is_operator
    assert not Organization.objects.get(name="Demo AI Lab").is_operator
    scoring = reverse("advisor:scoring_models")
    admin_scoring = reverse("admin:reference_scoringmodel_changelist")
    assert _client_for("member@demo.example").get(scoring).status_code == 404
    sales = _client_for("sales@demo.example")
    assert sales.get(scoring).status_code == 200
    assert "Price catalog" in sales.get(reverse("advisor:dashboard")).text
    assert _client_for("admin@demo.example").get(admin_scoring).status_code == 200
    # Seeding again changes nothing.
    call_command("seed", password=PASSWORD, samples=False)
    assert list(Organization.objects.filter(is_operator=True)) == [operator]


def test_the_seed_leaves_an_operator_chosen_before(capsys: pytest.CaptureFixture[str]) -> None:
    chosen = OrganizationFactory(name="Real Hosting Co", is_operator=True)
    call_command("seed", password=PASSWORD, samples=False)
    assert list(Organization.objects.filter(is_operator=True)) == [chosen]
    assert "Real Hosting Co runs this site" in capsys.readouterr().err
    assert _client_for("sales@demo.example").get(reverse("advisor:catalog")).status_code == 404


def _admin_of(organization: Organization, **user: Any) -> User:
    return MembershipFactory(
        organization=organization,
        role=Role.ADMIN,
        user__is_staff=True,
        **{f"user__{k}": v for k, v in user.items()},
    ).user


def _operators() -> list[str]:
    return list(Organization.objects.filter(is_operator=True).values_list("name", flat=True))


def test_the_migration_marks_the_one_organisation_whose_admin_is_a_superuser() -> None:
    host, customer = OrganizationFactory(name="Host"), OrganizationFactory(name="Customer")
    _admin_of(host, is_superuser=True)
    _admin_of(customer)  # customers' admins were made staff too
    migration.mark_operator(apps, None)
    assert _operators() == ["Host"]


def test_the_migration_marks_the_one_organisation_with_staff_admins() -> None:
    _admin_of(OrganizationFactory(name="Host"))
    MembershipFactory(role=Role.SALES_ENGINEER, organization__name="Prospect")
    migration.mark_operator(apps, None)
    assert _operators() == ["Host"]


@pytest.mark.parametrize("superusers", [True, False])
def test_the_migration_marks_nothing_when_in_doubt(superusers: bool) -> None:
    _admin_of(OrganizationFactory(name="One"), is_superuser=superusers)
    _admin_of(OrganizationFactory(name="Two"), is_superuser=superusers)
    UserFactory(is_superuser=True, is_staff=True)
    migration.mark_operator(apps, None)
    assert _operators() == []


def test_the_migration_makes_old_names_one_line() -> None:
    OrganizationFactory(name="Acme\r\nBcc: x@example.com")
    UserFactory(full_name="Ada\u2028Lovelace\t")
    migration.plain_names(apps, None)
    assert Organization.objects.get().name == "Acme Bcc: x@example.com"
    assert User.objects.get().full_name == "Ada Lovelace"


def test_a_superuser_marks_the_operator_in_the_admin_and_only_one(admin_client: Client) -> None:
    first, second = OrganizationFactory(name="First"), OrganizationFactory(name="Second")
    url = reverse("admin:accounts_organization_change", args=[first.pk])
    assert 'name="is_operator"' in admin_client.get(url).text
    admin_client.post(url, {"name": "First", "slug": first.slug, "is_operator": "on"})
    assert _operators() == ["First"]
    page = admin_client.post(
        reverse("admin:accounts_organization_change", args=[second.pk]),
        {"name": "Second", "slug": second.slug, "is_operator": "on"},
    )
    assert "Another organisation already runs this site." in page.text
    bad = admin_client.post(url, {"name": "First\r\nLine", "slug": first.slug, "is_operator": "on"})
    assert "no line breaks" in bad.text
    assert _operators() == ["First"]
