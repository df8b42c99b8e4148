"""Every URL that takes an object id, generated from the URL configuration, asked for by people
who must not see the object: anonymous visitors, members of another organisation and a sales
engineer working for another customer. Each must get a login redirect, a 404 or (API) a 401."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.models import Role
from advisor.models import Assessment, Report, ShareLink
from advisor.starters import BY_SLUG as STARTERS
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

OBJECT_KWARGS = {"pk", "number", "link_id", "assessment_id", "id"}


def _patterns(resolvers: list[Any], prefix: str = "") -> list[str]:
    found = []
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            found += _patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            found.append(prefix + str(entry.pattern))
    return found


def _object_routes() -> list[str]:
    routes = []
    for route in _patterns(get_resolver().url_patterns):
        names = set(re.findall(r"<(?:\w+:)?(\w+)>", route))
        if names & OBJECT_KWARGS and not route.startswith(("admin/", "^admin")):
            routes.append(route)
    return sorted(set(routes))


@pytest.fixture
def victim() -> dict[str, Any]:
    owner = MembershipFactory(role=Role.ADMIN)
    obj = Assessment.objects.create(
        organization=owner.organization,
        created_by=owner.user,
        title="Secret",
        status=Assessment.Status.SUBMITTED,
        answers=STARTERS["realtime-chatbot"].document(),
    )
    report = Report(
        assessment=obj,
        number=1,
        language="en",
        status=Report.Status.DONE,
        answers=obj.answers,
        result={"recommendation": {}},
        html="<p>secret</p>",
    )
    report.pdf.save("secret.pdf", ContentFile(b"%PDF-1.4"), save=False)
    report.save()
    link = ShareLink.objects.create(report=report, token_hash="f" * 64, created_by=owner.user)
    return {"pk": obj.pk, "number": 1, "link_id": link.pk, "assessment_id": obj.pk, "id": obj.pk}


def _url(route: str, values: dict[str, Any]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return str(values[name])
        return {"slug": "organization", "token": "x" * 32}.get(name, "1")

    path = re.sub(r"<(?:\w+:)?(\w+)>", fill, route)
    return "/" + path.lstrip("^").rstrip("$")


def _outsiders() -> dict[str, Client]:
    anonymous = Client()
    other_member = Client()
    other_member.force_login(MembershipFactory(role=Role.ADMIN).user)
    foreign_sales = Client()
    foreign_sales.force_login(MembershipFactory(role=Role.SALES_ENGINEER).user)
    return {
        "anonymous": anonymous,
        "other organisation": other_member,
        "other sales engineer": foreign_sales,
    }


def test_the_matrix_covers_the_object_urls() -> None:
    routes = _object_routes()
    assert len(routes) >= 12, routes
    assert any("reports/<int:number>/pdf" in r for r in routes)


@pytest.mark.parametrize("route", _object_routes())
@pytest.mark.parametrize("method", ["get", "post"])
def test_outsiders_never_reach_another_organisations_objects(
    victim: dict[str, Any], route: str, method: str
) -> None:
    url = _url(route, victim)
    for who, client in _outsiders().items():
        response = getattr(client, method)(url)
        status = response.status_code
        if who == "anonymous" and status == 302:
            assert "/accounts/login/" in response["Location"], (who, url)
            continue
        assert status in {401, 404, 405}, (who, method, url, status)
        assert b"secret" not in response.content and b"Secret" not in response.content
