"""Every URL that takes an object id, generated from the URL configuration, asked for by people
who must not see the object: anonymous visitors, members of another organisation and a sales
engineer working for another customer. Each must get a login redirect, a 404 or (API) a 401.

Then the global pages (scoring models, their impact previews, the catalog, and their admin
pages), which only the operating organisation's staff may open: asked for by every kind of
person, each must get exactly their answer, and no page may list another organisation's
assessments."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from accounts.models import Role
from accounts.services import membership_create
from advisor.models import Assessment, Lead, ShareLink
from advisor.reference.models import Catalog, ScoringModel
from advisor.reference.services.catalog import catalog_clone
from advisor.reference.services.impact import impact_preview_request
from advisor.services.sharing import share_link_create, share_link_revoke
from tests.advisor.test_house_offers import (  # noqa: F401 - fixtures
    customer,
    editor,
    published_offer,
)
from tests.factories import (
    AssessmentFactory,
    MembershipFactory,
    ReportFactory,
    UserFactory,
    operator_member,
)
from tests.reference.scoring.conftest import active, draft, submitted  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

OBJECT_KWARGS = {"pk", "number", "link_id", "assessment_id", "id", "lead_id"}


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
    obj = AssessmentFactory(
        membership=owner, title="Secret", submitted=True, starter="realtime-chatbot"
    )
    report = ReportFactory(assessment=obj, result={"recommendation": {}}, html="<p>secret</p>")
    link = ShareLink.objects.create(report=report, token_hash="f" * 64, created_by=owner.user)
    # A quote request the customer sent: only the operator's staff may move its status.
    lead = Lead.objects.create(
        report=report,
        organization=owner.organization,
        requested_by=owner.user,
        region="hong_kong",
        term_months=12,
    )
    return {
        "pk": obj.pk,
        "number": 1,
        "link_id": link.pk,
        "assessment_id": obj.pk,
        "id": obj.pk,
        "lead_id": lead.pk,
    }


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


# --- global pages -----------------------------------------------------------------------------

SITE, ADMIN = "site", "admin"


@pytest.fixture
def global_pages(
    draft: ScoringModel,  # noqa: F811 - a fixture
    submitted: list[Assessment],  # noqa: F811 - a fixture
) -> list[tuple[str, str]]:
    """The global pages, with a finished impact preview over a customer's secret assessments."""
    victim_org = submitted[0].organization
    victim_org.name = "Victim Corp"
    victim_org.save()
    for assessment in submitted:
        assessment.title = f"Secret plan {assessment.pk}"
    Assessment.objects.bulk_update(submitted, ["title"])
    preview = impact_preview_request(draft=draft, user=None)
    assert preview.result is not None and preview.result["flipped"]
    catalog = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    catalog_draft = catalog_clone(catalog=catalog, user=None)
    return [
        (SITE, reverse("advisor:scoring_models")),
        (SITE, reverse("advisor:scoring_model", args=[draft.pk])),
        (SITE, reverse("advisor:scoring_preview", args=[draft.pk])),
        (SITE, reverse("advisor:catalog")),
        (ADMIN, reverse("admin:reference_scoringmodel_changelist")),
        (ADMIN, reverse("admin:reference_scoringmodel_change", args=[draft.pk])),
        (ADMIN, reverse("admin:reference_scoringmodel_preview", args=[draft.pk])),
        (ADMIN, reverse("admin:reference_impactpreview_changelist")),
        (ADMIN, reverse("admin:reference_catalog_changelist")),
        (ADMIN, reverse("admin:reference_catalog_change", args=[catalog_draft.pk])),
        (ADMIN, reverse("admin:reference_catalog_preview", args=[catalog_draft.pk])),
        (
            ADMIN,
            reverse("admin:reference_catalogprice_changelist")
            + f"?catalog__id__exact={catalog.pk}",
        ),
    ]


def _customer(role: str) -> Any:
    """Someone with `role` in a customer's organisation, joined as the app joins people."""
    member = MembershipFactory(role=Role.MEMBER)
    membership_create(user=member.user, organization=member.organization, role=role)
    member.user.refresh_from_db()
    return member.user


def _legacy_staff_admin() -> Any:
    """A customer's admin made staff before only the operator's admins were."""
    user = _customer(Role.ADMIN)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


# Who asks, and what they get from the site's pages and the admin's: a login redirect,
# 404 (nothing to see here), 403 (staff, but not allowed) or the page.
READERS = {
    "anonymous": (None, "login", "admin login"),
    "customer member": (lambda: _customer(Role.MEMBER), 404, "admin login"),
    "customer admin": (lambda: _customer(Role.ADMIN), 404, "admin login"),
    "customer admin, staff from before": (_legacy_staff_admin, 404, 403),
    "sales engineer of a non-operator organisation": (
        lambda: _customer(Role.SALES_ENGINEER),
        404,
        "admin login",
    ),
    "operator member": (lambda: operator_member(Role.MEMBER), 404, "admin login"),
    "operator sales engineer": (lambda: operator_member(Role.SALES_ENGINEER), 200, "admin login"),
    "operator admin": (lambda: operator_member(Role.ADMIN), 200, 200),
}


