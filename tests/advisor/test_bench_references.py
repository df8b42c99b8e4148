"""`make bench`'s references (the formtools peer and the authenticated one-row page) are
routed by the bench urlconf only: production's urlconf names none of them."""

from __future__ import annotations

import importlib

import pytest
from django.test import Client, override_settings
from django.urls import Resolver404, resolve

from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

REFERENCES = ["/bench/peer/organization/", "/bench/peer/workloads/", "/bench/authenticated"]


@pytest.mark.parametrize("path", [*REFERENCES, "/bench/baseline"])
def test_the_production_urlconf_routes_no_bench_reference(client: Client, path: str) -> None:
    with pytest.raises(Resolver404):
        resolve(path, urlconf="advisor.urls")
    client.force_login(MembershipFactory().user)
    assert client.get(path).status_code == 404


def test_production_settings_leave_formtools_out_and_the_bench_settings_add_it() -> None:
    from django.conf import settings

    assert settings.ROOT_URLCONF == "advisor.urls"
    assert "formtools" not in settings.INSTALLED_APPS
    bench = importlib.import_module("advisor.bench_settings")
    assert bench.ROOT_URLCONF == "advisor.bench_urls"
    assert "formtools" in bench.INSTALLED_APPS


@override_settings(ROOT_URLCONF="advisor.bench_urls")
def test_the_peer_is_a_formtools_wizard_over_the_products_organisation_step(
    client: Client,
) -> None:
    from advisor import bench_peer

    url = "/bench/peer/organization/"
    assert client.get(url).status_code == 302  # login required
    client.force_login(MembershipFactory().user)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="organization-industry"' in html and 'name="organization-regions"' in html
    assert f'name="{bench_peer.PREFIX}-current_step"' in html

    refused = client.post(url, bench_peer.organization_post("alchemy", ["hong_kong"]))
    assert refused.status_code == 200 and "is-invalid" in refused.content.decode()
    saved = client.post(url, bench_peer.organization_post("research", ["hong_kong"]))
    assert saved.status_code == 302 and saved["Location"] == "/bench/peer/workloads/"
    # Repeatable, as the load repeats it: the step is posted again from the next step.
    again = client.post(url, bench_peer.organization_post("finance", ["singapore"]))
    assert again.status_code == 302 and again["Location"] == "/bench/peer/workloads/"


@override_settings(ROOT_URLCONF="advisor.bench_urls")
def test_the_authenticated_baseline_shows_one_row_to_a_signed_in_person(
    client: Client, django_assert_num_queries: object
) -> None:
    assert client.get("/bench/authenticated").status_code == 302
    membership = MembershipFactory(organization__name="Acme <Labs>")
    client.force_login(membership.user)
    client.get("/bench/authenticated")
    # The user and the one row (the session comes from the cache).
    with django_assert_num_queries(2):  # type: ignore[operator]
        page = client.get("/bench/authenticated")
    assert page.status_code == 200
    assert "Acme &lt;Labs&gt;" in page.content.decode()
