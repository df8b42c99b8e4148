"""Report requests share the workers: identical requests on their way are not queued twice,
and each person and organisation has a limit per minute."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Report
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _submitted(membership: Any, title: str = "Throttle") -> Assessment:
    return AssessmentFactory(membership=membership, title=title, submitted=True)


def _login(membership: Any) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def _request(client: Client, obj: Assessment, language: str = "en", **extra: Any) -> Any:
    return client.post(
        reverse("advisor:report_request", kwargs={"pk": obj.pk}), {"language": language}, **extra
    )


def _finish_all() -> None:
    # What the worker would do: the report is no longer on its way.
    Report.objects.update(status=Report.Status.DONE)


def test_a_request_for_a_report_already_on_its_way_returns_that_report(
    django_capture_on_commit_callbacks: Any,
) -> None:
    membership = MembershipFactory()
    client, obj = _login(membership), _submitted(membership)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = _request(client, obj)
        again = [_request(client, obj) for _ in range(5)]
    assert Report.objects.count() == 1 and len(callbacks) == 1
    assert {r["Location"] for r in [first, *again]} == {first["Location"]}
    # Running still counts as on its way; another language or changed answers is new work.
    Report.objects.update(status=Report.Status.RUNNING)
    assert _request(client, obj)["Location"] == first["Location"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        chinese = _request(client, obj, "zh-hant")
    assert chinese["Location"] != first["Location"] and len(callbacks) == 1
    obj.answers = {**obj.answers, "title_note": "changed"}
    obj.save()
    assert _request(client, obj)["Location"] not in {first["Location"], chinese["Location"]}
    assert Report.objects.count() == 3


def test_a_person_past_the_limit_gets_a_message_and_htmx_gets_429(settings: Any) -> None:
    settings.REPORT_REQUESTS_PER_USER = 3
    membership = MembershipFactory()
    client, obj = _login(membership), _submitted(membership)
    for _ in range(3):
        assert _request(client, obj).status_code == 302
        _finish_all()
    refused = _request(client, obj, follow=True)
    assert refused.status_code == 200
    assert "Too many report requests" in refused.text
    assert refused.redirect_chain[-1][0] == reverse(
        "advisor:report", kwargs={"pk": obj.pk, "number": 3}
    )
    assert Report.objects.count() == 3
    partial = _request(client, obj, **HTMX)
    assert partial.status_code == 429
    assert 1 <= int(partial["Retry-After"]) <= settings.REPORT_REQUEST_WINDOW_SECONDS
    assert "Too many report requests" in partial.text
    script = _request(client, obj, HTTP_ACCEPT="application/json")
    assert script.status_code == 429 and int(script["Retry-After"]) >= 1
    assert Report.objects.count() == 3
    # Someone else in the same organisation is not held back by this person's limit.
    colleague = MembershipFactory(organization=membership.organization, role=Role.MEMBER)
    assert _request(_login(colleague), obj).status_code == 302
    assert Report.objects.count() == 4


def test_an_organisation_past_its_limit_does_not_hold_back_another(settings: Any) -> None:
    settings.REPORT_REQUESTS_PER_USER = 10
    settings.REPORT_REQUESTS_PER_ORGANIZATION = 4
    first = MembershipFactory()
    colleagues = [first] + [
        MembershipFactory(organization=first.organization, role=Role.MEMBER) for _ in range(2)
    ]
    obj = _submitted(first)
    statuses = []
    for member in colleagues:
        for _ in range(2):
            statuses.append(_request(_login(member), obj, **HTMX).status_code)
            _finish_all()
    assert statuses == [302, 302, 302, 302, 429, 429]
    other = MembershipFactory()
    assert _request(_login(other), _submitted(other, "Elsewhere"), **HTMX).status_code == 302


def test_retrying_counts_against_the_limit_and_only_failed_reports_are_resent(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.REPORT_REQUESTS_PER_USER = 2
    membership = MembershipFactory()
    client, obj = _login(membership), _submitted(membership)
    report = ReportFactory(assessment=obj, queued=True)
    url = reverse("advisor:report_retry", kwargs={"pk": obj.pk, "number": 1})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for _ in range(5):
            client.post(url)
    assert callbacks == []  # a pending report is already queued
    for _ in range(2):
        Report.objects.filter(pk=report.pk).update(status=Report.Status.FAILED)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            assert client.post(url).status_code == 302
        assert len(callbacks) == 1
    Report.objects.filter(pk=report.pk).update(status=Report.Status.FAILED)
    refused = client.post(url, **HTMX)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    report.refresh_from_db()
    assert report.status == Report.Status.FAILED
