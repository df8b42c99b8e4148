"""Writes a signed-in outsider can repeat, driven through the pages as a script would: quote
requests (each one emails the operator's staff) bounded per person, per customer
organisation and per report, with an open request asked again acknowledged and not sent again;
what-if saves counted against the what-if limit before the engine runs; assessment titles that
refuse text-direction overrides and control characters.

The throttle clock stands still in tests (tests/conftest.py, 1_800_000_030: 30 s into a minute
and into an hour), so the waits below are exact."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, Role
from advisor.models import Assessment, Lead, Report
from advisor.reference.models import CatalogPrice
from advisor.services import what_if
from tests.advisor.test_house_offers import (  # noqa: F401 - fixtures
    _hong_kong_hosted,
    editor,
    published_offer,
)
from tests.advisor.test_what_if import HTMX, _data, _url
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory, operator_member

pytestmark = pytest.mark.django_db

QUOTE = {"term_months": 12, "note": "Kept as typed"}
HOUR_LEFT = "3570"  # an hour's window, 30 s in
MINUTE_LEFT = "30"  # a minute's window, 30 s in


@pytest.fixture
def limits(settings: Any, published_offer: CatalogPrice) -> Any:  # noqa: F811 - fixture
    settings.QUOTE_REQUEST_WINDOW_SECONDS = 3600
    settings.QUOTE_REQUESTS_PER_USER = 100
    settings.QUOTE_REQUESTS_PER_ORGANIZATION = 100
    settings.QUOTE_REQUESTS_PER_REPORT = 100
    operator_member(Role.SALES_ENGINEER)  # someone to email
    return settings


def _house_report(membership: Membership, number: int = 1) -> Report:
    """A finished report whose first option is the operator's house offer."""
    assessment = Assessment.objects.filter(
        organization=membership.organization
    ).first() or AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=_hong_kong_hosted()
    )
    return ReportFactory(assessment=assessment, number=number)