@pytest.mark.parametrize("reader", list(READERS))
def test_only_the_operators_staff_open_the_global_pages(
    global_pages: list[tuple[str, str]], reader: str
) -> None:
    make_user, site_answer, admin_answer = READERS[reader]
    client = Client()
    if make_user is not None:
        client.force_login(make_user())
    for kind, url in global_pages:
        response = client.get(url)
        expected = site_answer if kind == SITE else admin_answer
        if expected == "login":
            assert response.status_code == 302, (reader, url)
            assert response["Location"].startswith("/accounts/login/"), (reader, url)
        elif expected == "admin login":
            assert response.status_code == 302, (reader, url)
            assert response["Location"].startswith("/admin/login/"), (reader, url)
        else:
            assert response.status_code == expected, (reader, url, response.status_code)
        # Counts cover every organisation; rows only the reader's own.
        assert b"Secret plan" not in response.content, (reader, url)
        assert b"Victim Corp" not in response.content, (reader, url)


@pytest.mark.parametrize("role", [Role.SALES_ENGINEER, Role.ADMIN])
def test_the_operators_staff_see_the_rows_of_their_own_customers(
    global_pages: list[tuple[str, str]],
    submitted: list[Assessment],  # noqa: F811 - a fixture
    role: str,
) -> None:
    user = operator_member(role)
    membership_create(user=user, organization=submitted[0].organization, role=role)
    client = Client()
    client.force_login(user)
    previews = [url for kind, url in global_pages if url.endswith("/preview/")]
    readable = (
        previews if role == Role.ADMIN else [u for u in previews if not u.startswith("/admin/")]
    )
    page = client.get(readable[0]).content.decode()
    assert "Secret plan" in page and "Victim Corp" in page


def test_a_role_in_a_prospect_never_opens_the_global_pages(
    client: Client,
    global_pages: list[tuple[str, str]],
    mailoutbox: list,  # type: ignore[type-arg]
    django_capture_on_commit_callbacks: Any,
) -> None:
    # The red team's path: a sales engineer opens a prospect and makes an outsider a sales
    # engineer of it through the organisation page's invitation.
    client.force_login(MembershipFactory(role=Role.SALES_ENGINEER).user)
    outsider = UserFactory(email="outsider@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("advisor:prospect_new"),
            {"organization_name": "Prospect Ltd", "title": "Sizing", "contact_email": ""},
        )
        client.post(
            reverse("accounts:organization"),
            {"email": outsider.email, "role": Role.SALES_ENGINEER},
        )
    link = re.search(r"http://testserver(/accounts/invitation/\S+/)", mailoutbox[-1].body)
    assert link is not None
    mallory = Client()
    mallory.force_login(outsider)
    assert mallory.post(link.group(1)).status_code == 302
    for kind, url in global_pages:
        response = mallory.get(url)
        assert response.status_code == (404 if kind == SITE else 302), url
        assert b"Secret plan" not in response.content
    assert "Scoring models" not in mallory.get(reverse("advisor:dashboard")).text


def _shared_routes() -> list[str]:
    """Every page of a share link (`/s/<token>/...`), generated from the URL configuration."""
    return sorted(
        {
            r
            for r in _patterns(get_resolver().url_patterns)
            if r.lstrip("^").startswith("s/") and re.search(r"<(?:\w+:)?token>", r)
        }
    )


@pytest.mark.parametrize("state", ["revoked", "expired"])
def test_a_dead_share_link_opens_nothing_on_any_of_its_pages(
    customer: tuple[Client, Any],  # noqa: F811 - a fixture
    state: str,
) -> None:
    """A share link is the only key to its pages (the page, the PDF, its button and the quote
    form): once revoked or expired, every one of them is a 404 (or a 405 to a method it never
    takes), and a quote request through it makes no lead."""
    _member, report = customer
    user = report.assessment.organization.memberships.first().user
    link, token = share_link_create(report=report, user=user)
    live = Client().get(reverse("advisor:shared", kwargs={"token": token}))
    assert live.status_code == 200
    if state == "revoked":
        share_link_revoke(link=link)
    else:
        ShareLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(hours=1))
    routes = _shared_routes()
    assert len(routes) >= 4, routes  # the page, its PDF, the PDF button, the quote form
    visitor = Client()
    leads_before = Lead.objects.count()
    for route in routes:
        path = _url(route, {"token": token})
        answers = {visitor.get(path).status_code, visitor.post(path, QUOTE_VISITOR).status_code}
        # 404 to the method the page takes; 405 to the other, which it never took.
        assert 404 in answers and answers <= {404, 405}, (path, answers)
    assert Lead.objects.count() == leads_before


QUOTE_VISITOR = {
    "contact_name": "Mei Chan",
    "contact_email": "mei.chan@example.com",
    "term_months": 12,
}
