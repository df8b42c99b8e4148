"""A submitted assessment and its generated report versions, as the report and compare tests
set them up: one way, so that the pages they read come from the same set-up."""

from __future__ import annotations

from typing import Any

from accounts.models import Membership
from advisor.models import Assessment, Report
from advisor.services import reports
from tests.factories import MembershipFactory


def submitted_assessment(*, answers: dict[str, Any], title: str) -> tuple[Membership, Assessment]:
    """A new member's submitted assessment of `answers` (no report yet)."""
    membership = MembershipFactory()
    assessment = Assessment.objects.create(
        organization=membership.organization,
        created_by=membership.user,
        title=title,
        status=Assessment.Status.SUBMITTED,
        answers=answers,
    )
    return membership, assessment


def generated_report(
    assessment: Assessment, *, answers: dict[str, Any], number: int = 1, language: str = "en"
) -> Report:
    """Report version `number` of `answers`, generated in `language` (done, not queued)."""
    report = Report.objects.create(
        assessment=assessment, number=number, language=language, answers=answers
    )
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE
    return report
