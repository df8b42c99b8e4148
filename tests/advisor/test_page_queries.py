"""The report page and the share links posted from it take as many queries
however many versions, share links and quote requests the report has (a query per row would
grow with them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Membership, Role
from advisor.models import Lead, Report, ShareLink
from advisor.services import sharing
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def member() -> Membership:
    membership: Membership = MembershipFactory(role=Role.MEMBER)
    return membership


@pytest.fixture
def report(member: Membership) -> Report:
    assessment = AssessmentFactory(membership=member, submitted=True)
    done: Report = ReportFactory(assessment=assessment)
    return done


@pytest.fixture
def signed_in(member: Membership) -> Client:
    client = Client()
    client.force_login(member.user)
    return client


def _queries(request: Any, status: int) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = request()
    assert response.status_code == status
    return len(queries)


def _grow(report: Report, member: Membership) -> None:
    """Four more versions, five share links (one revoked) and three quote requests."""
    for number in range(2, 6):
        ReportFactory(assessment=report.assessment, number=number, language="zh-hant")
    for i in range(5):
        link, _token = sharing.share_link_create(report=report, user=member.user, label=f"l{i}")
    sharing.share_link_revoke(link=link)
    for _ in range(3):
        Lead.objects.create(
            report=report,
            organization=report.assessment.organization,
            requested_by=member.user,
            region="hong_kong",
            term_months=12,
        )


def _report_url(report: Report) -> str:
    return reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": report.number})


def test_the_report_page_takes_as_many_queries_whatever_the_report_carries(
    signed_in: Client, report: Report, member: Membership
) -> None:
    url = _report_url(report)
    signed_in.get(url)
    few = _queries(lambda: signed_in.get(url), 200)
    _grow(report, member)
    page = signed_in.get(url).content.decode()
    assert page.count('class="share-revoke"') == 4 and "v5</a>" in page
    assert _queries(lambda: signed_in.get(url), 200) == few


def test_creating_and_revoking_a_link_take_as_many_queries_whatever_the_report_carries(
    signed_in: Client, report: Report, member: Membership
) -> None:
    create = reverse(
        "advisor:share_create", kwargs={"pk": report.assessment_id, "number": report.number}
    )

    def share() -> Any:
        return signed_in.post(create, {"label": "for the CFO", "expires_in_days": "30"})

    def revoke() -> Any:
        link = ShareLink.objects.filter(revoked_at__isnull=True).latest("pk")
        url = reverse(
            "advisor:share_revoke", kwargs={"pk": report.assessment_id, "link_id": link.pk}
        )
        return signed_in.post(url)

    created, revoked = _queries(share, 302), _queries(revoke, 302)
    _grow(report, member)
    assert (_queries(share, 302), _queries(revoke, 302)) == (created, revoked)
    assert ShareLink.objects.filter(label="for the CFO", revoked_at__isnull=False).count() == 2
