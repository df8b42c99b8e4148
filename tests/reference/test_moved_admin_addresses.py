from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from advisor.reference.models import Catalog, ScoringModel
from tests.factories import operator_member

pytestmark = pytest.mark.django_db


def test_an_old_admin_address_leads_to_the_same_page_in_the_reference_app(client: Client) -> None:
    catalog = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    response = client.get(f"/admin/advisor/catalog/{catalog.pk}/diff/?against=1")
    assert response.status_code == 301
    assert response["Location"] == f"/admin/reference/catalog/{catalog.pk}/diff/?against=1"
    assert response["Location"].startswith(
        reverse("admin:reference_catalog_diff", args=[catalog.pk])
    )


def test_an_old_admin_list_address_opens_for_an_editor(client: Client) -> None:
    client.force_login(operator_member("admin"))
    response = client.get("/admin/advisor/scoringmodel/", follow=True)
    assert response.redirect_chain == [("/admin/reference/scoringmodel/", 301)]
    model = ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED)
    assert str(model) in response.content.decode()


def test_other_old_admin_addresses_are_not_redirected(client: Client) -> None:
    assert client.get("/admin/advisor/assessment/").status_code != 301