def _signed_in(membership: Membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def _quote(client: Client, report: Report, **extra: Any) -> Any:
    url = reverse(
        "advisor:quote_request", kwargs={"pk": report.assessment_id, "number": report.number}
    )
    return client.post(url, QUOTE, **extra)


def _assert_refused(response: Any, retry_after: str) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == retry_after
    page = response.content.decode()
    assert f"Too many quote requests: please wait {retry_after} seconds" in page
    assert "Kept as typed" in page  # the request as typed comes back


def test_quote_requests_are_limited_per_person_then_an_open_one_is_acknowledged(
    limits: Any, django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    limits.QUOTE_REQUESTS_PER_USER = 3
    member = MembershipFactory(role=Role.MEMBER)
    client = _signed_in(member)
    reports = [_house_report(member, number) for number in range(1, 5)]
    with django_capture_on_commit_callbacks(execute=True):
        sent = [_quote(client, report).status_code for report in reports[:3]]
        refused = _quote(client, reports[3])
        script = _quote(client, reports[3], HTTP_ACCEPT="text/plain")
        again = _quote(client, reports[0], follow=True)
    assert sent == [302, 302, 302]
    _assert_refused(refused, HOUR_LEFT)
    assert script.status_code == 429 and script["Retry-After"] == HOUR_LEFT
    assert script["Content-Type"].startswith("text/plain")
    # Past the limit, the request already open is still acknowledged: nothing new is sent.
    assert again.status_code == 200
    assert "You already asked for a quote on this offer" in again.content.decode()
    assert Lead.objects.count() == 3 and len(sent_mail()) == 3
    # Another person is not held back by this one.
    colleague = _signed_in(MembershipFactory(role=Role.MEMBER, organization=member.organization))
    with django_capture_on_commit_callbacks(execute=True):
        assert _quote(colleague, reports[3]).status_code == 302
    assert Lead.objects.count() == 4 and len(sent_mail()) == 4


def test_quote_requests_are_limited_per_organisation(
    limits: Any, django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    limits.QUOTE_REQUESTS_PER_ORGANIZATION = 2
    first = MembershipFactory(role=Role.MEMBER)
    second = MembershipFactory(role=Role.MEMBER, organization=first.organization)
    reports = [_house_report(first, number) for number in range(1, 4)]
    with django_capture_on_commit_callbacks(execute=True):
        assert _quote(_signed_in(first), reports[0]).status_code == 302
        assert _quote(_signed_in(second), reports[1]).status_code == 302
        _assert_refused(_quote(_signed_in(second), reports[2]), HOUR_LEFT)
        _assert_refused(_quote(_signed_in(first), reports[2]), HOUR_LEFT)
        # Another customer's organisation has its own count.
        other = MembershipFactory(role=Role.MEMBER)
        assert _quote(_signed_in(other), _house_report(other)).status_code == 302
    assert Lead.objects.count() == 3 and len(sent_mail()) == 3
    assert Lead.objects.filter(organization=first.organization).count() == 2


def test_quote_requests_are_limited_per_report(
    limits: Any, django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    limits.QUOTE_REQUESTS_PER_REPORT = 2
    first = MembershipFactory(role=Role.MEMBER)
    report = _house_report(first)
    people = [first] + [
        MembershipFactory(role=Role.MEMBER, organization=first.organization) for _ in range(2)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        codes = [_quote(_signed_in(person), report).status_code for person in people[:2]]
        _assert_refused(_quote(_signed_in(people[2]), report), HOUR_LEFT)
        # The organisation's next report has its own count.
        assert _quote(_signed_in(people[2]), _house_report(first, 2)).status_code == 302
    assert codes == [302, 302]
    assert Lead.objects.filter(report=report).count() == 2 and len(sent_mail()) == 3


def test_forty_identical_requests_make_one_lead_and_one_email_until_it_is_answered(
    limits: Any, django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    # 40 POSTs in 2.8 s gave 40 leads and 41 emails.
    member = MembershipFactory(role=Role.MEMBER)
    client = _signed_in(member)
    report = _house_report(member)
    with django_capture_on_commit_callbacks(execute=True):
        codes = {_quote(client, report).status_code for _ in range(40)}
    assert codes == {302}
    lead = Lead.objects.get()
    assert len(sent_mail()) == 1
    page = client.get(reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": 1}))
    assert "You already asked for a quote on this offer" in page.content.decode()
    # The dedupe does not count against the limits: they are all still there.
    limits.QUOTE_REQUESTS_PER_USER = 2
    # Once a sales engineer has quoted it, asking again is a new request.
    staff = _signed_in(Membership.objects.get(user__email=sent_mail()[0].to[0]))
    staff.post(reverse("advisor:lead_status", kwargs={"lead_id": lead.pk}), {"status": "quoted"})
    lead.refresh_from_db()
    assert lead.status == Lead.Status.QUOTED
    with django_capture_on_commit_callbacks(execute=True):
        assert _quote(client, report).status_code == 302
    assert Lead.objects.count() == 2 and len(sent_mail()) == 2


def test_quote_requests_in_traditional_chinese(
    limits: Any, django_capture_on_commit_callbacks: Any
) -> None:
    limits.QUOTE_REQUESTS_PER_USER = 1
    member = MembershipFactory(role=Role.MEMBER)
    client = _signed_in(member)
    first, second = _house_report(member), _house_report(member, 2)
    with django_capture_on_commit_callbacks(execute=True):
        _quote(client, first)
        again = _quote(client, first, follow=True, HTTP_ACCEPT_LANGUAGE="zh-TW")
        refused = _quote(client, second, HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert "您已就此方案要求過報價" in again.content.decode()
    assert refused.status_code == 429 and refused["Retry-After"] == HOUR_LEFT
    assert f"報價請求過多：請等候 {HOUR_LEFT} 秒後再送出。" in refused.content.decode()


# --- what-if saves ------------------------------------------------------------------------------


@pytest.fixture
def owner(client: Client) -> Membership:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def test_what_if_saves_count_against_the_what_if_limit(
    client: Client, owner: Membership, django_capture_on_commit_callbacks: Any
) -> None:
    report = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    bad = _data(report, hours_per_day="x")
    # 60 refused saves and 60 what-ifs use up the what-if limit (120 a minute) together.
    saves = {client.post(_url(report, "report_what_if_save"), bad).status_code for _ in range(60)}
    asks = {client.post(_url(report), bad, **HTMX).status_code for _ in range(60)}
    assert saves == {422} and asks == {200}
    refused = client.post(_url(report), bad, **HTMX)
    assert refused.status_code == 429 and refused["Retry-After"] == MINUTE_LEFT
    assert Report.objects.filter(assessment=report.assessment).count() == 1


def test_past_the_what_if_limit_a_save_is_refused_before_the_engine_runs(
    client: Client, owner: Membership, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    bad = _data(report, hours_per_day="x")
    assert {client.post(_url(report), bad, **HTMX).status_code for _ in range(120)} == {200}
    runs: list[Any] = []
    real = what_if.report_what_if
    monkeypatch.setattr(what_if, "report_what_if", lambda **kw: runs.append(kw) or real(**kw))
    good = _data(report, hours_per_day="20")
    for data in (good, bad):
        response = client.post(_url(report, "report_what_if_save"), data)
        assert response.status_code == 429 and response["Retry-After"] == MINUTE_LEFT
        assert "Too many what-if requests" in response.content.decode()
    assert runs == []  # neither the form nor the engine was run
    assert Report.objects.filter(assessment=report.assessment).count() == 1


# --- assessment titles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("Q3 sizing\u202egpj.exe", "Remove the invisible text-direction characters"),
        ("Q3 \u2066sizing\u2069", "Remove the invisible text-direction characters"),
        ("Q3 \x1b[31msizing", "no line breaks, tabs or other control characters"),
    ],
)
def test_a_new_assessment_title_refuses_bidi_overrides_and_control_characters(
    client: Client, owner: Membership, title: str, message: str
) -> None:
    page = client.post(
        reverse("advisor:assessment_new"), {"title": title, "starter": "llm-fine-tuning-startup"}
    )
    assert page.status_code == 200
    assert message in page.context["form"].errors["title"][0]
    # Nothing else typed is lost: the starter chosen is still chosen.
    assert page.context["form"]["starter"].value() == "llm-fine-tuning-startup"
    assert not Assessment.objects.exists()
    zh = client.post(
        reverse("advisor:assessment_new"), {"title": title}, HTTP_ACCEPT_LANGUAGE="zh-TW"
    )
    assert "請移除看不見的文字方向控制字元" in zh.text or "請只用一行純文字" in zh.text
    ok = client.post(reverse("advisor:assessment_new"), {"title": "Q3 sizing 第三季"})
    assert ok.status_code == 302
    assert Assessment.objects.get().title == "Q3 sizing 第三季"


def test_a_prospects_title_refuses_a_bidi_override(client: Client) -> None:
    engineer = MembershipFactory(role=Role.SALES_ENGINEER)
    client.force_login(engineer.user)
    page = client.post(
        reverse("advisor:prospect_new"),
        {"organization_name": "Acme", "title": "Sizing\u202e", "contact_email": ""},
        follow=True,
    )
    assert "Remove the invisible text-direction characters" in page.text
    assert not Assessment.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_identical_requests_make_one_lead_and_one_email(
    limits: Any, sent_mail: Any
) -> None:
    member = MembershipFactory(role=Role.MEMBER)
    report = _house_report(member)
    clients = [_signed_in(member) for _ in range(12)]

    def ask(client: Client) -> int:
        try:
            return _quote(client, report).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = Counter(pool.map(ask, clients))
    assert statuses == {302: 12}
    assert Lead.objects.count() == 1 and len(sent_mail()) == 1
