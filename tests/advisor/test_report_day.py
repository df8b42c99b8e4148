"""The "same calendar day" rule: a report reuses its submit's result when it was requested on the
day that result's prices were judged against, however late the worker starts."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from advisor.models import Assessment, Report
from advisor.services import reports
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = pytest.mark.django_db

BEFORE_MIDNIGHT = datetime(2026, 3, 9, 23, 59, 59, tzinfo=UTC)
AFTER_MIDNIGHT = datetime(2026, 3, 10, 0, 0, 1, tzinfo=UTC)


def _clock(monkeypatch: pytest.MonkeyPatch, when: datetime) -> None:
    # Django's clock: timezone.localdate, auto_now_add and the services all read it.
    monkeypatch.setattr(timezone, "now", lambda: when)


def _submit_at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> Report:
    membership = MembershipFactory()
    client = Client()
    client.force_login(membership.user)
    obj = AssessmentFactory(membership=membership, starter="llm-fine-tuning-startup")
    _clock(monkeypatch, when)
    response = client.post(
        reverse("advisor:submit", kwargs={"pk": obj.pk}), {"version": obj.version}
    )
    assert response.status_code == 302
    obj.refresh_from_db()
    assert obj.status == Assessment.Status.SUBMITTED
    report = Report.objects.get(assessment=obj)
    assert report.status == Report.Status.PENDING
    return report


@pytest.mark.parametrize("timezone_name", ["UTC", "Asia/Taipei"])
def test_a_submit_just_before_midnight_runs_the_engine_once(
    monkeypatch: pytest.MonkeyPatch, caplog: Any, settings: Any, timezone_name: str
) -> None:
    settings.TIME_ZONE = timezone_name
    submit = BEFORE_MIDNIGHT.astimezone(timezone.get_current_timezone()).replace(
        hour=23, minute=59, second=59
    )
    report = _submit_at(monkeypatch, submit)
    _clock(monkeypatch, submit + (AFTER_MIDNIGHT - BEFORE_MIDNIGHT))  # the worker, 2 s later
    caplog.set_level("INFO", logger="advisor")
    done = reports.report_generate(report_id=report.pk)
    assert done is not None
    assert done.status == Report.Status.DONE
    assert f"report {report.pk}: reuses the submitted result" in caplog.text
    assert f"report {report.pk}: runs the engine" not in caplog.text
    assert done.result["cost"]["today"] == submit.date().isoformat()


def test_a_report_requested_the_next_day_runs_the_engine_for_that_day(
    monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    first = _submit_at(monkeypatch, BEFORE_MIDNIGHT)
    reports.report_generate(report_id=first.pk)
    _clock(monkeypatch, AFTER_MIDNIGHT)
    later = reports.report_request(
        assessment=first.assessment, user=None, language="en", throttle=False
    )
    caplog.set_level("INFO", logger="advisor")
    assert later.pk != first.pk
    done = reports.report_generate(report_id=later.pk)
    assert done is not None
    assert f"report {later.pk}: runs the engine" in caplog.text
    assert done.result["cost"]["today"] == AFTER_MIDNIGHT.date().isoformat()
